// Fetching one row by its primary key when it must exist, as SQLiteData spells it:
// `try Reminder.find(db, key: 42)` returns the row or throws `NotFound`, where
// `try Reminder.find(42).fetchOne(db)` returns `nil`.

/// The error ``PrimaryKeyedTable/find(_:key:)`` throws when no row has the key, as SQLiteData's
/// `NotFound`.
///
/// ```swift
/// do {
///     let reminder = try Reminder.find(db, key: 42)
/// } catch is NotFound {
///     // no reminder 42 (or it is outside the table's default scope)
/// }
/// ```
public struct NotFound: Error, Sendable, CustomStringConvertible {
    /// The table searched; `nil` when the error was made without one (`NotFound()`).
    public let tableName: String?

    /// An error naming no table, as SQLiteData's `NotFound()`.
    public init() { tableName = nil }

    /// An error naming the table searched.
    public init(tableName: String) { self.tableName = tableName }

    public var description: String {
        guard let tableName else { return "no row has the primary key looked up" }
        return "no row of \"\(tableName)\" has the primary key looked up: fetch with find(key).fetchOne(db) "
            + "where a missing row is expected"
    }
}

extension PrimaryKeyedTable {
    /// The row with the given primary key; throws ``NotFound`` when there is none.
    ///
    /// ```swift
    /// let reminder = try Reminder.find(db, key: 42)
    /// // SELECT "reminders"."id", … FROM "reminders" WHERE "reminders"."id" = ?
    /// let enrollment = try Enrollment.find(db, key: Enrollment.ID(courseID: 42, studentID: 1729))
    /// // … WHERE ("enrollments"."courseID", "enrollments"."studentID") = (?, ?)
    /// ```
    ///
    /// The table's default scope applies, as it does to `find(key)`.
    @inlinable
    public static func find(_ db: some QueryConnection, key: TableColumns.PrimaryKey.QueryOutput) throws -> QueryOutput {
        guard let row = try find(key).fetchOne(db) else { throw NotFound(tableName: tableName) }
        return row
    }
}

extension Select where From: PrimaryKeyedTable, Columns == (), Joins == () {
    /// The row of this statement with the given primary key; throws ``NotFound`` when there is
    /// none.
    ///
    /// ```swift
    /// let reminder = try Reminder.where { !$0.isCompleted }.find(db, key: 42)
    /// // … WHERE NOT "reminders"."isCompleted" AND "reminders"."id" = ?
    /// ```
    @inlinable
    public func find(_ db: some QueryConnection, key: From.TableColumns.PrimaryKey.QueryOutput) throws -> From.QueryOutput {
        guard let row = try find(key).fetchOne(db) else { throw NotFound(tableName: From.tableName) }
        return row
    }
}
