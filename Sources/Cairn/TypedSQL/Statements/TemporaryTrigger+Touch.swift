import Foundation

// StructuredQueries' "touch" triggers: after a row is inserted or updated, update that same row
// (found by `rowid`), typically to stamp a date column.

extension TemporaryTrigger.Operation {
    /// `INSERT`, then these updates on the inserted row.
    ///
    /// ```swift
    /// Reminder.createTemporaryTrigger(after: .insert(touch: { $0.position += 1 }))
    /// // … AFTER INSERT ON "reminders" FOR EACH ROW BEGIN UPDATE "reminders"
    /// // SET "position" = "reminders"."position" + 1 WHERE "reminders"."rowid" = "new"."rowid"; END
    /// ```
    @_disfavoredOverload
    public static func insert(
        touch updates: (inout Updates<On>) -> Void,
        when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        Self(event: "insert", columnNames: [], body: touchStatement(updates),
             condition: condition?(TableAlias<On, _New>.columns).sqlExpression)
    }

    /// `INSERT`, then the inserted row's `dateColumn` set to the current date, stored as the
    /// column stores dates (see ``TouchableDate``), or to `dateFunction`.
    ///
    /// ```swift
    /// Reminder.createTemporaryTrigger(after: .insert(touch: \.updatedAt))
    /// // … BEGIN UPDATE "reminders" SET "updatedAt" = ((round(julianday('now') * 86400000.0) - 211845067200000) / 1000.0)
    /// // WHERE "reminders"."rowid" = "new"."rowid"; END
    /// ```
    @_disfavoredOverload
    public static func insert<D: TouchableDate>(
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D>>,
        date dateFunction: any QueryExpression<D> = D.currentDateExpression,
        when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        insert(touch: { $0[dynamicMember: dateColumn] = dateFunction }, when: condition)
    }

    /// `UPDATE` of any column, then these updates on the updated row (they do not fire the
    /// trigger again: SQLite's recursive triggers are off).
    ///
    /// ```swift
    /// Reminder.createTemporaryTrigger(after: .update(touch: { $0.position += 1 }))
    /// ```
    @_disfavoredOverload
    public static func update(
        touch updates: (inout Updates<On>) -> Void,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        update(of: { _ in () }, touch: updates, when: condition)
    }

    /// `UPDATE` of any column, then the row's `dateColumn` set to the current date (or to
    /// `dateFunction`).
    ///
    /// ```swift
    /// Reminder.createTemporaryTrigger(after: .update(touch: \.updatedAt))
    /// ```
    @_disfavoredOverload
    public static func update<D: TouchableDate>(
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D>>,
        date dateFunction: any QueryExpression<D> = D.currentDateExpression,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        update(touch: { $0[dynamicMember: dateColumn] = dateFunction }, when: condition)
    }

    /// `UPDATE OF` some columns, then these updates on the updated row.
    ///
    /// ```swift
    /// Reminder.createTemporaryTrigger(after: .update(of: { $0.title }, touch: { $0.position = 0 }))
    /// // … AFTER UPDATE OF "title" ON "reminders" …
    /// ```
    @_disfavoredOverload
    public static func update<each Column: TableColumnExpression>(
        of columns: (On.TableColumns) -> (repeat each Column),
        touch updates: (inout Updates<On>) -> Void,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        Self(event: "update", columnNames: columnNames(columns), body: touchStatement(updates),
                    condition: condition?(TableAlias<On, _Old>.columns, TableAlias<On, _New>.columns).sqlExpression)
    }

    /// `UPDATE OF` some columns, then the row's `dateColumn` set to the current date (or to
    /// `dateFunction`).
    @_disfavoredOverload
    public static func update<each Column: TableColumnExpression, D: TouchableDate>(
        of columns: (On.TableColumns) -> (repeat each Column),
        touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D>>,
        date dateFunction: any QueryExpression<D> = D.currentDateExpression,
        when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
        update(of: columns, touch: { $0[dynamicMember: dateColumn] = dateFunction }, when: condition)
    }

