import Cairn
import CairnCoreData
import CairnSQLite
import Foundation

/// An open store: the connection, what kind of store it is, and its entities.
final class StoreFile {
    let path: String
    let db: Database
    let kind: StoreKind
    let model: StoreModel
    /// The names of the user tables (not SQLite's own).
    let tables: [String]

    /// Opens the file at `path`: read-only unless `writable`, and an Apple store always
    /// read-only unless `allowWritingAppleStore` (raw `sql --write`). `modelPath` names an
    /// `.xcdatamodel(d)` whose names and types replace the ones matched from `Z` columns.
    /// `readModelCache: false` matches names from the `Z` columns even when the store caches
    /// its model (for tests of that path).
    init(path: String, writable: Bool = false, modelPath: String? = nil, readModelCache: Bool = true) throws(ToolError) {
        self.path = path
        try Self.checkIsSQLite(path)
        do {
            db = try Database(path: Self.uri(path, writable: writable), configuration: Self.configuration(writable: writable))
            tables = try db.fetchAll(
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
            ) { try $0.decode(String.self, at: 0) }
        } catch let error as ToolError {
            throw error
        } catch {
            var hint = ""
            if !writable, Self.uri(path, writable: false).hasSuffix("mode=ro") {
                hint = "; it has a -wal file with changes not yet checkpointed, and reading those needs write access to "
                    + "its folder (for the -shm file): copy the store with its -wal file to a folder you can write, or "
                    + "open it once in its app to checkpoint"
            }
            throw ToolError.failure("cannot open \(path) as an SQLite database: \(error)\(hint)")
        }
        if tables.contains("_CairnMetadata") {
            kind = .cairn
        } else if tables.contains("Z_METADATA"), tables.contains("Z_PRIMARYKEY") {
            kind = .apple
        } else {
            kind = .sqlite
        }
        do {
            switch kind {
            case .apple:
                let definitions = try modelPath.map { path throws(ToolError) in try ModelContents.read(path) }
                model = try AppleStoreReader(
                    db: db, tables: tables, modelPath: modelPath, definitions: definitions, readModelCache: readModelCache
                ).read()
            case .cairn, .sqlite:
                if modelPath != nil {
                    throw ToolError.usage("--model applies to Core Data and SwiftData stores; \(path) is a \(kind.rawValue)")
                }
                model = try SQLiteStoreReader(db: db, tables: tables, kind: kind).read()
            }
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError.failure("cannot read the schema of \(path): \(error)")
        }
    }

    /// Fails unless the file exists and starts with SQLite's header, naming what was found.
    static func checkIsSQLite(_ path: String) throws(ToolError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ToolError.failure("no file at \(path)")
        }
        guard !isDirectory.boolValue else {
            throw ToolError.failure("\(path) is a folder, not a store; name the .sqlite or .store file inside it")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ToolError.failure("cannot read \(path): permission denied")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header.count == 16, header.elementsEqual(Data("SQLite format 3\0".utf8)) else {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? header.count
            throw ToolError.failure(
                size == 0
                    ? "\(path) is empty: it is not a store"
                    : "\(path) is not a store: an SQLite database starts with \"SQLite format 3\", this file does not")
        }
    }

    /// A `file:` URI. Read-only opens use `immutable=1`, so nothing is written beside the
    /// file (not even `-shm`), unless a `-wal` file with content is there: then `mode=ro`, which
    /// reads the committed transactions the WAL holds.
    static func uri(_ path: String, writable: Bool) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        if writable { return "file:\(escaped)" }
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return walSize > 0 ? "file:\(escaped)?mode=ro" : "file:\(escaped)?immutable=1"
    }

    /// No journal-mode change (the file keeps the mode its app chose), the format-predicate
    /// functions and collations registered.
    static func configuration(writable: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = !writable
        configuration.journalModeWAL = false
        configuration.othersCommitsPollingInterval = nil
        configuration.functions = FormatSQLFunctions.functions
        configuration.collations = FormatSQLFunctions.collations
        return configuration
    }

    /// The number of rows of `entity`.
    func rowCount(_ entity: StoreEntity) throws -> Int {
        var select = SQLSelect([.countAll], from: .table(entity.table))
        select.condition = model.formatEntity(entity).rowCondition(alias: entity.table)
        let rendered = try select.render()
        return try db.fetchValue(Int.self, sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) ?? 0
    }

    /// The indexes of `table`: name, columns, unique.
    func indexes(on table: String) throws -> [(name: String, columns: [String], unique: Bool)] {
        let list = try db.fetchAll(sql: #"SELECT name, "unique" FROM pragma_index_list(?) ORDER BY name"#, arguments: [table]) {
            (try $0.decode(String.self, at: 0), try $0.decode(Bool.self, at: 1))
        }
        return try list.map { name, unique in
            let columns = try db.fetchAll(sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name]) {
                try $0.decode(String?.self, at: 0) ?? "<expression>"
            }
            return (name, columns, unique)
        }
    }
}
