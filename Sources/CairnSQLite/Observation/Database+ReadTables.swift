extension Database {
    /// Runs `body` and returns, with its result, the tables read by every statement it ran:
    /// what a live query must watch (see `DatabaseWriter/observeCommits(_:)`).
    ///
    /// ```swift
    /// let (count, tables) = try db.recordingReadTables {
    ///     try db.fetchCount(sql: "SELECT * FROM workout JOIN tag ON tag.workoutID = workout.id")
    /// }
    /// // tables == ["workout", "tag"]
    /// ```
    ///
    /// Views report both the view and its underlying tables.
    public func recordingReadTables<T>(_ body: () throws -> T) rethrows -> (result: T, tables: Set<String>) {
        let outer = readTablesRecorder
        readTablesRecorder = []
        defer {
            if let outer, let inner = readTablesRecorder {
                readTablesRecorder = outer.union(inner)
            } else {
                readTablesRecorder = outer
            }
        }
        let result = try body()
        return (result, readTablesRecorder ?? [])
    }
}
