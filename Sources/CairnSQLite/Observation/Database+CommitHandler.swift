extension Database {
    /// Calls `handler` after every commit of this connection with the tables it wrote, for a
    /// connection a program owns directly (queues and pools observe their connections
    /// themselves: use ``DatabaseReader/observeCommits(_:)`` there).
    ///
    /// ```swift
    /// let db = try Database(path: "/tmp/app.sqlite")
    /// db.addCommitHandler { tables in print("committed", tables.sorted()) }
    /// try db.execute(sql: "INSERT INTO workout (title) VALUES (?)", arguments: ["Run"])
    /// // committed ["workout"]
    /// ```
    ///
    /// Handlers run in the order they were added, on the thread that ran the committing
    /// statement, before that statement's call returns. A handler must not use this
    /// connection: record the tables, or hop elsewhere. Rolled-back transactions call nothing.
    public func addCommitHandler(_ handler: @escaping (Set<String>) -> Void) {
        let previous = commitHandler
        commitHandler = { tables in
            previous?(tables)
            handler(tables)
        }
    }
}
