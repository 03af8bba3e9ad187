import Foundation

/// Creates the database an app's live queries use by default: a ``DatabasePool`` (one
/// writer, concurrent readers, WAL) at `path`, or, without a path, at `cairn.sqlite` in a
/// fresh temporary folder (for previews and tests), removed when the database is released.
///
/// ```swift
/// try prepareDependencies {
///     $0.defaultDatabase = try defaultDatabase(path: "/var/lib/app/db.sqlite")
/// }
/// ```
///
/// The pool uses the engine's default `Configuration` (foreign keys on, WAL, a busy timeout)
/// unless you pass another.
public func defaultDatabase(
    path: String? = nil, configuration: Configuration = Configuration()
) throws -> any DatabaseWriter {
    if let path { return try DatabasePool(path: path, configuration: configuration) }
    return try DatabasePool(inOwnTemporaryFolderWith: configuration)
}

/// The values live queries read when they are not given a database, set once at launch with
/// ``prepareDependencies(_:)`` and read with `@Dependency(\.defaultDatabase)` (SQLiteData's
/// spellings, without the Dependencies library).
public struct DependencyValues: Sendable {
    /// The database `@FetchAll`, `@FetchOne` and `@Fetch` read when none is given. Until it is
    /// set, every read and write through it throws ``LiveQueryError`` ("no database"), which
    /// live wrappers keep in `loadError`: never a blank stand-in database whose writes vanish.
    public var defaultDatabase: any DatabaseWriter {
        get { storedDefaultDatabase ?? MissingDatabase.shared }
        set { storedDefaultDatabase = newValue }
    }

    private var storedDefaultDatabase: (any DatabaseWriter)?

    /// Values with nothing set.
    public init() {}

    static let lock = NSLock()
    // `nonisolated(unsafe)`: only read and written under `lock`.
    nonisolated(unsafe) static var shared = DependencyValues()

    static var current: DependencyValues {
        lock.lock()
        defer { lock.unlock() }
        return shared
    }
}

/// Reads a value of ``DependencyValues``, as SQLiteData code does with the Dependencies
/// library:
///
/// ```swift
/// @Dependency(\.defaultDatabase) var database
/// try database.write { db in try Reminder.insert { draft }.execute(db) }
/// ```
///
/// The value is read when used, so a `prepareDependencies` made later is seen.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
    private let keyPath: any KeyPath<DependencyValues, Value> & Sendable

    /// The dependency at `keyPath`, as SQLiteData's `@Dependency(\.defaultDatabase)`.
    public init(_ keyPath: any KeyPath<DependencyValues, Value> & Sendable) {
        self.keyPath = keyPath
    }

    /// The dependency's current value.
    public var wrappedValue: Value { DependencyValues.current[keyPath: keyPath] }
}

/// What ``DependencyValues/defaultDatabase`` is until it is set: every access throws.
final class MissingDatabase: DatabaseWriter {
    static let shared = MissingDatabase()

    let configuration = Configuration()
    let path = ""

    func read<T>(_ block: (Database) throws -> T) throws -> T { throw LiveQueryError.noDatabase }
    func read<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        throw LiveQueryError.noDatabase
    }
    func write<T>(_ block: (Database) throws -> T) throws -> T { throw LiveQueryError.noDatabase }
    func write<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        throw LiveQueryError.noDatabase
    }
    func writeWithoutTransaction<T>(_ block: (Database) throws -> T) throws -> T { throw LiveQueryError.noDatabase }
    func observeCommits(_ observer: @escaping @Sendable (Set<String>) -> Void) -> CommitObservation {
        CommitObservation(cancellation: {})
    }
    func close() throws {}
}

/// Sets the process-wide dependencies, typically once when the app starts.
///
/// ```swift
/// try prepareDependencies { $0.defaultDatabase = try defaultDatabase() }
/// ```
public func prepareDependencies(_ body: (inout DependencyValues) throws -> Void) rethrows {
    DependencyValues.lock.lock()
    defer { DependencyValues.lock.unlock() }
    try body(&DependencyValues.shared)
}

#if !canImport(SwiftUI)
/// Accepted by the live wrappers' `animation:` parameter so code written for SwiftUI
/// compiles unchanged; without SwiftUI there is nothing to animate and it is ignored.
public struct Animation: Sendable, Hashable {
    let name: String
    /// SwiftUI's default animation (ignored here).
    public static let `default` = Animation(name: "default")
    /// A linear animation (ignored here).
    public static let linear = Animation(name: "linear")
    /// An ease-in-out animation (ignored here).
    public static let easeInOut = Animation(name: "easeInOut")
}
#endif
