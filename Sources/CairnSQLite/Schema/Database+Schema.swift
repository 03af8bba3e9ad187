/// A column of a table, as `PRAGMA table_info` describes it.
public struct ColumnInfo: Sendable, Hashable {
    /// The column name.
    public let name: String
    /// The declared type (`INTEGER`, `TEXT`, ...), empty when none was declared.
    public let declaredType: String
    /// Whether the column is `NOT NULL`.
    public let isNotNull: Bool
    /// The default value's SQL text, if any.
    public let defaultValueSQL: String?
    /// The 1-based position in the primary key, 0 when not part of it.
    public let primaryKeyIndex: Int
}

extension Database {
    /// Whether a table (or view) named `name` exists in the main schema.
    ///
    /// ```swift
    /// if try !db.tableExists("workout") { try db.execute(sql: "CREATE TABLE workout (...)") }
    /// // SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE
    /// ```
    public func tableExists(_ name: String) throws -> Bool {
        try fetchValue(Int.self, sql: "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE",
                       arguments: [name]) != nil
    }

    /// The columns of `table`, in declaration order; empty when the table does not exist.
    ///
    /// ```swift
    /// let names = try db.columns(in: "workout").map(\.name)
    /// // SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)
    /// ```
    public func columns(in table: String) throws -> [ColumnInfo] {
        try fetchAll(sql: #"SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid"#,
                     arguments: [table]) { row in
            ColumnInfo(name: try row.decode(String.self, at: 0),
                       declaredType: try row.decode(String.self, at: 1),
                       isNotNull: try row.decode(Bool.self, at: 2),
                       defaultValueSQL: try row.decode(String?.self, at: 3),
                       primaryKeyIndex: try row.decode(Int.self, at: 4))
        }
    }
}
