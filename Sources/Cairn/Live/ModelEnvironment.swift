import Foundation

/// Where a ``Query`` or ``ResultsObserver`` made without a context finds one, outside SwiftUI
/// (where SwiftUI's `.modelContainer(_:)` plays this part).
///
/// Set it once when the program starts, on the main actor:
///
/// ```swift
/// let container = try ModelContainer(for: Workout.self)
/// ModelEnvironment.modelContainer = container      // queries use container.mainContext
///
/// @Observable final class History {
///     @Query(sort: \Workout.startedAt, order: .reverse) @ObservationIgnored var workouts: [Workout]
/// }
/// ```
///
/// A query looks for its context the first time it is read: the context given to its
/// initializer (`Query(…, modelContext: context)`), else ``modelContext``, else the
/// ``modelContainer``'s `mainContext`. It keeps the context it found. With none of them, its
/// results are empty and `fetchError` says that no context was set.
@MainActor
public enum ModelEnvironment {
    /// The container whose `mainContext` queries use by default.
    public static var modelContainer: ModelContainer?
    /// A context queries use by default, before ``modelContainer``'s main context.
    public static var modelContext: ModelContext?
}

/// The error a query reports when it has no context to fetch from.
public struct QueryContextError: Error, CustomStringConvertible, Sendable {
    /// The type of the query's models.
    public let elementType: String

    public var description: String {
        "A Query<\(elementType)> has no model context: pass one (Query(…, modelContext: context)) or set "
            + "ModelEnvironment.modelContainer = container once at start-up"
    }
}

/// Contexts of empty in-memory containers, for queries that have no context (so that
/// `modelContext` never has to fail).
@MainActor
enum DetachedContexts {
    private static var contexts: [ObjectIdentifier: ModelContext] = [:]

    static func context<T: PersistentModel>(for type: T.Type) -> ModelContext {
        if let context = contexts[ObjectIdentifier(type)] { return context }
        let memory = ModelConfiguration(isStoredInMemoryOnly: true)
        // Opening an in-memory store fails only when SQLite cannot allocate a database: then no
        // context can exist at all, and the program cannot go on.
        guard let container = (try? ModelContainer(for: type, configurations: memory))
            ?? (try? ModelContainer(for: Schema([]), configurations: memory))
        else {
            preconditionFailure("Cairn could not open an in-memory SQLite database for a Query without a context")
        }
        let context = container.mainContext
        contexts[ObjectIdentifier(type)] = context
        return context
    }
}
