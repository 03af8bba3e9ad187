import CairnPostgres
import Foundation

/// How a PostgreSQL store learns which tables a commit changed, its own and others'.
///
/// - **Notifications**, where the server has triggers and `LISTEN` (PostgreSQL): every table
///   of the store gets the statement trigger of ``PostgresChangeTriggers``, which notes the
///   table in the transaction (read before the commit to tell this process's observers) and
///   notifies the schema's channel with the table's name. Other processes' commits, and any
///   client's writes, arrive through `LISTEN` on that channel.
/// - **Polling**, where it has not (CockroachDB has no `LISTEN`): each write of a Cairn
///   process bumps a counter in `_CairnMetadata` in its transaction, and a store looks at the
///   counter on its polling interval; a move it did not make itself means others changed the
///   store, and every table of the store is reported. Writes of other clients are not seen.
enum PostgresChangeTracking {
    enum Mode: Sendable {
        case notifications(channel: String)
        case polling
    }

    static let counterKey = "changeCounter"

    /// Installs the triggers (again on each open, so that a changed function takes effect),
    /// inside a savepoint: where the server refuses them, the transaction goes on and the
    /// store polls.
    static func install(on tables: Set<String>, connection: PostgresConnection, triggers: Bool) throws -> Mode {
        if triggers {
            _ = try connection.execute(sql: "SAVEPOINT cairn_change_tracking")
            do {
                try PostgresChangeTriggers.install(on: tables, connection: connection)
                _ = try connection.execute(sql: "RELEASE SAVEPOINT cairn_change_tracking")
                return .notifications(channel: try PostgresChangeTriggers.channel(connection: connection))
            } catch is PostgresError {
                // The server lacks triggers or functions: poll instead.
                _ = try connection.execute(sql: "ROLLBACK TO SAVEPOINT cairn_change_tracking")
            }
        }
        _ = try connection.execute(
            sql: #"INSERT INTO "_CairnMetadata" ("key", "value") VALUES ($1, '0') ON CONFLICT ("key") DO NOTHING"#,
            arguments: [counterKey])
        return .polling
    }

    /// How a store that did not set the tracking up (opened read-only) finds it: by the
    /// trigger function other containers installed in the schema.
    static func detect(connection: PostgresConnection) throws -> Mode {
        guard try PostgresChangeTriggers.isInstalled(connection: connection) else { return .polling }
        return .notifications(channel: try PostgresChangeTriggers.channel(connection: connection))
    }

    /// The tables the current transaction changed so far (notifications mode).
    static func tablesChanged(connection: PostgresConnection) throws -> Set<String> {
        try PostgresChangeTriggers.tablesChanged(connection: connection)
    }

    /// Bumps the change counter in the current transaction and returns its new value
    /// (polling mode).
    static func bumpCounter(connection: PostgresConnection) throws -> Int64? {
        let rows = try connection.fetchAll(
            sql: #"UPDATE "_CairnMetadata" SET "value" = CAST(CAST("value" AS BIGINT) + 1 AS TEXT) WHERE "key" = $1 RETURNING "value""#,
            arguments: [counterKey]).rows
        guard case .text(let text)? = rows.first?.first else { return nil }
        return Int64(text)
    }

    /// The change counter (polling mode).
    static func counter(connection: PostgresConnection) throws -> Int64? {
        let rows = try connection.fetchAll(
            sql: #"SELECT "value" FROM "_CairnMetadata" WHERE "key" = $1"#, arguments: [counterKey]).rows
        guard case .text(let text)? = rows.first?.first else { return nil }
        return Int64(text)
    }
}
