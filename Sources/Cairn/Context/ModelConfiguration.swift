import Foundation

/// Where and how a container stores its models: a file (or memory), read-only or writable.
///
/// ```swift
/// ModelConfiguration()                                   // ~/.local/share/<program>/default.store
/// ModelConfiguration(isStoredInMemoryOnly: true)         // private, in memory
/// ModelConfiguration(url: URL(filePath: "/var/lib/app/workouts.store"))
/// ModelConfiguration("Archive", schema: Schema([Workout.self]), allowsSave: false)
/// ```
///
/// **Default location on Linux.** A configuration without a URL stores in
/// `$XDG_DATA_HOME/<program>/<name>.store`, or `~/.local/share/<program>/<name>.store` when
/// `XDG_DATA_HOME` is not set (the XDG base-directory convention), where `<program>` is the
/// executable's name and `<name>` the configuration's name (`default`). The folder is
/// created when the container opens.
public struct ModelConfiguration: Hashable, Sendable, Identifiable {
    /// App-group containers (Apple platforms). Kept for source compatibility; no effect on Linux.
    public struct GroupContainer: Hashable, Sendable {
        let identifier: String?
        /// The app's default group container (on Linux: no effect).
        public static let automatic = GroupContainer(identifier: nil)
        /// No group container (on Linux: no effect).
        public static let none = GroupContainer(identifier: "")
        /// The named app group's container (on Linux: no effect).
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer(identifier: groupName) }
    }

    /// CloudKit syncing (Apple platforms). Kept for source compatibility; no effect on Linux.
    public struct CloudKitDatabase: Hashable, Sendable {
        let identifier: String?
        /// The container from the app's entitlements (on Linux: no sync).
        public static let automatic = CloudKitDatabase(identifier: nil)
        /// No CloudKit sync.
        public static let none = CloudKitDatabase(identifier: "")
        /// The private database of the named CloudKit container (on Linux: no sync).
        public static func `private`(_ containerIdentifier: String) -> CloudKitDatabase {
            CloudKitDatabase(identifier: containerIdentifier)
        }
    }

    /// The configuration's name (`default` unless given); also the store's identifier.
    public let name: String
    /// The entities this configuration stores; `nil` for all of the container's schema.
    public let schema: Schema?
    /// The store file (`/dev/null` for an in-memory store).
    public let url: URL
    /// Whether the store lives in memory only, gone when the container is released.
    public let isStoredInMemoryOnly: Bool
    /// Whether contexts may save to this store; `false` opens it read-only.
    public let allowsSave: Bool
    /// No effect on Linux.
    public let groupContainer: GroupContainer
    /// No effect on Linux.
    public let cloudKitDatabase: CloudKitDatabase
    /// The SQLite VFS the store's file is opened with (`nil`: SQLite's default). Not
    /// SwiftData API: the I/O-fault tests set it through `@testable import`.
    var vfsName: String?
    /// How long a statement waits for another connection's lock before it fails with
    /// `SQLITE_BUSY` (the engine's ``Configuration/busyTimeout``, 5 seconds). Not SwiftData
    /// API: the lock tests shorten it through `@testable import`.
    var busyTimeout: TimeInterval = 5
    /// How often the store checks for commits of other connections to its file (another
    /// container, another process), which then reach contexts and live queries as a commit to
    /// every table (the engine's ``Configuration/othersCommitsPollingInterval``, 0.5 s; `nil`:
    /// never). Not SwiftData API: tests shorten it through `@testable import`.
    var othersCommitsPollingInterval: Duration? = .milliseconds(500)

    /// The server's URL when the store is a PostgreSQL database (a `postgresql://` or
    /// `postgres://` URL); `nil` for a SQLite file or memory.
    var serverURL: String? {
        url.scheme == "postgresql" || url.scheme == "postgres" ? url.absoluteString : nil
    }

    /// Whether a PostgreSQL store tracks changes with triggers and `LISTEN` where the server
    /// has them (`true`), or polls a change counter as it does where the server has not. Not
    /// SwiftData API: tests turn it off to exercise polling.
    var tracksServerChangesWithTriggers = true

    /// `Identifiable`: the store's URL.
    public var id: URL { url }
    /// No effect on Linux; always `nil`.
    public var cloudKitContainerIdentifier: String? { nil }
    /// No effect on Linux; always `nil`.
    public var groupAppContainerIdentifier: String? { nil }

    /// A configuration that stores in the default location (see above) or in memory.
    public init(
        _ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        let name = name ?? "default"
        self.name = name
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.groupContainer = groupContainer
        self.cloudKitDatabase = cloudKitDatabase
        url = isStoredInMemoryOnly ? URL(fileURLWithPath: "/dev/null") : Self.defaultURL(name: name)
    }

    /// A configuration that stores in the file at `url`, or on the PostgreSQL server a
    /// `postgresql://` (or `postgres://`) URL names, with libpq's parameters in its query:
    ///
    /// ```swift
    /// ModelConfiguration(url: URL(string: "postgresql://app@db.internal/shop")!)
    /// ModelConfiguration(url: URL(string: "postgresql://app@/shop?host=/var/run/postgresql")!)
    /// ```
    public init(
        _ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        isStoredInMemoryOnly = url.path == "/dev/null"
        self.allowsSave = allowsSave
        groupContainer = .automatic
        self.cloudKitDatabase = cloudKitDatabase
    }

    /// A configuration in the default location, or in memory.
    public init(isStoredInMemoryOnly: Bool) {
        self.init(nil, schema: nil, isStoredInMemoryOnly: isStoredInMemoryOnly, allowsSave: true)
    }

    /// A configuration for the given model types only.
    ///
    /// (Spelled with a first type apart from the rest so that `ModelConfiguration(isStoredInMemoryOnly:)`
    /// stays unambiguous; calls read as in SwiftData: `ModelConfiguration(for: A.self, B.self, isStoredInMemoryOnly: true)`.)
    public init(for forType: any PersistentModel.Type, _ moreTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool) {
        self.init(schema: Schema([forType] + moreTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// The default store file for a configuration name:
    /// `$XDG_DATA_HOME/<program>/<name>.store`, else `~/.local/share/<program>/<name>.store`.
    public static func defaultURL(name: String = "default") -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            base = URL(fileURLWithPath: dataHome, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser
                .appendingPathComponent(".local", isDirectory: true)
                .appendingPathComponent("share", isDirectory: true)
        }
        let program = URL(fileURLWithPath: CommandLine.arguments.first ?? "cairn").lastPathComponent
        return base.appendingPathComponent(program.isEmpty ? "cairn" : program, isDirectory: true)
            .appendingPathComponent(name + ".store")
    }

    /// Checks the name can be a file name.
    ///
    /// - Throws: ``SwiftDataError/configurationFileNameContainsInvalidCharacters`` or
    ///   ``SwiftDataError/configurationFileNameTooLong``.
    public func validate() throws {
        if name.contains("/") || name.contains("\0") {
            throw SwiftDataError.configurationFileNameContainsInvalidCharacters.with(
                reason: "The configuration name '\(name)' contains '/' or NUL, which a file name cannot")
        }
        if name.utf8.count > 240 {
            throw SwiftDataError.configurationFileNameTooLong.with(
                reason: "The configuration name is \(name.utf8.count) bytes; file names are at most 255")
        }
    }
}
