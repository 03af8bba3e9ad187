import CSQLite

/// Collects the tables SQLite's authorizer reports while one statement is prepared.
final class TableAccessRecorder {
    var read: Set<String> = []
    var written: Set<String> = []
}

/// The tables written in the current transaction, and whether SQLite just committed it.
///
/// Each statement knows the tables it writes (from the authorizer, at prepare time), so the
/// per-row cost of tracking is zero: a statement adds its tables once per transaction.
struct ChangeTracker {
    /// Tables written since the transaction began.
    var pending: Set<String> = []
    /// Bumped whenever `pending` is emptied or restored, so statements record again.
    var generation = 0
    /// Set by the commit hook; checked when the statement that committed returns.
    var didCommit = false

    mutating func record(_ statement: Statement) {
        guard statement.recordedChangeGeneration != generation else { return }
        pending.formUnion(statement.writtenTables)
        statement.recordedChangeGeneration = generation
    }

    /// Empties the pending set (after a commit or a rollback) and returns it.
    mutating func drain() -> Set<String> {
        let tables = pending
        pending = []
        generation += 1
        didCommit = false
        return tables
    }

    /// Restores the set saved when a savepoint began (after `ROLLBACK TO`).
    mutating func restore(_ saved: Set<String>) {
        pending = saved
        generation += 1
    }
}

extension Database {
    /// Installs the authorizer (table access per statement) and the commit and rollback hooks.
    func installHooks(_ handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_set_authorizer(handle, { context, action, first, second, _, _ in
            guard let context else { return SQLITE_OK }
            let database = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
            guard let recorder = database.authorizerRecorder else { return SQLITE_OK }
            switch action {
            case SQLITE_READ:
                if let first { recorder.read.insert(String(cString: first)) }
            case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE,
                 SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_TABLE:
                if let first {
                    let table = String(cString: first)
                    if !table.hasPrefix("sqlite_") { recorder.written.insert(table) }
                }
            case SQLITE_ALTER_TABLE:
                if let second { recorder.written.insert(String(cString: second)) }
            default:
                break
            }
            return SQLITE_OK
        }, context)
        sqlite3_commit_hook(handle, { context in
            if let context {
                Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().changeTracker.didCommit = true
            }
            return 0
        }, context)
        sqlite3_rollback_hook(handle, { context in
            if let context {
                _ = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().changeTracker.drain()
            }
        }, context)
    }

    /// Called when a statement finished: delivers the committed tables, if it committed.
    func statementDidComplete() {
        guard changeTracker.didCommit else { return }
        guard let handle = sqliteConnection, sqlite3_get_autocommit(handle) != 0 else {
            changeTracker.didCommit = false
            return
        }
        let tables = changeTracker.drain()
        if !tables.isEmpty { commitHandler?(tables) }
    }

    /// Called when a statement failed: a commit whose hook ran may still have failed.
    func statementDidFail() {
        statementDidComplete()
    }
}
