@_spi(CairnCoreData) import Cairn
import Foundation

/// Core Data's fetched-results controller: the results of a fetch request, split into sections
/// by a key, kept current after every commit that writes a table the request reads, with a
/// delegate told what moved.
///
/// ```swift
/// let request = Expense.fetchRequest()
/// request.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true),
///                            NSSortDescriptor(key: "amount", ascending: false)]
/// let controller = NSFetchedResultsController(
///     fetchRequest: request, managedObjectContext: context,
///     sectionNameKeyPath: "categoryName", cacheName: nil)
/// controller.delegate = self
/// try controller.performFetch()
/// // SELECT "id", … FROM "Expense" ORDER BY "Expense"."categoryName" ASC, "Expense"."amount" DESC, "Expense"."id" ASC
/// controller.sections?.map(\.name)          // ["Food", "Transport"]
/// controller.object(at: IndexPath(item: 0, section: 1))
/// ```
///
/// Built on the engine's commit notifications, as `Query` and `ResultsObserver` are: a commit
/// to one of the container's stores (a save of any context or actor, a raw write through
/// `ModelContainer.write(for:)`) that writes a table the request's SELECT reads (its entity's,
/// and any a predicate reaches through relationships) makes the controller fetch again in its
/// own context; a commit to other tables costs nothing. Its own context's unsaved changes are
/// reported when the context processes them, as in Core Data: at
/// `processPendingChanges()`, at the start of `save()` and after `rollback()` (Linux has no
/// run loop whose events end); the fetch then includes them when the request's
/// `includesPendingChanges` is true (the default), matched in memory by the same predicate
/// and sort. The controller compares the new results with the old (`difference(from:)` on
/// the objects, moves inferred; attribute values for updates) and tells its delegate, on the
/// main actor: synchronously for its own context's processed changes and saves; in a
/// main-actor task for commits of others. When nothing in the results changed, the delegate
/// hears nothing. Like Core Data, sections follow the fetch order, so the first sort
/// descriptor should sort by the section key.
///
/// ```swift
/// expense.amount = 80                 // unsaved
/// context.delete(other)
/// context.processPendingChanges()     // delegate: will, move/update, delete, did
/// try context.save()                  // nothing more to report
/// ```
///
/// `cacheName` is accepted; Cairn keeps no on-disk cache, so ``deleteCache(withName:)`` has
/// nothing to delete.
@MainActor
open class NSFetchedResultsController<ResultType> {
    /// The results, sections and observation, shared with ``erased``.
    let core: FetchedResultsCore
    /// This controller as `NSFetchedResultsController<any NSFetchRequestResult>`, the type Core
    /// Data's delegate methods take (nil on that view itself).
    private var erased: NSFetchedResultsController<any NSFetchRequestResult>?
    /// The typed results, cast from the core's models once per fetch.
    private var typedObjects: (generation: Int, objects: [ResultType])?

    /// The request; change its predicate or sort descriptors, then call ``performFetch()``.
    public let fetchRequest: NSFetchRequest<ResultType>

    /// A controller over the results of `fetchRequest` in `context`, split into sections by
    /// the value of `sectionNameKeyPath` (nil: one section).
    public init(
        fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext,
        sectionNameKeyPath: String?, cacheName name: String?
    ) where ResultType: PersistentModel {
        self.fetchRequest = fetchRequest
        core = FetchedResultsCore(
            request: fetchRequest, context: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: name)
        let erased = NSFetchedResultsController<any NSFetchRequestResult>(viewing: core, request: fetchRequest)
        self.erased = erased
        core.view = erased
        core.ownerSectionIndexTitle = { [weak self] name in
            self?.sectionIndexTitle(forSectionName: name) ?? FetchedResultsCore.firstLetter(name)
        }
    }

    /// The same, over a SwiftData context.
    public convenience init(
        fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: ModelContext,
        sectionNameKeyPath: String?, cacheName name: String?
    ) where ResultType: PersistentModel {
        self.init(fetchRequest: fetchRequest, managedObjectContext: NSManagedObjectContext(context),
                  sectionNameKeyPath: sectionNameKeyPath, cacheName: name)
    }

    /// The view of a typed controller's core that delegates are handed.
    private init(viewing core: FetchedResultsCore, request: NSFetchRequest<some Any>) {
        self.core = core
        fetchRequest = NSFetchRequest<ResultType>()
        fetchRequest.configure(like: request)
    }

