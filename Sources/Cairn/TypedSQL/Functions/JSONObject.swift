import Foundation

// Whole rows as JSON: `$0.jsonObject()` and `$1.jsonGroupArray()` on a table's columns, as
// StructuredQueries spells them, decoded back into the row type by its `Codable` conformance.
//
// `json_object` writes a column's value as SQLite holds it, and what `JSONDecoder` reads for the
// Swift type is not always that: a `Bool` is stored as 0 or 1 but decodes from `true`/`false`,
// a nested JSON column is text that must be embedded as JSON, and a `Date` stored as a number
// of some epoch becomes seconds since 2001 (a `Date` column's text goes in as it is; the row's
// JSON decoding reads both). Each such storage says how to write itself
// (`JSONObjectMemberEncoding`); any other stored value goes into the object as it is.
//
// SQLite writes a REAL in JSON with 15 significant digits, which does not give every `Double`
// back; reals and dates are written with `printf('%!.17g', …)`, which reads back as the same
// `Double` for magnitudes below about 1e100 (beyond, SQLite's own formatting can change the
// last digit).

/// A stored value whose column must be turned into the JSON form `JSONDecoder` reads for its
/// Swift type.
protocol JSONObjectMemberEncoding {
    /// The column's value as a JSON object member (NULL stays NULL, written as `null`).
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression
}

extension Optional: JSONObjectMemberEncoding where Wrapped: JSONObjectMemberEncoding {
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression { Wrapped.jsonObjectValue(column) }
}

extension Bool: JSONObjectMemberEncoding {
    /// `json(CASE x WHEN 0 THEN 'false' WHEN 1 THEN 'true' END)`, as StructuredQueries writes it.
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression {
        .raw(SQLFragment(segments: [
            .sql("json(CASE "), .expression(column), .sql(" WHEN 0 THEN 'false' WHEN 1 THEN 'true' END)"),
        ]))
    }
}

extension Double: JSONObjectMemberEncoding {
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression { exactJSONReal(column, nullWhen: column) }
}

extension Float: JSONObjectMemberEncoding {
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression { exactJSONReal(column, nullWhen: column) }
}

extension Date.TimeIntervalSinceReferenceDateRepresentation: JSONObjectMemberEncoding {
    /// Stored as seconds since 2001, what `JSONDecoder` reads by default.
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression { exactJSONReal(column, nullWhen: column) }
}

extension Date.UnixTimeRepresentation: JSONObjectMemberEncoding {
    /// `x - 978307200`: the same subtraction `Date(timeIntervalSince1970:)` makes.
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression {
        let sinceReferenceDate = SQLExpression.raw(SQLFragment(segments: [
            .expression(column), .sql(" - \(Date.referenceDateUnixTime)"),
        ]))
        return exactJSONReal(sinceReferenceDate, nullWhen: column)
    }
}

extension Date.JulianDayRepresentation: JSONObjectMemberEncoding {
    /// The day's milliseconds as seconds since 2001, read as the date functions read it.
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression {
        exactJSONReal(Date.TimeIntervalSinceReferenceDateRepresentation._dateStorage(_timeValue(column)), nullWhen: column)
    }
}

extension UUID.BytesRepresentation: JSONObjectMemberEncoding {
    /// The 16 bytes as `uuidString` text (JSON has no bytes).
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression {
        let parts = [(1, 8), (9, 4), (13, 4), (17, 4), (21, 12)].map { start, length -> SQLExpression in
            .function("substr", .function("hex", column), .raw(SQLFragment(sql: "\(start)")),
                      .raw(SQLFragment(sql: "\(length)")))
        }
        let text = SQLExpression.function("printf", [.raw(SQLFragment(sql: "'%s-%s-%s-%s-%s'"))] + parts)
        return .case(when: [(column.isNull(), .raw(SQLFragment(sql: "NULL")))], else: text)
    }
}

extension Decimal: JSONObjectMemberEncoding {
    /// The exact decimal text as a JSON number, which `JSONDecoder` reads as a `Decimal`.
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression { .function("json", column) }
}

extension _CodableJSONRepresentation: JSONObjectMemberEncoding {
    /// The stored JSON text embedded as JSON, not as a string.
    static func jsonObjectValue(_ column: SQLExpression) -> SQLExpression { .function("json", column) }
}

/// `CASE WHEN column IS NULL THEN NULL ELSE json(printf('%!.17g', value)) END`.
private func exactJSONReal(_ value: SQLExpression, nullWhen column: SQLExpression) -> SQLExpression {
    let digits = SQLExpression.function("printf", .raw(SQLFragment(sql: "'%!.17g'")), value)
    return .case(when: [(column.isNull(), .raw(SQLFragment(sql: "NULL")))], else: .function("json", digits))
}

extension TableColumn: JSONObjectMemberEncodingColumn {
    var jsonObjectValue: SQLExpression {
        (Value.self as? any JSONObjectMemberEncoding.Type)?.jsonObjectValue(sqlExpression) ?? sqlExpression
    }
}

/// A column that knows its value type, so it can write itself as a JSON object member.
private protocol JSONObjectMemberEncodingColumn {
    var jsonObjectValue: SQLExpression { get }
}

