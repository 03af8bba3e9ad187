import CLibPQ
import Foundation

/// A transaction's isolation level (`BEGIN ISOLATION LEVEL …`).
public enum PostgresIsolationLevel: String, Sendable, Hashable {
    /// Each statement sees the data committed before it started (PostgreSQL's default).
    case readCommitted = "READ COMMITTED"
    /// Every statement sees one snapshot, taken at the transaction's first statement; a write
    /// conflicting with a concurrent commit fails with SQLSTATE `40001`.
    case repeatableRead = "REPEATABLE READ"
    /// As if transactions ran one after another; a transaction that cannot be ordered so fails
    /// with SQLSTATE `40001`.
    case serializable = "SERIALIZABLE"
}

extension PostgresConnection {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws, and
    /// runs it again, in a new transaction, when the transaction fails with a serialization
    /// failure (SQLSTATE `40001`) or a deadlock (`40P01`).
    ///
    /// ```swift
    /// try connection.inTransaction(isolation: .serializable) {
    ///     try connection.execute(sql: "UPDATE account SET balance = balance - $1 WHERE id = $2",
    ///                            arguments: [10, 1])
    /// }
    /// // BEGIN ISOLATION LEVEL SERIALIZABLE; UPDATE …; COMMIT  (again on 40001, at most 5 times)
    /// ```
    ///
    /// Retries follow the rules distributed engines ask of clients: the whole transaction is
    /// run again (never one statement), at most `maximumAttempts` times in all, waiting between
    /// attempts an exponentially growing, jittered delay (about 5 ms, 10 ms, 20 ms, … up to
    /// 1 s, each times a random factor from 0.5 to 1.5) so that conflicting clients do not
    /// collide again in step.
    ///
    /// - Parameters:
    ///   - isolation: the isolation level.
    ///   - readOnly: whether to begin a `READ ONLY` transaction, in which writes fail.
    ///   - maximumAttempts: how many times `body` may run in all (at least 1).
    ///   - body: the work; it may run more than once, so it must not have effects outside the
    ///     transaction that a second run would repeat.
    /// - Throws: the error of `body` or of `COMMIT` once the attempts are spent or when it is
    ///   not transient; a ``PostgresError`` when a transaction is already open (PostgreSQL has
    ///   no nested transactions), or when `COMMIT` rolled back because a statement of the
    ///   transaction failed and `body` caught that error.
    @discardableResult
    public func inTransaction<T>(
        isolation: PostgresIsolationLevel = .readCommitted, readOnly: Bool = false, maximumAttempts: Int = 5,
        _ body: () throws -> T
    ) throws -> T {
        guard !isInTransaction else {
            throw PostgresError(message: """
                a transaction is already open on this connection; PostgreSQL has no nested \
                transactions: run the work inside the open one, or use SAVEPOINT
                """)
        }
        let begin = "BEGIN ISOLATION LEVEL \(isolation.rawValue)" + (readOnly ? " READ ONLY" : "")
        var attempt = 1
        while true {
            do {
                PQclear(try runScript(begin))
                // A cursor ends with its transaction.
                openCursors = []
                let value = try body()
                try commit()
                return value
            } catch {
                if isInTransaction { runIgnoringFailure("ROLLBACK") }
                guard let failure = error as? PostgresError, failure.isTransient, attempt < maximumAttempts else {
                    throw error
                }
                Thread.sleep(forTimeInterval: Self.retryDelay(afterAttempt: attempt))
                attempt += 1
            }
        }
    }

    /// `COMMIT`, which PostgreSQL answers with `ROLLBACK` (and no error) when a statement of the
    /// transaction failed: that is an error here, as the work did not happen.
    private func commit() throws {
        let result = try runScript("COMMIT")
        defer { PQclear(result) }
        if let tag = PQcmdStatus(result), String(cString: tag) == "ROLLBACK" {
            throw PostgresError(
                sqlState: "25P02",
                message: """
                    the transaction was rolled back instead of committed, because one of its \
                    statements failed (its error was caught inside the transaction); let the \
                    error end the transaction, or retry the statement within a SAVEPOINT
                    """,
                sql: "COMMIT")
        }
    }

    /// The delay before attempt `attempt + 1`: 5 ms doubling per attempt, capped at 1 s,
    /// times a random factor in 0.5...1.5.
    static func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        let base = min(0.005 * pow(2, Double(attempt - 1)), 1)
        return base * Double.random(in: 0.5...1.5)
    }
}
