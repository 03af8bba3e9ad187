// `json_group_array`: a group's values as one JSON array, decoded into a Swift array, as
// StructuredQueries' `jsonGroupArray()` does.

/// A stored value that SQLite's JSON functions write exactly as Swift's `JSONDecoder` reads it
/// back: text and integers (and their optionals). Reals are left out (SQLite writes them in
/// JSON with 15 significant digits, which does not round-trip a `Double`), and so are `Bool`
/// (stored as 0 and 1, which do not decode as JSON booleans) and dates.
public protocol JSONArrayElement: QueryBindable where QueryOutput: Codable {}

extension String: JSONArrayElement {}
extension Int: JSONArrayElement {}
extension Int8: JSONArrayElement {}
extension Int16: JSONArrayElement {}
extension Int32: JSONArrayElement {}
extension Int64: JSONArrayElement {}
extension UInt8: JSONArrayElement {}
extension UInt16: JSONArrayElement {}
extension UInt32: JSONArrayElement {}
extension Optional: JSONArrayElement where Wrapped: JSONArrayElement {}

extension QueryExpression where QueryValue: JSONArrayElement {
    /// `json_group_array([DISTINCT] x) [FILTER (WHERE …)]`: every value of the group, as an array.
    ///
    /// ```swift
    /// RemindersList.group(by: \.id).join(Reminder.all) { $0.id.eq($1.remindersListID) }
    ///     .select { ($0.title, $1.title.jsonGroupArray()) }
    /// // SELECT "remindersLists"."title", json_group_array("reminders"."title") … GROUP BY …
    /// // → [("Personal", ["Groceries", "Haircut", …]), …]
    /// ```
    ///
    /// A group with no rows gives `[]`; the optional side of an outer join contributes `nil`s
    /// unless `filter` leaves them out (`filter: $1.id.isNot(nil)`). `order` (SQLite 3.44 or later) sorts the array:
    /// `$1.title.jsonGroupArray(order: $1.title.desc())` renders
    /// `json_group_array("reminders"."title" ORDER BY "reminders"."title" DESC)`.
    public func jsonGroupArray(
        distinct: Bool = false, order: (any QueryOrderingTerm)? = nil, filter: (any QueryExpression<Bool>)? = nil
    ) -> SQLQueryExpression<[QueryValue.QueryOutput].JSONRepresentation> {
        SQLQueryExpression(.aggregate(SQLAggregate(
            name: "json_group_array", arguments: [sqlExpression], distinct: distinct,
            ordering: order.map { [$0.orderingTerm] } ?? [], filter: filter?.sqlExpression)))
    }
}