    /// `UPDATE table SET … WHERE table.rowid = new.rowid`: the row the trigger fired for.
    private static func touchStatement(_ updates: (inout Updates<On>) -> Void) -> [TriggerStatement] {
        var assignments = Updates<On>()
        updates(&assignments)
        // A `forEachRow` body with a statement the trigger builder does not take falls through
        // to this overload, its `new` then being the `Updates`: name that cause.
        guard !assignments.assignments.isEmpty else {
            return [TriggerStatement(content: .failure(
                "the touch closure sets no column of \(On.tableName); if it was meant as a forEachRow body, "
                    + "one of its statements is not an insert, update, delete, select or #sql statement"))]
        }
        let sameRow = SQLExpression.column("rowid", table: On.tableName)
            .equals(.column("rowid", table: _New.aliasName))
        let update = Update<On, ()>(
            statement: SQLUpdate(On.tableName, set: assignments.assignments).where(sameRow), bindingFailure: assignments.bindingFailure,
            decodeReturning: nil)
        return TriggerStatementsBuilder.buildExpression(update)
    }
}

/// A column type that a touch trigger (`.insert(touch: \.updatedAt)`) can stamp with the
/// current date: SQLite's `'now'`, written as the column stores dates.
///
/// | column type | stored as | the current date in SQL |
/// |---|---|---|
/// | `Date`, `Date.ISO8601Representation` | text, UTC, to the millisecond | `strftime('%Y-%m-%d %H:%M:%f', 'now')` |
/// | `Date.TimeIntervalSinceReferenceDateRepresentation` | REAL seconds since 2001-01-01 | `((round(julianday('now') * 86400000.0) - 211845067200000) / 1000.0)` |
/// | `Date.UnixTimeRepresentation` | REAL seconds since 1970-01-01 | `((round(julianday('now') * 86400000.0) - 210866760000000) / 1000.0)` |
/// | `Date.JulianDayRepresentation` | REAL Julian day | `julianday('now')` |
///
/// Optionals of these work too. SQLite's `'now'` is a whole number of milliseconds, the same
/// throughout one statement; the REAL forms recover those milliseconds exactly (through the
/// Julian day in milliseconds) rather than carrying the Julian day's rounding error.
/// StructuredQueries' default, `datetime('subsec')`, writes the same text as `strftime` here,
/// but SQLite before 3.42 (Debian 12 has 3.40) returns NULL for it, so a trigger ported with
/// `date: #sql("datetime('subsec')")` stamps NULL without an error.
///
/// The row is found by `rowid`, so a touch trigger cannot be used on a `WITHOUT ROWID` table
/// (SQLite fails on the first write) nor `insteadOf:` a view; `before:` an insert it finds no
/// row yet, and changes nothing.
public protocol TouchableDate {
    /// The current date as this type stores it.
    static var currentDateExpression: SQLQueryExpression<Self> { get }
}

extension Date: TouchableDate {
    /// The current date as this column stores dates, for touch triggers.
    public static var currentDateExpression: SQLQueryExpression<Date> {
        SQLQueryExpression(Date._dateStorage([.raw(SQLFragment(sql: "'now'"))]))
    }
}

extension Date.TimeIntervalSinceReferenceDateRepresentation: TouchableDate {
    /// The current date as this column stores dates, for touch triggers.
    public static var currentDateExpression: SQLQueryExpression<Self> {
        SQLQueryExpression(Self._dateStorage([.raw(SQLFragment(sql: "'now'"))]))
    }
}

extension Date.UnixTimeRepresentation: TouchableDate {
    /// The current date as this column stores dates, for touch triggers.
    public static var currentDateExpression: SQLQueryExpression<Self> {
        SQLQueryExpression(Date.UnixTimeRepresentation._dateStorage([.raw(SQLFragment(sql: "'now'"))]))
    }
}

extension Date.JulianDayRepresentation: TouchableDate {
    /// The current date as this column stores dates, for touch triggers.
    public static var currentDateExpression: SQLQueryExpression<Self> {
        SQLQueryExpression(Date.JulianDayRepresentation._dateStorage([.raw(SQLFragment(sql: "'now'"))]))
    }
}

extension Date.ISO8601Representation: TouchableDate {
    /// The current date as this column stores dates, for touch triggers.
    public static var currentDateExpression: SQLQueryExpression<Self> {
        SQLQueryExpression(Date.ISO8601Representation._dateStorage([.raw(SQLFragment(sql: "'now'"))]))
    }
}

extension Optional: TouchableDate where Wrapped: TouchableDate {
    /// The current date as this column stores dates, for touch triggers.
    public static var currentDateExpression: SQLQueryExpression<Self> {
        SQLQueryExpression(Wrapped.currentDateExpression.sqlExpression)
    }
}
