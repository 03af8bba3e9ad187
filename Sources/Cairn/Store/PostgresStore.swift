import CairnPostgres
import Foundation
import Synchronization

/// A store on a PostgreSQL server, chosen by a `postgresql://` (or `postgres://`) URL in the
/// configuration: the same models, fetches and saves as a SQLite store, through a
/// ``PostgresDatabase`` pool.
///
/// - Reads run in `REPEATABLE READ READ ONLY` transactions, concurrently.
/// - Writes are one `READ COMMITTED` transaction each, one at a time in this process. A write
///   that fails with a serialization failure or a deadlock (`40001`, `40P01`) is retried as a
///   whole, as distributed engines that speak PostgreSQL's protocol require.
/// - Every table of the schema has a statement trigger that notes the table in the
///   transaction (`set_config('cairn.changed', …, true)`, read before the commit to tell this
///   process's observers) and notifies the channel `cairn_changes_<schema>` with the table's
///   name. Commits of other processes (and of any other client) reach this one's contexts and
///   live results through `LISTEN` on that channel.
final class PostgresStoreBackend: StoreBackend {
    private let database: PostgresDatabase
    private let url: String
    private let log: StatementLog
    private let commitHandlers = Mutex<[@Sendable (Set<String>) -> Void]>([])
    /// The listener for others' commits and the tables they named since the last look;
    /// started by the first ``tablesCommittedByOthers()``.
    private let others = Mutex<(listener: PostgresNotifications?, tables: Set<String>)>((nil, []))
    /// The server processes of this pool's connections, whose notifications are this
    /// process's own commits (already told through ``observeCommits(_:)``).
    private let ownProcesses = Mutex<Set<Int32>>([])
    /// The channel of this store's schema, known after ``migrate(layouts:version:)``.
    private let channel = Mutex<String?>(nil)

    init(url: String, log: StatementLog) throws {
        database = try PostgresDatabase(url: url)
        self.url = url
        self.log = log
    }

    func migrate(layouts: [TableLayout], version: Schema.Version) throws {
        let channel = try database.write { connection in
            let store = StoreConnection(postgres: connection, log: StatementLog())
            try StoreMigrator(connection: store, layouts: layouts, version: version).run()
            try PostgresChangeTriggers.install(on: layouts, connection: store)
            return try PostgresChangeTriggers.channel(connection: store)
        }
        self.channel.withLock { $0 = channel }
    }

    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try database.read { connection in try body(StoreConnection(postgres: connection, log: log)) }
    }

    func write<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        let (result, tables) = try database.write { connection in
            ownProcesses.withLock { _ = $0.insert(connection.serverProcessID) }
            let store = StoreConnection(postgres: connection, log: log)
            let result = try body(store)
            return (result, try PostgresChangeTriggers.tablesChanged(connection: connection))
        }
        if !tables.isEmpty {
            for handler in commitHandlers.withLock({ $0 }) { handler(tables) }
        }
        return result
    }

    func observeCommits(_ handler: @escaping @Sendable (Set<String>) -> Void) {
        commitHandlers.withLock { $0.append(handler) }
    }

    func tablesCommittedByOthers() -> Set<String>? {
        let started = others.withLock { $0.listener != nil }
        if !started { startListening() }
        let tables = others.withLock { state -> Set<String> in
            defer { state.tables = [] }
            return state.tables
        }
        return tables.isEmpty ? nil : tables
    }

    private func startListening() {
        guard let channel = channel.withLock({ $0 }) else { return }
        let listener = try? PostgresNotifications(url: url, channel: channel) { [weak self] notification in
            guard let self, !self.ownProcesses.withLock({ $0.contains(notification.senderProcessID) }) else { return }
            self.others.withLock { _ = $0.tables.insert(notification.payload) }
        }
        others.withLock { state in
            if state.listener == nil { state.listener = listener } else { listener?.stop() }
        }
    }

    func close() {
        let listener = others.withLock { state -> PostgresNotifications? in
            defer { state.listener = nil }
            return state.listener
        }
        listener?.stop()
        commitHandlers.withLock { $0.removeAll() }
        database.close()
    }
}

/// The trigger that tells which tables a transaction changed, in it and to other processes.
enum PostgresChangeTriggers {
    /// The setting that collects, within one transaction, the names of the tables it changed,
    /// each followed by a unit separator (`chr(31)`).
    static let setting = "cairn.changed"

    /// Creates the trigger function and a statement trigger on each of the layouts' tables
    /// and join tables (again on each open, so that a changed function takes effect).
    static func install(on layouts: [TableLayout], connection: StoreConnection) throws {
        try connection.execute(RenderedSQL(sql: """
            CREATE OR REPLACE FUNCTION "_cairn_note_change"() RETURNS trigger LANGUAGE plpgsql AS $body$
            DECLARE noted text := coalesce(current_setting('\(setting)', true), '');
            BEGIN
              IF position(chr(31) || TG_TABLE_NAME || chr(31) IN chr(31) || noted) = 0 THEN
                PERFORM set_config('\(setting)', noted || TG_TABLE_NAME || chr(31), true);
                PERFORM pg_notify('cairn_changes_' || TG_TABLE_SCHEMA, TG_TABLE_NAME);
              END IF;
              RETURN NULL;
            END
            $body$
            """, arguments: []))
        for table in TableLayout.tables(of: layouts).sorted() {
            let quoted = SQLText.identifier(table)
            try connection.execute(RenderedSQL(sql: #"DROP TRIGGER IF EXISTS "_cairn_changes" ON "# + quoted, arguments: []))
            try connection.execute(RenderedSQL(
                sql: #"CREATE TRIGGER "_cairn_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "# + quoted
                    + #" FOR EACH STATEMENT EXECUTE FUNCTION "_cairn_note_change"()"#,
                arguments: []))
        }
    }

    /// The channel the triggers of the connection's current schema notify.
    static func channel(connection: StoreConnection) throws -> String {
        guard case .text(let schema)? = try connection.rows(RenderedSQL(sql: "SELECT current_schema()", arguments: [])).first?.first
        else {
            throw ModelError(.storeFailure, message: "The PostgreSQL connection has no current schema: set search_path in the URL")
        }
        return "cairn_changes_" + schema
    }

    /// The tables the current transaction changed so far.
    static func tablesChanged(connection: PostgresConnection) throws -> Set<String> {
        let rows = try connection.fetchAll(sql: "SELECT current_setting('\(setting)', true)").rows
        guard case .text(let noted)? = rows.first?.first else { return [] }
        return Set(noted.split(separator: "\u{1F}").map(String.init))
    }
}
