import Cairn
import Foundation

/// How a Core Data context schedules its work (Apple's raw values). Cairn's contexts belong to
/// the actor that uses them, so the type is recorded and changes nothing.
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    case confinementConcurrencyType = 0
    case privateQueueConcurrencyType = 1
    case mainQueueConcurrencyType = 2
}

/// Core Data's coordinator: here, the ``ModelContainer`` whose stores contexts read.
public final class NSPersistentStoreCoordinator: Sendable {
    /// The container.
    public let container: ModelContainer

    public init(container: ModelContainer) { self.container = container }
}

/// Core Data's `NSManagedObjectContext` as a facade over a ``ModelContext``, so Core Data code
/// (fetch requests, `perform`, `object(with:)`) runs unchanged.
///
/// ```swift
/// let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
/// context.persistentStoreCoordinator = NSPersistentStoreCoordinator(container: container)
/// context.perform {
///     let expenses = try? context.fetch(Expense.fetchRequest())
///     // SELECT "id", … FROM "Expense" ORDER BY "Expense"."id" ASC
/// }
/// ```
///
/// - Warning: `perform(_:)` runs the block at once, on the caller (Core Data queues it): a
///   Cairn context belongs to the actor that uses it, so there is no queue to hop to. Use a
///   `@ModelActor` for work off the main actor.
open class NSManagedObjectContext {
    /// How the context was asked to schedule work.
    public let concurrencyType: NSManagedObjectContextConcurrencyType
    /// The context's coordinator; setting it makes a new ``modelContext`` on its container.
    public var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        didSet { modelContext = persistentStoreCoordinator.map { ModelContext($0.container) } }
    }
    /// The SwiftData context that does the work (nil until a coordinator is set).
    public private(set) var modelContext: ModelContext?

    public init(concurrencyType: NSManagedObjectContextConcurrencyType) {
        self.concurrencyType = concurrencyType
    }

    /// A Core Data facade over an existing context.
    public init(_ modelContext: ModelContext) {
        concurrencyType = .confinementConcurrencyType
        persistentStoreCoordinator = NSPersistentStoreCoordinator(container: modelContext.container)
        self.modelContext = modelContext
    }

    private func context() throws -> ModelContext {
        guard let modelContext else {
            throw FormatPredicateError(.unsupported, "the NSManagedObjectContext has no persistentStoreCoordinator")
        }
        return modelContext
    }

    /// Runs `block` now (see the warning on the type).
    open func perform(_ block: @escaping () -> Void) { block() }

    /// Runs `block` now and returns when it is done.
    open func performAndWait(_ block: () -> Void) { block() }

    /// Runs a fetch request; every result loads at once (where an array is asked for).
    @_disfavoredOverload
    open func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] { try context().fetch(request) }

    /// Runs a fetch request; with `fetchBatchSize` above 0 the objects load in batches as the
    /// collection is read (see the `ModelContext` method of the same name).
    ///
    /// ```swift
    /// request.fetchBatchSize = 20
    /// let expenses = try context.fetch(request)      // FetchResultsCollection<Expense>
    /// let ids = expenses.map { $0.objectID }        // one SELECT per batch of 20
    /// ```
    open func fetch<T>(_ request: NSFetchRequest<T>) throws -> FetchResultsCollection<T> { try context().fetch(request) }

    /// How many objects a request matches.
    open func count<T>(for request: NSFetchRequest<T>) throws -> Int { try context().count(for: request) }

    /// The object with an identifier (see ``ModelContext/model(for:)``); `nil` without a
    /// coordinator.
    open func object(with objectID: NSManagedObjectID) -> (any PersistentModel)? {
        modelContext?.model(for: objectID)
    }

    /// Whether there are unsaved changes.
    open var hasChanges: Bool { modelContext?.hasChanges ?? false }

    /// Adds an object (Core Data inserts at creation; Cairn models are inserted explicitly).
    open func insert<T: PersistentModel>(_ object: T) throws { try context().insert(object) }

    /// Marks an object for deletion at the next save.
    open func delete<T: PersistentModel>(_ object: T) throws { try context().delete(object) }

    /// Saves the changes.
    open func save() throws { try context().save() }
}