extension TableDefinition where QueryValue: Table & Codable {
    /// `json_object('column', value, …)`: the row as a JSON object, decoded back into the row
    /// type.
    ///
    /// ```swift
    /// @Table struct RemindersList: Codable { let id: Int; var title = ""; var isShared = false }
    ///
    /// Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.select { ($0.title, $1.jsonObject()) }
    /// // SELECT "reminders"."title", json_object('id', "remindersLists"."id", 'title',
    /// //   "remindersLists"."title", 'isShared', json(CASE "remindersLists"."isShared" WHEN 0
    /// //   THEN 'false' WHEN 1 THEN 'true' END)) FROM "reminders" JOIN …
    /// ```
    ///
    /// Each member is named by its column name, so the row type's `CodingKeys` must be its
    /// column names (as for ``JSONPath``). A `Bool` is written as `true`/`false`, a JSON column
    /// as JSON, a `Date` as its text (a date stored as a number as seconds since 2001; the row's
    /// JSON decoding reads both),
    /// `UUID.BytesRepresentation` as its text, and reals with 17 significant digits (where
    /// StructuredQueries lets SQLite write 15) so that every `Double` reads back exactly.
    /// A `Data` column cannot be written (SQLite refuses BLOBs in JSON: the query throws), and
    /// a table with column groups or a ``TableAlias`` writes its columns flat, without these
    /// conversions.
    public func jsonObject() -> SQLQueryExpression<_CodableJSONRepresentation<QueryValue>> {
        SQLQueryExpression(jsonObjectExpression)
    }

    var jsonObjectExpression: SQLExpression {
        .function("json_object", allColumns.flatMap { column -> [SQLExpression] in
            let value = (column as? any JSONObjectMemberEncodingColumn)?.jsonObjectValue ?? column.sqlExpression
            return [.raw(SQLFragment(sql: SQLLiterals.quoted(column.name))), value]
        })
    }

    /// `json_group_array(json_object(…))`: the group's rows as an array of rows.
    ///
    /// ```swift
    /// RemindersList.group(by: \.id).join(Reminder.all) { $0.id.eq($1.remindersListID) }
    ///     .select { ($0.title, $1.jsonGroupArray()) }          // → [(String, [Reminder])]
    /// // SELECT "remindersLists"."title", json_group_array(json_object('id', "reminders"."id", …))
    /// // FROM "remindersLists" JOIN "reminders" ON … GROUP BY "remindersLists"."id"
    /// ```
    ///
    /// `distinct`, `order` (SQLite 3.44 or later) and `filter` work as for a column's
    /// `jsonGroupArray`; the rows are written as by ``jsonObject()``.
    public func jsonGroupArray(
        distinct: Bool = false, order: (any QueryOrderingTerm)? = nil, filter: (any QueryExpression<Bool>)? = nil
    ) -> SQLQueryExpression<[QueryValue].JSONRepresentation> {
        SQLQueryExpression(.aggregate(SQLAggregate(
            name: "json_group_array", arguments: [jsonObjectExpression], distinct: distinct,
            ordering: order.map { [$0.orderingTerm] } ?? [], filter: filter?.sqlExpression)))
    }
}

extension OptionalTableColumns where Base: Codable {
    /// `CASE WHEN "t"."rowid" IS NOT NULL THEN json_object(…) END`: the row of an outer join's
    /// optional side as JSON, `nil` where the join found none.
    ///
    /// ```swift
    /// Reminder.leftJoin(User.all) { $0.assignedUserID.eq($1.id) }.select { ($0.title, $1.jsonObject()) }
    /// // SELECT "reminders"."title", CASE WHEN "users"."rowid" IS NOT NULL
    /// //   THEN json_object('id', "users"."id", 'name', "users"."name") END FROM …
    /// ```
    ///
    /// The row is found by `rowid`, as in StructuredQueries, so the table is not a
    /// `WITHOUT ROWID` table or a view.
    public func jsonObject() -> SQLQueryExpression<_CodableJSONRepresentation<Base>?> {
        SQLQueryExpression(.case(when: [(rowFound, Base.columns.jsonObjectExpression)]))
    }

    /// `json_group_array(CASE … json_object(…) END) FILTER (WHERE "t"."rowid" IS NOT NULL)`:
    /// the rows the outer join found, `[]` for a group with none.
    ///
    /// ```swift
    /// Reminder.group(by: \.id).leftJoin(Tag.all) { … }.select { ($0.title, $1.jsonGroupArray()) }
    /// // SELECT "reminders"."title", json_group_array(CASE WHEN "tags"."rowid" IS NOT NULL
    /// //   THEN json_object('id', "tags"."id", 'title', "tags"."title") END)
    /// //   FILTER (WHERE "tags"."rowid" IS NOT NULL) FROM …
    /// ```
    public func jsonGroupArray(
        distinct: Bool = false, order: (any QueryOrderingTerm)? = nil, filter: (any QueryExpression<Bool>)? = nil
    ) -> SQLQueryExpression<[Base].JSONRepresentation> {
        SQLQueryExpression(.aggregate(SQLAggregate(
            name: "json_group_array", arguments: [jsonObject().sqlExpression], distinct: distinct,
            ordering: order.map { [$0.orderingTerm] } ?? [],
            filter: filter.map { rowFound.and($0.sqlExpression) } ?? rowFound)))
    }

    /// `"t"."rowid" IS NOT NULL`: the join found a row.
    private var rowFound: SQLExpression {
        SQLExpression.column("rowid", table: Base.tableAlias ?? Base.tableName).isNotNull()
    }
}
