/// How a transaction takes its locks (`BEGIN DEFERRED | IMMEDIATE | EXCLUSIVE`).
public enum TransactionKind: String, Sendable, Hashable {
    /// Locks on first access: a read lock at the first read, the write lock at the first write.
    case deferred = "DEFERRED"
    /// Takes the write lock at once, so the transaction cannot fail later with `SQLITE_BUSY`
    /// when it first writes. What writers should use.
    case immediate = "IMMEDIATE"
    /// As immediate; in WAL mode the same as immediate.
    case exclusive = "EXCLUSIVE"
}

extension Database {
    /// Runs `body` in a transaction: commits when it returns, rolls back everything it wrote
    /// when it throws (then rethrows).
    ///
    /// ```swift
    /// try db.inTransaction(.immediate) {
    ///     try db.execute(sql: "INSERT INTO workout (title) VALUES (?)", arguments: ["Run"])
    ///     try db.execute(sql: "UPDATE stats SET count = count + 1")
    /// }
    /// // BEGIN IMMEDIATE TRANSACTION; INSERT ...; UPDATE ...; COMMIT TRANSACTION
    /// ```
    ///
    /// - Throws: the error of `body`, or ``DatabaseError`` when `BEGIN` or `COMMIT` fails
    ///   (for example when a transaction is already open: nest with ``inSavepoint(_:)``).
    @discardableResult
    public func inTransaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackQuietly()
            throw error
        }
        do {
            try execute(sql: "COMMIT TRANSACTION")
        } catch {
            rollbackQuietly()
            throw error
        }
        return result
    }

    /// Runs `body` in a savepoint, which nests inside a transaction or other savepoints (and
    /// starts a deferred transaction when none is open). When `body` throws, everything it
    /// wrote is rolled back, the enclosing transaction continues, and the error is rethrown.
    ///
    /// ```swift
    /// try db.inTransaction {
    ///     try db.execute(sql: "INSERT INTO workout (title) VALUES ('kept')")
    ///     try? db.inSavepoint {
    ///         try db.execute(sql: "INSERT INTO workout (title) VALUES ('undone')")
    ///         throw CancellationError()
    ///     }
    /// }
    /// // SAVEPOINT cairn_1; ...; ROLLBACK TO SAVEPOINT cairn_1; RELEASE SAVEPOINT cairn_1
    /// ```
    @discardableResult
    public func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "cairn_\(savepointDepth)"
        let savedChanges = changeTracker.pending
        try execute(sql: "SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
        } catch {
            if isInsideTransaction {
                cleaningUp {
                    try? execute(sql: "ROLLBACK TO SAVEPOINT \(name)")
                    changeTracker.restore(savedChanges)
                    try? execute(sql: "RELEASE SAVEPOINT \(name)")
                }
            }
            throw error
        }
        do {
            try execute(sql: "RELEASE SAVEPOINT \(name)")
        } catch {
            if isInsideTransaction {
                cleaningUp {
                    try? execute(sql: "ROLLBACK TO SAVEPOINT \(name)")
                    changeTracker.restore(savedChanges)
                    try? execute(sql: "RELEASE SAVEPOINT \(name)")
                }
            }
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, ignoring "no transaction is active".
    func rollbackQuietly() {
        if isInsideTransaction {
            cleaningUp { try? execute(sql: "ROLLBACK TRANSACTION") }
        }
    }

    /// Runs cleanup statements that must run even in a cancelled access.
    func cleaningUp(_ body: () -> Void) {
        let outer = isCleaningUp
        isCleaningUp = true
        defer { isCleaningUp = outer }
        body()
    }
}