    /// The context the controller fetches in.
    public var managedObjectContext: NSManagedObjectContext { core.context }
    /// The key whose value names each object's section (nil: one section).
    public var sectionNameKeyPath: String? { core.sectionNameKeyPath }
    /// The cache name given (no cache is kept).
    public var cacheName: String? { core.cacheName }
    /// Told about changes after commits and processed pending changes (held weakly).
    public var delegate: (any NSFetchedResultsControllerDelegate)? {
        get { core.delegate }
        set { core.delegate = newValue }
    }

    /// Fetches, and starts following the commits that write the tables the request reads and
    /// the context's processed pending changes.
    ///
    /// - Throws: what the fetch throws (a malformed predicate, an unknown key or selector, a
    ///   context without a coordinator).
    public func performFetch() throws {
        try core.performFetch()
        erased?.fetchRequest.configure(like: fetchRequest)
    }

    /// The objects of the last fetch (nil before ``performFetch()``).
    public var fetchedObjects: [ResultType]? {
        guard let objects = core.objects else { return nil }
        if let typedObjects, typedObjects.generation == core.generation { return typedObjects.objects }
        let typed = objects.compactMap { $0 as? ResultType }
        typedObjects = (core.generation, typed)
        return typed
    }

    /// The sections, in order (nil before ``performFetch()``).
    public var sections: [any NSFetchedResultsSectionInfo]? {
        core.objects == nil ? nil : core.sections
    }

    /// The object at a section and item.
    ///
    /// - Precondition: Core Data raises for an index path out of range; Cairn returns `nil`.
    public func object(at indexPath: IndexPath) -> ResultType? {
        let sections = core.sections
        guard sections.indices.contains(indexPath.section), sections[indexPath.section].models.indices.contains(indexPath.item)
        else { return nil }
        return sections[indexPath.section].models[indexPath.item] as? ResultType
    }

    /// Where an object is, or nil if the results do not hold it.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        let target = object as AnyObject
        for (section, info) in core.sections.enumerated() {
            if let item = info.models.firstIndex(where: { $0 === target }) { return IndexPath(item: item, section: section) }
        }
        return nil
    }

    /// The index titles of the sections, without repeats.
    public var sectionIndexTitles: [String] {
        var titles: [String] = []
        for section in core.sections { if let title = section.indexTitle, titles.last != title { titles.append(title) } }
        return titles
    }

    /// The index title for a section name: its first letter, uppercased. Override it to title
    /// sections otherwise; a delegate's `controller(_:sectionIndexTitleForSectionName:)` wins.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        // The view a delegate is handed answers as the typed controller, which may override.
        erased == nil ? core.defaultSectionIndexTitle(forSectionName: sectionName) : FetchedResultsCore.firstLetter(sectionName)
    }

    /// The section of an index title.
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        core.sections.firstIndex { $0.indexTitle == title } ?? sectionIndex
    }

    /// Core Data deletes a controller's on-disk cache; Cairn keeps none, so this does nothing.
    public static func deleteCache(withName name: String?) {}

    /// How many fetches ran after commits or processed pending changes (for tests).
    var refetchCount: Int { core.refetchCount }
}

extension NSFetchRequest {
    /// Takes what `other` fetches and how, so that a controller's
    /// `NSFetchRequest<any NSFetchRequestResult>` view describes its typed request.
    func configure(like other: NSFetchRequest<some Any>) {
        entityName = other.entityName
        predicate = other.predicate
        sortDescriptors = other.sortDescriptors
        fetchLimit = other.fetchLimit
        fetchOffset = other.fetchOffset
        fetchBatchSize = other.fetchBatchSize
        resultType = other.resultType
        propertiesToFetch = other.propertiesToFetch
        propertiesToGroupBy = other.propertiesToGroupBy
        havingPredicate = other.havingPredicate
        returnsDistinctResults = other.returnsDistinctResults
        includesPendingChanges = other.includesPendingChanges
        includesSubentities = other.includesSubentities
        returnsObjectsAsFaults = other.returnsObjectsAsFaults
        includesPropertyValues = other.includesPropertyValues
        relationshipKeyPathsForPrefetching = other.relationshipKeyPathsForPrefetching
    }
}
