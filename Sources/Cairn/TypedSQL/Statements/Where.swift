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
///
/// A stored filter chains onto any statement of its table by name, and `+` adds one filter's
/// conditions to another's, each condition once (see ``Select/+(_:_:)``):
///
/// ```swift
/// Reminder.where { $0.priority > 1 }.incomplete.select(\.title)
/// // SELECT "reminders"."title" FROM "reminders"
/// // WHERE "reminders"."priority" > ? AND NOT "reminders"."isCompleted"
/// Reminder.where(\.isFlagged) + Reminder.incomplete
/// // … WHERE "reminders"."isFlagged" AND NOT "reminders"."isCompleted"
/// ```
public typealias Where<From: Table> = SelectOf<From>
