import CSQLite

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

extension Database {
    /// Runs `body` so that cancelling the current task stops it: when the task is already
    /// cancelled nothing runs; while a statement runs, SQLite's progress handler notices the
    /// cancellation within about a thousand virtual-machine steps and interrupts it. Either way
    /// `CancellationError` is thrown, an open transaction of `body` rolls back, and the
    /// connection is ready for the next user.
    ///
    /// ```swift
    /// let task = Task { try db.withTaskCancellation { try db.fetchCount(sql: "SELECT … huge join …") } }
    /// task.cancel()       // the count throws CancellationError promptly
    /// ```
    ///
    /// For connections a program owns directly (queues and pools do this for `async` accesses).
    public func withTaskCancellation<T>(_ body: () throws -> T) throws -> T {
        if Task.isCancelled { throw CancellationError() }
        guard let handle = sqliteConnection else { return try body() }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(handle, 1_000, { context in
            guard let context, Task.isCancelled else { return 0 }
            Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().interruptHandle.cancel()
            return 1
        }, context)
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            interruptHandle.clearCancellation()
        }
        return try body()
    }
}
