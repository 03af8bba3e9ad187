/// A filter of a table's rows: what `Reminder.where { … }` returns, under the name
/// StructuredQueries gives it, so a filter can be declared, stored and passed by its type.
///
/// It is the table's statement with a `WHERE` clause (a ``SelectOf``), so everything a
/// statement offers applies to it: `select`, `order`, `join`, `count()`, `fetchAll(db)`,
/// `delete()`, `update { }`, further `where`s, and combining with `and`, `or`, `&&`, `||`, `!`
/// and `+`.
///
/// ```swift
/// extension Reminder {
///     static let incomplete: Where<Reminder> = Reminder.where { !$0.isCompleted }
///     static func searching(_ text: String) -> Where<Reminder> { Self.where { $0.title.contains(text) } }
/// }
/// try Reminder.incomplete.order(by: \.title).fetchAll(db)
/// // SELECT … FROM "reminders" WHERE NOT "reminders"."isCompleted" ORDER BY "reminders"."title"
/// try Reminder.incomplete.delete().execute(db)
/// // DELETE FROM "reminders" WHERE NOT "reminders"."isCompleted"
/// ```
public typealias Where<From: Table> = SelectOf<From>

extension Select where Columns == (), Joins == () {
    /// Both filters: the conditions of `rhs` added to those of `lhs` with `AND`, each condition
    /// once (a condition both share, such as a default scope's, is not repeated).
    ///
    /// ```swift
    /// Reminder.where(\.isFlagged) + Reminder.where { !$0.isCompleted }
    /// // … WHERE "reminders"."isFlagged" AND NOT "reminders"."isCompleted"
    /// ```
    public static func + (lhs: Self, rhs: Self) -> Self {
        guard let added = rhs.query.condition else { return lhs }
        let existing = lhs.query.condition?.conjuncts ?? []
        let new = added.conjuncts.filter { !existing.contains($0) }
        guard let first = new.first else { return lhs }
        let condition = new.dropFirst().reduce(first) { $0.and($1) }
        return lhs.with { $0.condition = $0.condition.map { $0.and(condition) } ?? condition }
    }
}
