/// A database whose rows live queries read and whose commits they watch: every
/// ``DatabaseReader`` (``DatabaseQueue``, ``DatabasePool``) and, with `CairnPostgres`, a
/// `PostgresDatabase`.
///
/// It is the type of the `database:` argument of `@FetchAll`, `@FetchOne` and `@Fetch`, so one
/// declaration reads either engine:
///
/// ```swift
/// @FetchAll(Reminder.where { !$0.isCompleted }, database: pool) var open        // SQLite
/// @FetchAll(Reminder.where { !$0.isCompleted }, database: server) var onServer  // PostgreSQL
/// ```
///
/// The protocol has no requirements of its own: the live queries know how to read and watch
/// each of the engines above, and refuse another conforming type with an error that names it.
public protocol LiveQueryDatabase: AnyObject, Sendable {}
