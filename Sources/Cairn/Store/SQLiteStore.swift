import Foundation

/// Opens the SQLite backend of a store: a ``DatabasePool`` on a file, one connection in
/// memory. Every connection of either is opened with the same engine configuration: Cairn's
/// predicate functions and collations, the configuration's VFS and busy timeout, read-only
/// when the store may not be saved.
enum SQLiteStore {
    static func open(_ configuration: ModelConfiguration, log: StatementLog) throws -> any StoreBackend {
        var engineConfiguration = Configuration()
        engineConfiguration.addCairnPredicateSupport()
        engineConfiguration.foreignKeysEnabled = false
        engineConfiguration.readonly = !configuration.allowsSave && !configuration.isStoredInMemoryOnly
        engineConfiguration.vfsName = configuration.vfsName
        engineConfiguration.busyTimeout = configuration.busyTimeout
        let path: String
        if configuration.isStoredInMemoryOnly {
            path = ":memory:"
            engineConfiguration.journalModeWAL = false
        } else {
            path = configuration.url.path
            let folder = configuration.url.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "Cannot create the store's folder \(folder.path): \(error.localizedDescription)")
            }
        }
        // ModelStore looks for others' commits itself, and only once someone listens
        // (`observeOthersCommits`); a pool would start a timer thread at its first observer.
        engineConfiguration.othersCommitsPollingInterval = nil
        return configuration.isStoredInMemoryOnly
            ? try SingleConnectionSQLiteBackend(path: path, configuration: engineConfiguration, log: log)
            : try PooledSQLiteBackend(path: path, configuration: engineConfiguration, log: log)
    }
}
