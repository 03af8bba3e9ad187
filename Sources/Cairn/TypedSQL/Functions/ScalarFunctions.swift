// SQLite's built-in scalar functions on numbers, blobs and conditions, spelled as
// StructuredQueries spells them (`$0.price.abs()`, `4.randomblob()`, `$0.isFlagged.likely()`).
// Text functions are in Operators/Strings.swift. Every function here answers the same on
// PostgreSQL (PostgreSQLDialect rewrites it) or, where PostgreSQL has no such function
// (`randomblob`), throws naming it when the statement is rendered.
//
// SQLite's `unhex` (3.41) and `octet_length` (3.43) are not offered: the SQLite Cairn links
// may be older (3.40), where a statement calling them fails to prepare.

import Foundation

/// The value type of a number expression: an integer or floating-point type, or an optional
/// one (NULL in, NULL out).
public protocol _NumericValue {}
extension Int: _NumericValue {}
extension Int8: _NumericValue {}
extension Int16: _NumericValue {}
extension Int32: _NumericValue {}
extension Int64: _NumericValue {}
extension UInt8: _NumericValue {}
extension UInt16: _NumericValue {}
extension UInt32: _NumericValue {}
extension Double: _NumericValue {}
extension Float: _NumericValue {}
extension Optional: _NumericValue where Wrapped: _NumericValue {}

/// The value type of a floating-point expression: `Double`, `Float` or an optional of one.
public protocol _FloatingPointValue: _NumericValue {}
extension Double: _FloatingPointValue {}
extension Float: _FloatingPointValue {}
extension Optional: _FloatingPointValue where Wrapped: _FloatingPointValue {}

/// The value type of a blob expression: `[UInt8]` (as StructuredQueries stores blobs) or `Data`.
public protocol _BlobValue {}
extension Array: _BlobValue where Element == UInt8 {}
extension Data: _BlobValue {}

// MARK: - Numbers

extension QueryExpression where QueryValue: _NumericValue {
    /// `abs(x)`: the absolute value; optional stays optional (NULL for NULL).
    ///
    /// ```swift
    /// Reminder.select { $0.position.abs() }  // SELECT abs("reminders"."position") FROM "reminders"
    /// ```
    ///
    /// SQLite throws "integer overflow" for `abs(Int64.min)`, as Swift's `abs` would stop.
    public func abs() -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("abs", sqlExpression))
    }

    /// `sign(x)`: -1, 0 or 1 for a negative, zero or positive number; NULL for NULL.
    ///
    /// ```swift
    /// Reminder.select { ($0.position - 1).sign() }
    /// // SELECT sign(("reminders"."position" - ?)) FROM "reminders"
    /// ```
    ///
    /// On PostgreSQL, `CAST(sign(x) AS BIGINT)`: PostgreSQL's `sign` answers a floating-point
    /// number, SQLite's an integer.
    public func sign() -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("sign", sqlExpression))
    }
}

extension QueryExpression where QueryValue: _FloatingPointValue {
    /// `round(x)` or `round(x, precision)`: rounded half away from zero to `precision` digits
    /// after the point (none by default).
    ///
    /// ```swift
    /// Item.select { $0.price.round() }          // SELECT round("items"."price") FROM "items"
    /// Item.select { $0.price.avg().round(2) }   // SELECT round(avg("items"."price"), ?) FROM "items"
    /// ```
    ///
    /// On PostgreSQL the number is rounded as a `NUMERIC`, which rounds half away from zero as
    /// SQLite does (a `DOUBLE PRECISION` would round half to even).
    public func round(_ precision: (some QueryExpression<Int>)? = Int?.none) -> SQLQueryExpression<QueryValue> {
        guard let precision else { return SQLQueryExpression(.function("round", sqlExpression)) }
        return SQLQueryExpression(.function("round", sqlExpression, precision.sqlExpression))
    }
}

// MARK: - Blobs

