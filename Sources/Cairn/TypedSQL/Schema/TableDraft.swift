/// A value that can be inserted as one row of table `Into`: a `@Table` row itself, or its
/// generated `Draft` (whose primary key is optional, so the database assigns it).
/// Its ``BindableRow/databaseValues()`` are bound in the order of `Into.columns.writableColumns`.
public protocol InsertableRow<Into>: BindableRow {
    /// The table the row goes into.
    associatedtype Into
}

/// The generated `Draft` of a `@Table` with a primary key: every column, the key optional.
///
/// ```swift
/// try Reminder.insert { Reminder.Draft(title: "Milk", remindersListID: 1) }.execute(db)
/// // INSERT INTO "reminders" ("id", "title", "remindersListID") VALUES (?, ?, ?)  -- NULL, 'Milk', 1
/// ```
public protocol TableDraft: InsertableRow {
    /// A draft of a stored row, its key kept: to edit and upsert, or to insert beside drafts
    /// (`Reminder.Draft(reminder)`).
    init(_ row: Into)

    /// The columns besides the key that a draft may leave `nil` for the database to fill in:
    /// those declared `@Column(lazyInitializable: true)`.
    ///
    /// ```swift
    /// @Table struct User {
    ///     let id: UUID
    ///     var name = ""
    ///     @Column(lazyInitializable: true) let createdAt: Date
    /// }
    /// try User.insert { User.Draft(name: "Blob") }.execute(db)
    /// // INSERT INTO "users" ("id", "name", "createdAt") VALUES (?, ?, ?)  -- NULL, 'Blob', NULL
    /// ```
    ///
    /// On SQLite a `nil` is bound as NULL, which a column declared `NOT NULL ON CONFLICT REPLACE
    /// DEFAULT …` replaces with its default; on PostgreSQL it is written `DEFAULT`, as a
    /// draft's missing key is.
    static var lazilyInitializedColumns: [String] { get }
}

extension TableDraft {
    /// None, unless the table declares `@Column(lazyInitializable: true)` columns.
    public static var lazilyInitializedColumns: [String] { [] }
}
