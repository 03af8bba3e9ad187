extension Database {
    /// Every row of `sql`, transformed by `transform`.
    ///
    /// ```swift
    /// let titles = try db.fetchAll(sql: "SELECT title FROM workout WHERE minutes >= ?", arguments: [30]) {
    ///     try $0.decode(String.self, at: 0)
    /// }
    /// ```
    @inlinable
    public func fetchAll<T>(sql: String, arguments: StatementArguments = [], _ transform: (Row) throws -> T) throws -> [T] {
        try cachedStatement(sql: sql).fetchAll(arguments: arguments, transform)
    }

    /// The first row of `sql`, transformed, or nil when there is none.
    ///
    /// ```swift
    /// let title = try db.fetchOne(sql: "SELECT title FROM workout WHERE id = ?", arguments: [1]) {
    ///     try $0.decode(String.self, at: 0)
    /// }
    /// ```
    @inlinable
    public func fetchOne<T>(sql: String, arguments: StatementArguments = [], _ transform: (Row) throws -> T) throws -> T? {
        try cachedStatement(sql: sql).fetchOne(arguments: arguments, transform)
    }

    /// The first column of the first row, or nil when there is no row or the value is `NULL`.
    ///
    /// ```swift
    /// let count = try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM workout") ?? 0
    /// ```
    ///
    /// - Throws: ``RowDecodingError`` when the value does not convert to `Value`.
    @inlinable
    public func fetchValue<Value: DatabaseValueConvertible>(
        _ type: Value.Type, sql: String, arguments: StatementArguments = []
    ) throws -> Value? {
        try fetchOne(sql: sql, arguments: arguments) { try $0.decode(Value?.self, at: 0) } ?? nil
    }

    /// The first column of every row.
    ///
    /// ```swift
    /// let ids = try db.fetchValues(Int64.self, sql: "SELECT id FROM workout ORDER BY id")
    /// ```
    @inlinable
    public func fetchValues<Value: DatabaseValueConvertible>(
        _ type: Value.Type, sql: String, arguments: StatementArguments = []
    ) throws -> [Value] {
        try fetchAll(sql: sql, arguments: arguments) { try $0.decode(Value.self, at: 0) }
    }

    /// The number of rows `sql` returns, counted by SQLite.
    ///
    /// ```swift
    /// let favorites = try db.fetchCount(sql: "SELECT * FROM workout WHERE isFavorite = ?", arguments: [true])
    /// // SELECT COUNT(*) FROM (SELECT * FROM workout WHERE isFavorite = ?)
    /// ```
    public func fetchCount(sql: String, arguments: StatementArguments = []) throws -> Int {
        try fetchValue(Int.self, sql: "SELECT COUNT(*) FROM (\(sql))", arguments: arguments) ?? 0
    }

    /// A cursor that steps the rows of `sql` lazily; see ``RowCursor``.
    public func fetchCursor(sql: String, arguments: StatementArguments = []) throws -> RowCursor {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        return RowCursor(statement: statement)
    }
}