extension QueryExpression where QueryValue: _BlobValue {
    /// `hex(x)`: the blob's bytes as upper-case hexadecimal text.
    ///
    /// ```swift
    /// Asset.select { $0.bytes.hex() }  // SELECT hex("assets"."bytes") FROM "assets"   → ["00FF"]
    /// ```
    ///
    /// On PostgreSQL, `coalesce(upper(encode(x, 'hex')), '')` (SQLite's `hex(NULL)` is `''`).
    public func hex() -> SQLQueryExpression<String> {
        SQLQueryExpression(.function("hex", sqlExpression))
    }
}

extension QueryExpression where QueryValue: BinaryInteger {
    /// `randomblob(n)`: `n` random bytes (one when `n` is less than 1).
    ///
    /// ```swift
    /// Asset.where { $0.id.eq(1) }.update { $0.bytes = 1_024.randomblob() }
    /// // UPDATE "assets" SET "bytes" = randomblob(?) WHERE "assets"."id" = ?
    /// ```
    ///
    /// PostgreSQL has no such function without an extension: rendering it there throws a
    /// ``SQLRenderError`` naming `randomblob()`.
    public func randomblob() -> SQLQueryExpression<[UInt8]> {
        SQLQueryExpression(.function("randomblob", sqlExpression))
    }

    /// `zeroblob(n)`: `n` zero bytes (none when `n` is less than 1).
    ///
    /// ```swift
    /// Asset.where { $0.id.eq(1) }.update { $0.bytes = 1_024.zeroblob() }
    /// // UPDATE "assets" SET "bytes" = zeroblob(?) WHERE "assets"."id" = ?
    /// ```
    ///
    /// On PostgreSQL, `decode(repeat('00', n), 'hex')`.
    public func zeroblob() -> SQLQueryExpression<[UInt8]> {
        SQLQueryExpression(.function("zeroblob", sqlExpression))
    }
}

// MARK: - Planner hints

extension QueryExpression where QueryValue: _BooleanValue {
    /// `likelihood(x, probability)`: the condition `x`, with a hint to SQLite's query planner
    /// that it holds with the given probability (0.0 to 1.0).
    ///
    /// ```swift
    /// Reminder.where { $0.isFlagged.likelihood(0.25) }
    /// // SELECT … FROM "reminders" WHERE likelihood("reminders"."isFlagged", 0.25)
    /// ```
    ///
    /// SQLite refuses a probability that is not a constant between 0.0 and 1.0. On PostgreSQL
    /// the hint is left out (`x`).
    public func likelihood(_ probability: Double) -> SQLQueryExpression<QueryValue> {
        // SQLite takes the probability only as a number written in the SQL, never bound.
        let hint = probability.isFinite ? "\(probability)" : "NULL"
        return SQLQueryExpression(.function("likelihood", sqlExpression, .raw(SQLFragment(sql: hint))))
    }

    /// `likely(x)`: the condition `x`, hinted to hold usually (`likelihood(x, 0.9375)`).
    ///
    /// ```swift
    /// Reminder.where { $0.isCompleted.likely() }
    /// // SELECT … FROM "reminders" WHERE likely("reminders"."isCompleted")
    /// ```
    public func likely() -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("likely", sqlExpression))
    }

    /// `unlikely(x)`: the condition `x`, hinted to hold rarely (`likelihood(x, 0.0625)`).
    ///
    /// ```swift
    /// Reminder.where { $0.isFlagged.unlikely() }
    /// // SELECT … FROM "reminders" WHERE unlikely("reminders"."isFlagged")
    /// ```
    public func unlikely() -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("unlikely", sqlExpression))
    }
}

// MARK: - NULL for a value

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `nullif(x, other)`: NULL where `x` equals `other`, else `x`; always optional.
    ///
    /// ```swift
    /// Reminder.select { $0.notes.nullif("") }
    /// // SELECT nullif("reminders"."notes", ?) FROM "reminders"   → [String?]
    /// ```
    public func nullif<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<QueryValue._Optionalized>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(.function("nullif", sqlExpression, other.sqlExpression))
    }
}
