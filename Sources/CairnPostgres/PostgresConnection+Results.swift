import CairnSQLite
import CLibPQ
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PostgresConnection {
    /// How long a statement that watches for cancellation waits on the server between looks:
    /// a cancelled statement stops within about this long, and a running one costs one wakeup
    /// per interval.
    static let cancellationCheckInterval: Int32 = 50

    /// Runs `body` so that cancelling the current task stops it, as SQLite's
    /// `Database.withTaskCancellation` does: when the task is already cancelled nothing runs;
    /// while a statement runs, the connection looks at the task every 50 ms and, once it is
    /// cancelled, asks the server to cancel the statement (`PQcancel`). Either way
    /// `CancellationError` is thrown and the connection is ready for its next statement; an
    /// open transaction is failed, and rolls back on the way out of `read { }` or `write { }`.
    ///
    /// ```swift
    /// let task = Task {
    ///     try database.read { db in
    ///         try db.withTaskCancellation { try db.fetchAll(sql: "SELECT … slow join …") }
    ///     }
    /// }
    /// task.cancel()       // the server cancels the statement; the read throws CancellationError
    /// ```
    ///
    /// The async `read` and `write` of ``PostgresDatabase`` watch their task without it.
    public func withTaskCancellation<T>(_ body: () throws -> T) throws -> T {
        if Task.isCancelled { throw CancellationError() }
        let outer = watchesCurrentTask
        watchesCurrentTask = true
        defer { watchesCurrentTask = outer }
        return try body()
    }

    /// Whether the work this connection runs now was cancelled: the task of an async access
    /// (``taskCancellation``), or the current task inside ``withTaskCancellation(_:)``.
    var isCancellationRequested: Bool {
        if taskCancellation?.isCancelled == true { return true }
        return watchesCurrentTask && Task.isCancelled
    }

    /// Throws `CancellationError` when the work this connection runs was cancelled, so that a
    /// cancelled block stops at its next statement.
    func checkCancellation() throws {
        if isCancellationRequested { throw CancellationError() }
    }

    /// Sends a statement with `send` (a `PQsend…` call) and reads all its results, as `PQexec`
    /// does: the last result when every one succeeded, else the first failure's error.
    ///
    /// - Throws: `CancellationError` when the statement failed because its work was cancelled,
    ///   else ``PostgresError`` with `sql` and `arguments`.
    func exchange(sql: String?, arguments: StatementArguments?, _ send: () throws -> Int32) throws -> OpaquePointer {
        try checkCancellation()
        guard try send() == 1 else {
            throw PostgresError(result: nil, connection: handle, sql: sql, arguments: arguments)
        }
        var kept: OpaquePointer?
        var keptFailure = false
        var copyRefused = false
        var cancelSent = false
        while let result = nextResult(cancelSent: &cancelSent) {
            // A COPY answers PQgetResult with itself until the copy ends: end it, so that the
            // connection is ready for the next statement, and report the COPY as refused.
            let status = PQresultStatus(result)
            if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH {
                PQclear(result)
                endCopy(status)
                copyRefused = true
                continue
            }
            if keptFailure || copyRefused {
                PQclear(result)
                continue
            }
            if let kept { PQclear(kept) }
            kept = result
            keptFailure = !Self.succeeded(result)
        }
        if copyRefused {
            if let kept { PQclear(kept) }
            throw PostgresError(
                sqlState: "0A000",
                message: "COPY FROM STDIN and COPY TO STDOUT are not supported: statements exchange rows and "
                    + "values, not COPY data; insert many rows with one INSERT (or many in one transaction), "
                    + "read them with SELECT, or COPY to and from a file on the server",
                sql: sql, arguments: arguments)
        }
        return try check(kept, sql: sql, arguments: arguments)
    }

    /// Ends a COPY the server started: a `COPY FROM STDIN` is failed with a message (the server
    /// rolls it back), a `COPY TO STDOUT`'s data is read and dropped. The results that follow
    /// (the COPY's error or status) are then read as any statement's.
    private func endCopy(_ status: ExecStatusType) {
        if status == PGRES_COPY_OUT {
            var buffer: UnsafeMutablePointer<CChar>?
            while PQgetCopyData(handle, &buffer, 0) > 0 {
                PQfreemem(buffer)
                buffer = nil
            }
        } else {
            _ = PQputCopyEnd(handle, "Cairn does not send COPY data")
            _ = PQflush(handle)
        }
    }

    /// The next result of the statements sent, or nil when the current one has no more,
    /// waiting for the server as `PQgetResult` does.
    ///
    /// While the connection's work can be cancelled, the wait is in steps of
    /// ``cancellationCheckInterval``, and a cancellation seen between them sends the server a
    /// cancel request, after which the results are still read to their end (the failed
    /// statement's error, then nil), so that the connection is ready for the next statement.
    /// `cancelSent` spans the statements whose results are being read, so one request is sent
    /// for them all. Otherwise libpq waits by itself, with nothing added.
    func nextResult(cancelSent: inout Bool) -> OpaquePointer? {
        guard watchesCurrentTask || taskCancellation != nil else { return PQgetResult(handle) }
        while PQisBusy(handle) == 1 {
            if !cancelSent, isCancellationRequested {
                cancelHandle.cancel()
                cancelSent = true
            }
            // On a broken connection PQgetResult reports the failure without waiting.
            guard awaitInput(milliseconds: Self.cancellationCheckInterval) else { break }
        }
        return PQgetResult(handle)
    }

    /// Waits up to `milliseconds` for the server to send something and reads what arrived;
    /// false when the connection broke.
    func awaitInput(milliseconds: Int32) -> Bool {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0 { return errno == EINTR }
        return ready == 0 || PQconsumeInput(handle) == 1
    }

    /// Whether a result reports success.
    static func succeeded(_ result: OpaquePointer) -> Bool {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE, PGRES_EMPTY_QUERY: true
        default: false
        }
    }

    /// The error a failed result stands for: `CancellationError` when the server cancelled the
    /// statement (`57014`) because its work was cancelled (the same code for a
    /// `statement_timeout` stays a ``PostgresError``).
    func failure(_ result: OpaquePointer?, sql: String?, arguments: StatementArguments?) -> any Error {
        let error = PostgresError(result: result, connection: handle, sql: sql, arguments: arguments)
        if error.sqlState == "57014", isCancellationRequested { return CancellationError() }
        return error
    }

    /// The result when it reports success; otherwise frees it and throws its error.
    func check(_ result: OpaquePointer?, sql: String?, arguments: StatementArguments?) throws -> OpaquePointer {
        guard let result else {
            throw PostgresError(result: nil, connection: handle, sql: sql, arguments: arguments)
        }
        guard Self.succeeded(result) else {
            let error = failure(result, sql: sql, arguments: arguments)
            PQclear(result)
            throw error
        }
        return result
    }
}
