/// The database under a ``ModelStore``: where every statement of the surfaces runs.
///
/// `ModelContext` (and through it `NSManagedObjectContext`, `@ModelActor`s, typed SQL on a
/// container and live results) reads and writes only through this protocol, in two kinds of
/// access:
///
/// - ``read(_:)`` runs on a consistent snapshot. Reads of different contexts may run at the
///   same time as each other and as the write (a file store's do; an in-memory store serves
///   one access at a time); none sees a write that commits meanwhile.
/// - ``write(_:)`` runs in one transaction, one at a time: a save, a raw write, a history
///   deletion. It commits when its body returns and rolls back when it throws.
///
/// Inside either, the body gets a ``StoreConnection``, which runs rendered statements
/// (`RenderedSQL`: text with bound arguments, never values spliced in) and steps their rows.
/// The protocol names no file, no rowid and no pragma, so a client/server database fits
/// beside SQLite: its connections are the pool, its transactions the snapshots, and commits
/// other processes make reach ``tablesCommittedByOthers()`` however the server tells of them.
protocol StoreBackend: AnyObject, Sendable {
    /// Brings the store's tables to `layouts` (creating, or migrating lightweight-style), in
    /// one transaction, and records `version`.
    func migrate(layouts: [TableLayout], version: Schema.Version) throws

    /// Runs `body` on a snapshot of the store and returns its result, blocking the calling
    /// thread while the backend has no connection free for it. When the calling thread is
    /// inside a fetch (`FetchCancellation`), cancelling its task interrupts the running
    /// statement.
    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T

    /// Runs `body`, which runs exactly one statement, on a snapshot of the store, as
    /// ``read(_:)`` does: a backend whose single statements each read one snapshot of their
    /// own may run it without opening a transaction around it.
    func readStatement<T>(_ body: (StoreConnection) throws -> T) throws -> T

    /// Runs `body` in one transaction on the store's only writer, blocking the calling thread
    /// while another write runs: commits when `body` returns, rolls back when it throws.
    func write<T>(_ body: (StoreConnection) throws -> T) throws -> T

    /// Calls `handler` after each commit of ``write(_:)`` with the tables it changed, on the
    /// writing thread, before `write` returns. `handler` must not access the store: it records
    /// and schedules.
    func observeCommits(_ handler: @escaping @Sendable (Set<String>) -> Void)

    /// The tables others (another connection, container or process) may have changed since the
    /// previous call; `nil` when none did, or when the store cannot tell right now without
    /// waiting (a write holds it: the next call tells). The first call sets the starting point.
    func tablesCommittedByOthers() -> Set<String>?

    /// Closes the connections; later accesses throw.
    func close()
}

extension StoreBackend {
    func readStatement<T>(_ body: (StoreConnection) throws -> T) throws -> T { try read(body) }
}
