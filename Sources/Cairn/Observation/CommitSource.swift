import CairnSQLite

/// Where a live result hears about commits: something that reports the tables each commit
/// changed, whoever made it. ``CommitWatch`` stands on it.
///
/// - A container's changes (``ContainerChanges``): every context's save, `container.write`,
///   merges of other connections' and other processes' commits (SQLite's `PRAGMA data_version`
///   polling, PostgreSQL's `LISTEN`), through the store layer.
/// - A typed-SQL database (``LiveQuerySource``): a `DatabasePool` or `DatabaseQueue`'s commit
///   observation (its own connections, and other connections to the file by polling), or a
///   `PostgresDatabase`'s notifications from any client of the server.
package protocol CommitSource: Sendable {
    /// What starting an observation can throw: `Never` where it cannot fail.
    associatedtype Failure: Error

    /// Calls `observer` with the tables of each commit, on the committing thread (or a
    /// listener's thread): it must not read the database synchronously.
    ///
    /// `tables` are the tables the caller needs to hear about (`nil`: every commit). A source
    /// may report more than these (the caller filters), but must report commits to these: a
    /// server installs the triggers that report them. Releasing or cancelling the returned
    /// token stops the observation.
    func observeCommits(
        to tables: Set<String>?, _ observer: @escaping @Sendable (Set<String>) -> Void
    ) throws(Failure) -> CommitObservation
}
