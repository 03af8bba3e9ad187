import CairnPostgres
import Foundation

/// How a PostgreSQL store learns which tables a commit changed, its own and others'.
///
/// - **Notifications**, where the server has triggers and `LISTEN` (PostgreSQL): every table
///   of the schema gets a statement trigger that notes the table in the transaction
///   (`set_config('cairn.changed', …, true)`, read before the commit to tell this process's
///   observers) and notifies the channel `cairn_changes_<schema>` with the table's name. Other
///   processes' commits, and any client's writes, arrive through `LISTEN` on that channel.
/// - **Polling**, where it has not (CockroachDB has no `LISTEN`): each write of a Cairn
///   process bumps a counter in `_CairnMetadata` in its transaction, and a store looks at the
///   counter on its polling interval; a move it did not make itself means others changed the
///   store, and every table of the store is reported. Writes of other clients are not seen.
enum PostgresChangeTracking {
    enum Mode: Sendable {
        case notifications(channel: String)
        case polling
    }

    /// The setting that collects, within one transaction, the names of the tables it changed,
    /// each followed by a unit separator (`chr(31)`).
    static let setting = "cairn.changed"
    static let counterKey = "changeCounter"

    /// Installs the triggers (again on each open, so that a changed function takes effect),
    /// inside a savepoint: where the server refuses them, the transaction goes on and the
    /// store polls.
    static func install(on tables: Set<String>, connection: PostgresConnection, triggers: Bool) throws -> Mode {
        if triggers {
            _ = try connection.execute(sql: "SAVEPOINT cairn_change_tracking")
            do {
                try installTriggers(on: tables, connection: connection)
                _ = try connection.execute(sql: "RELEASE SAVEPOINT cairn_change_tracking")
                guard case .text(let schema)? = try connection.fetchAll(sql: "SELECT current_schema()").rows.first?.first else {
                    throw ModelError(.storeFailure, message: "The PostgreSQL connection has no current schema: set search_path in the URL")
                }
                return .notifications(channel: "cairn_changes_" + schema)
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

    private static func installTriggers(on tables: Set<String>, connection: PostgresConnection) throws {
        _ = try connection.execute(sql: """
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
            """)
        for table in tables.sorted() {
            let quoted = SQLText.identifier(table)
            _ = try connection.execute(sql: #"DROP TRIGGER IF EXISTS "_cairn_changes" ON "# + quoted)
            _ = try connection.execute(
                sql: #"CREATE TRIGGER "_cairn_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "# + quoted
                    + #" FOR EACH STATEMENT EXECUTE FUNCTION "_cairn_note_change"()"#)
        }
    }

    /// How a store that did not set the tracking up (opened read-only) finds it: by the
    /// trigger function other containers installed in the schema.
    static func detect(connection: PostgresConnection) throws -> Mode {
        let rows = try connection.fetchAll(sql: """
            SELECT current_schema(), EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace \
            WHERE p.proname = '_cairn_note_change' AND n.nspname = current_schema())
            """).rows
        guard case .text(let schema)? = rows.first?.first, case .integer(1)? = rows.first?.last else { return .polling }
        return .notifications(channel: "cairn_changes_" + schema)
    }

    /// The tables the current transaction changed so far (notifications mode).
    static func tablesChanged(connection: PostgresConnection) throws -> Set<String> {
        let rows = try connection.fetchAll(sql: "SELECT current_setting('\(setting)', true)").rows
        guard case .text(let noted)? = rows.first?.first else { return [] }
        return Set(noted.split(separator: "\u{1F}").map(String.init))
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
