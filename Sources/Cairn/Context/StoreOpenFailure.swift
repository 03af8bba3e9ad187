import Foundation

/// Why a store file could not be opened or brought to the schema, in words a user can act on:
/// the reason of the `SwiftDataError.loadIssueModelContainer` a container throws.
///
/// SQLite's own message says what failed (`attempt to write a readonly database`, `database
/// is locked`, `database disk image is malformed`) but not what about the file causes it nor
/// what to do, so this looks at the file and its folder and says so, then quotes SQLite.
struct StoreOpenFailure {
    let url: URL
    let allowsSave: Bool
    let busyTimeout: TimeInterval

    /// The URL with its password, if any, left out of messages and logs.
    static func withoutPassword(_ url: URL) -> String {
        guard url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.password = "***"
        return components.string ?? url.absoluteString
    }

    init(configuration: ModelConfiguration) {
        url = configuration.url
        allowsSave = configuration.allowsSave
        busyTimeout = configuration.busyTimeout
    }

    /// The reason for `error`, raised while opening the store (`step`: "open" or "set up").
    func reason(for error: any Error, step: String) -> String {
        if url.scheme == "postgresql" || url.scheme == "postgres" {
            return "Cannot \(step) the store on the PostgreSQL server \(Self.withoutPassword(url)): \(error)"
        }
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        let cause: String
        switch (error as? DatabaseError)?.resultCode {
        case .SQLITE_BUSY?, .SQLITE_LOCKED?:
            cause = "Another connection or process is writing to it and held its write lock for longer than the "
                + "\(Self.seconds(busyTimeout)) the container waits. Open the container again once that write ends"
        case .SQLITE_READONLY?, .SQLITE_CANTOPEN?, .SQLITE_PERM?, .SQLITE_AUTH?:
            cause = accessCause(folder: folder)
        case .SQLITE_CORRUPT?, .SQLITE_NOTADB?:
            let damage = StoreFileHeader(path: path)?.cutShortDescription ?? "Its contents are damaged"
            cause = "The file is damaged: \(damage). Restore it from a backup, or recover what is readable with "
                + "`sqlite3 \(path) .recover` into a new file"
        default:
            cause = ""
        }
        let opening = "Cannot \(step) the store at \(path)"
        return cause.isEmpty ? "\(opening): \(error)" : "\(opening). \(cause). (\(error))"
    }

    private func accessCause(folder: String) -> String {
        let fileManager = FileManager.default
        if !fileManager.fileExists(atPath: url.path) && !fileManager.isWritableFile(atPath: folder) {
            return "The folder \(folder) is not writable, so the store file cannot be created in it. "
                + "Make the folder writable, or give ModelConfiguration(url:) a file in a folder that is"
        }
        if !fileManager.isWritableFile(atPath: folder) {
            return "The folder \(folder) is not writable, and SQLite creates the store's journal files "
                + "(\(url.lastPathComponent)-wal and -shm) beside it. Make the folder writable, or move the store "
                + "to a folder that is"
        }
        if fileManager.fileExists(atPath: url.path) && !fileManager.isWritableFile(atPath: url.path) {
            return allowsSave
                ? "The store file is read-only. Make it writable, or open it without saving: "
                    + "ModelConfiguration(url: url, allowsSave: false)"
                : "The store file cannot be read"
        }
        return "The file or its folder cannot be opened for writing"
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }
}

/// The first 100 bytes of an SQLite file, as the file format documents them
/// (sqlite.org/fileformat.html, "The Database Header"): enough to tell a file cut short.
struct StoreFileHeader {
    /// The page size in bytes (offset 16, big-endian; 1 means 65,536).
    let pageSize: Int
    /// The database size in pages (offset 28), when the header's own check says it is valid.
    let pageCount: Int?
    /// The file's size in bytes.
    let fileSize: Int

    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let bytes = try? handle.read(upToCount: 100), bytes.count == 100,
              bytes.starts(with: Array("SQLite format 3\0".utf8)),
              let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
        else { return nil }
        func integer(at offset: Int, count: Int) -> Int {
            bytes.dropFirst(offset).prefix(count).reduce(0) { $0 << 8 | Int($1) }
        }
        let rawPageSize = integer(at: 16, count: 2)
        pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        // The in-header size is valid when "version-valid-for" (offset 92) equals the change
        // counter (offset 24); older writers left it stale.
        let count = integer(at: 28, count: 4)
        pageCount = count > 0 && integer(at: 92, count: 4) == integer(at: 24, count: 4) ? count : nil
        fileSize = size.intValue
    }

    /// "It is cut short: …" when the file is smaller than its header says.
    var cutShortDescription: String? {
        guard let pageCount, pageSize > 0, fileSize < pageCount * pageSize else { return nil }
        return "it is cut short: its header describes \(pageCount) pages of \(pageSize) bytes "
            + "(\(pageCount * pageSize) bytes), but the file has \(fileSize) bytes"
    }
}
