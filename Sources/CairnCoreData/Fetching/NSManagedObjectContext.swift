@_spi(CairnCoreData) import Cairn
import Foundation

/// How a Core Data context schedules its work (Apple's raw values). Cairn's contexts belong to
/// the actor that uses them, so the type is recorded and changes nothing.
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    /// The thread that made the context uses it (deprecated by Apple); a facade over an
    /// existing `ModelContext` reports this type.
    case confinementConcurrencyType = 0
    /// Core Data runs `perform` blocks on the context's own queue; in Cairn they run at once,
    /// on the caller.
    case privateQueueConcurrencyType = 1
    /// Core Data runs `perform` blocks on the main queue; in Cairn they run at once, on the
    /// caller.
    case mainQueueConcurrencyType = 2
}

/// Core Data's coordinator: here, the `ModelContainer` whose stores contexts read.
public final class NSPersistentStoreCoordinator: Sendable {
    /// The container.
    public let container: ModelContainer

    /// A coordinator over `container`'s stores; a context given this coordinator makes its
    /// `ModelContext` on `container`.
    ///
    /// ```swift
    /// context.persistentStoreCoordinator = NSPersistentStoreCoordinator(container: container)
    /// ```
    ///
    /// - Parameter container: The container whose stores contexts read and write. Core Data
    ///   makes a coordinator from a managed object model and adds stores to it; in Cairn the
    ///   container already holds both.
    public init(container: ModelContainer) { self.container = container }
}

/// Core Data's `NSManagedObjectContext` as a facade over a `ModelContext`, so Core Data code
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

    /// What `insert(_:)` and `delete(_:)` could not do, thrown by the next `save()` (Core Data
    /// raises such errors, Cairn cannot raise and its signatures do not throw).
    private var pendingErrors: [String] = []

    /// A context with no coordinator yet: set ``persistentStoreCoordinator`` before a fetch or
    /// a save, which otherwise throw.
    ///
    /// ```swift
    /// let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    /// context.persistentStoreCoordinator = NSPersistentStoreCoordinator(container: container)
    /// ```
    ///
    /// - Parameter concurrencyType: Recorded in ``concurrencyType``; it changes nothing, since a
    ///   Cairn context belongs to the actor that uses it.
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
        guard let modelContext else { throw Self.error("the NSManagedObjectContext has no persistentStoreCoordinator") }
        return modelContext
    }

    private static func error(_ message: String) -> FormatPredicateError { FormatPredicateError(.unsupported, message) }

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

    /// Runs a request of any result type and returns an array, as Core Data does (see the
    /// `ModelContext` method of the same name).
    ///
    /// ```swift
    /// let request: NSFetchRequest<NSFetchRequestResult> = Expense.fetchRequest()
    /// request.resultType = .dictionaryResultType
    /// let rows = try context.fetch(request) as? [[String: Any]] ?? []
    /// ```
    open func fetch(_ request: NSFetchRequest<any NSFetchRequestResult>) throws -> [any NSFetchRequestResult] {
        try context().fetch(request)
    }

    /// How many objects a request matches.
    open func count<T>(for request: NSFetchRequest<T>) throws -> Int { try context().count(for: request) }

    /// The object with an identifier (see `ModelContext/model(for:)`); `nil` without a
    /// coordinator.
    open func object(with objectID: NSManagedObjectID) -> (any PersistentModel)? {
        modelContext?.model(for: objectID)
    }

    /// Whether there are unsaved changes.
    open var hasChanges: Bool { modelContext?.hasChanges ?? false }

    /// Adds an object (Core Data inserts at creation; Cairn models are inserted explicitly).
    ///
    /// Where Core Data raises (no coordinator, an object of another context), the insert does
    /// nothing and the next ``save()`` throws the reason.
    open func insert<T: PersistentModel>(_ object: T) {
        guard let modelContext else {
            return pendingErrors.append("insert(_:) of a \(T.self) before the context had a persistentStoreCoordinator")
        }
        if let owner = object.modelContext, owner !== modelContext {
            return pendingErrors.append("insert(_:) of a \(T.self) that belongs to another context; fetch it in this one")
        }
        modelContext.insert(object)
    }

    /// Marks an object for deletion at the next save.
    ///
    /// Where Core Data raises (no coordinator, an object of another context or of none), the
    /// delete does nothing and the next ``save()`` throws the reason.
    open func delete<T: PersistentModel>(_ object: T) {
        guard let modelContext else {
            return pendingErrors.append("delete(_:) of a \(T.self) before the context had a persistentStoreCoordinator")
        }
        guard object.modelContext === modelContext else {
            return pendingErrors.append(
                "delete(_:) of a \(T.self) that is not in this context (\(object.modelContext == nil ? "in none" : "in another"));"
                    + " insert or fetch it here first")
        }
        modelContext.delete(object)
    }

    /// Saves the changes; first throws what `insert(_:)` or `delete(_:)` could not do (once:
    /// the next save goes on).
    open func save() throws {
        if !pendingErrors.isEmpty {
            let errors = pendingErrors
            pendingErrors = []
            throw Self.error("the context cannot save: " + errors.joined(separator: "; "))
        }
        try context().save()
    }

    /// Discards every unsaved change: inserted objects are dropped, deleted ones come back,
    /// changed ones get their saved values again; the fetched-results controllers over this
    /// context report the reverts.
    open func rollback() {
        pendingErrors = []
        modelContext?.rollback()
    }

    /// Discards every unsaved change and forgets every object nothing else holds (the next
    /// fetch makes it anew); an object still held is read from the store again and stays this
    /// context's (Core Data invalidates it), so a change made to it later is saved.
    open func reset() {
        pendingErrors = []
        modelContext?.reset()
    }

    /// Reads every saved object again; unsaved changes stay over the stored values.
    open func refreshAllObjects() {
        modelContext?.refreshAllModels()
    }

    /// Reads one saved object again: with `mergeChanges`, its unsaved changes stay over the
    /// stored values; without, they are discarded. (Core Data also turns the object into a
    /// fault; a Cairn model loads its values again as it is read.)
    open func refresh<T: PersistentModel>(_ object: T, mergeChanges flag: Bool) {
        modelContext?.refresh(object, keepingChanges: flag)
    }
}

/// Two contexts are equal when they are the same object (Core Data's `NSObject` equality).
extension NSManagedObjectContext: Hashable {
    public static func == (lhs: NSManagedObjectContext, rhs: NSManagedObjectContext) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
