import CairnSQLite

/// Statement triggers that make the server tell which tables each commit changed, to this
/// process and every other: the one mechanism behind live results on PostgreSQL, for typed
/// queries (``PostgresDatabase/observeCommits(to:_:)``) and for model stores alike.
///
/// A trigger `_cairn_changes` on a table runs the function `_cairn_note_change` once per
/// statement that inserts into, updates, deletes from or truncates it. The function
///
/// - notes the table's name in the transaction's setting `cairn.changed` (each name followed
///   by a unit separator, `chr(31)`), which the writer reads before it commits, and
/// - sends the table's name on the channel `cairn_changes_<schema>` with `pg_notify`, which
///   the server delivers to every listener when the transaction commits, and never when it
///   rolls back.
///
/// Installing needs the right to create functions in the schema and triggers on the tables
/// (the tables' owner has it).
public enum PostgresChangeTriggers {
    /// The transaction setting that collects the names of the tables it changed.
    public static let setting = "cairn.changed"

    /// The channel the triggers of tables in `schema` notify.
    public static func channel(forSchema schema: String) -> String { "cairn_changes_" + schema }

    /// The channel of the connection's current schema (the first of its `search_path`).
    ///
    /// - Throws: ``PostgresError`` when the connection has no current schema.
    public static func channel(connection: PostgresConnection) throws -> String {
        guard case .text(let schema)? = try connection.fetchAll(sql: "SELECT current_schema()").rows.first?.first else {
            throw PostgresError(message: "the PostgreSQL connection has no current schema: set search_path in the URL (options=-csearch_path=…)")
        }
        return channel(forSchema: schema)
    }

    /// Creates (or replaces) the trigger function in the current schema and a trigger on each
    /// of `tables`, in the open transaction.
    ///
    /// - Throws: ``PostgresError`` when the server refuses (no `plpgsql`, no right to create
    ///   triggers, a table that does not exist).
    public static func install(on tables: some Sequence<String>, connection: PostgresConnection) throws {
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
        for table in Set(tables).sorted() {
            let quoted = quotedIdentifier(table)
            _ = try connection.execute(sql: #"DROP TRIGGER IF EXISTS "_cairn_changes" ON "# + quoted)
            _ = try connection.execute(
                sql: #"CREATE TRIGGER "_cairn_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "# + quoted
                    + #" FOR EACH STATEMENT EXECUTE FUNCTION "_cairn_note_change"()"#)
        }
    }

    /// Which of `tables`, in the current schema, have no trigger yet.
    public static func tablesWithoutTrigger(_ tables: Set<String>, connection: PostgresConnection) throws -> Set<String> {
        guard !tables.isEmpty else { return [] }
        let rows = try connection.fetchAll(
            sql: """
                SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid \
                JOIN pg_namespace n ON n.oid = c.relnamespace \
                WHERE t.tgname = '_cairn_changes' AND n.nspname = current_schema() \
                AND c.relname = ANY(string_to_array($1, chr(31)))
                """,
            arguments: [tables.sorted().joined(separator: "\u{1F}")]
        ) { try $0.decode(String.self, at: 0) }
        return tables.subtracting(rows)
    }

    /// Whether the trigger function exists in the current schema (some client installed the
    /// triggers there).
    public static func isInstalled(connection: PostgresConnection) throws -> Bool {
        let rows = try connection.fetchAll(sql: """
            SELECT EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace \
            WHERE p.proname = '_cairn_note_change' AND n.nspname = current_schema())
            """).rows
        return rows.first?.first == .integer(1)
    }

    /// The tables the open transaction changed so far.
    public static func tablesChanged(connection: PostgresConnection) throws -> Set<String> {
        let rows = try connection.fetchAll(sql: "SELECT current_setting('\(setting)', true)").rows
        guard case .text(let noted)? = rows.first?.first else { return [] }
        return Set(noted.split(separator: "\u{1F}").map(String.init))
    }

    private static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
