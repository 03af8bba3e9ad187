import CairnSQLite
import Foundation

/// Values written into SQL text as literals, for the one place SQLite cannot bind them: the
/// body of a `CREATE TRIGGER` (or `CREATE VIEW`), which is stored as text in the schema and
/// run later. Everywhere else values are bound.
///
/// Each literal reads back as the same value: integers as integers, reals as reals (exactly,
/// see ``exactReal(_:)``), text quoted with `'` doubled, blobs as `X'…'`. A value with no
/// faithful literal throws ``SQLRenderError``.
public enum SQLLiterals {
    /// A real as SQL that SQLite evaluates to exactly that double. Decimal text does not do:
    /// SQLite 3.40's text-to-double conversion is not correctly rounded (about 1 in 300 random
    /// doubles, even in the form its own `quote()` writes, reads back one unit off). A double
    /// is an integer significand times a power of two, and SQLite converts an integer of at
    /// most 53 bits, and multiplies or divides by a power of two, exactly: `0.1` is written
    /// `(3602879701896397.0 / 36028797018963968)`, `3.0` as `(3.0)`.
    public static func exactReal(_ real: Double) -> String {
        if real == 0 { return real.sign == .minus ? "(-0.0)" : "0.0" }
        var significand = real.significandBitPattern
        var exponent: Int
        if real.isNormal {
            significand |= 1 << 52
            exponent = Int(real.exponent) - 52
        } else {
            exponent = -1074
        }
        while significand & 1 == 0 {
            significand >>= 1
            exponent += 1
        }
        var text = (real.sign == .minus ? "(-" : "(") + "\(significand).0"
        var remaining = abs(exponent)
        while remaining > 0 {
            let step = min(remaining, 62)
            text += (exponent < 0 ? " / " : " * ") + "\(Int64(1) << step)"
            remaining -= step
        }
        return text + ")"
    }

    /// The literal of `value`, as a trigger's body needs it.
    public static func literal(_ value: DatabaseValue) throws(SQLRenderError) -> String {
        switch value {
        case .null:
            return "NULL"
        case .integer(let integer):
            // SQLite reads `-9223372036854775808` as minus a number too large for an integer,
            // which becomes a real.
            if integer == .min { return "(-9223372036854775807 - 1)" }
            return integer < 0 ? "(\(integer))" : "\(integer)"
        case .real(let real):
            // SQLite stores NaN as NULL; 9e999 is how its own `quote()` writes infinity.
            if real.isNaN { return "NULL" }
            if real.isInfinite { return real < 0 ? "(-9e999)" : "9e999" }
            return exactReal(real)
        case .text(let text):
            guard !text.utf8.contains(0) else {
                throw SQLRenderError(reason: .notInlinable("A text value containing a NUL character"))
            }
            return quoted(text)
        case .blob(let data):
            return blob(data)
        }
    }

    /// `'text'` with every `'` byte doubled, as SQLite reads it. Doubling by `Character`
    /// (`replacingOccurrences`) missed a quote followed by a combining mark (`a'\u{301}`: one
    /// character that is not `'`), which then ended the literal: SQL injection through a value.
    /// `'` is never part of a longer UTF-8 sequence, so the result stays valid UTF-8.
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "'")]
        bytes.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == UInt8(ascii: "'") { bytes.append(byte) }
        }
        bytes.append(UInt8(ascii: "'"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `X'…'`: a blob's bytes in hexadecimal.
    public static func blob(_ data: Data) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(data.count * 2)
        for byte in data {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return "X'" + String(decoding: hex, as: UTF8.self) + "'"
    }
}

extension SQLStatement {
    /// The statement's SQL with every value written as a literal instead of a placeholder:
    /// the form a trigger's body needs.
    ///
    /// ```swift
    /// try SQLStatement.delete(SQLDelete(from: "t").where(.column("n").equals(.value(.text("it's")))))
    ///     .renderInliningValues().sql
    /// // DELETE FROM "t" WHERE "n" = 'it''s'
    /// ```
    ///
    /// - Throws: ``SQLRenderError`` for a text with a NUL character or a parameter placeholder,
    ///   which have no literal, and for anything ``render(dialect:)`` rejects.
    public func renderInliningValues(dialect: any SQLDialect = SQLiteDialect()) throws -> RenderedSQL {
        try SQLGenerationContext.renderInliningValues(dialect) { try $0.statement(self) }
    }
}

extension SQLExpression {
    /// The expression's SQL with every value written as a literal (a trigger's `WHEN`).
    public func renderInliningValues(dialect: any SQLDialect = SQLiteDialect()) throws -> RenderedSQL {
        try SQLGenerationContext.renderInliningValues(dialect) { try $0.expression(self) }
    }
}

extension SQLGenerationContext {
    fileprivate static func renderInliningValues(
        _ dialect: any SQLDialect, _ body: (inout SQLGenerationContext) throws -> Void
    ) throws -> RenderedSQL {
        var failure: SQLRenderError?
        let rendered = try render(dialect) { context in
            context.inlinesValues = true
            try body(&context)
            failure = context.inliningFailure
        }
        if let failure { throw failure }
        return rendered
    }
}
