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
/// own context; a commit to other tables costs nothing. The controller compares the new
/// results with the old (`difference(from:)` on identifiers, moves inferred; attribute values
/// for updates) and tells its delegate, on the main actor: synchronously, before `save()`
/// returns, when its own context saved (as Core Data does); in a main-actor task otherwise.
/// When nothing in the results changed, the delegate hears nothing. Like Core Data, sections
/// follow the fetch order, so the first sort descriptor should sort by the section key.
///
/// `cacheName` is accepted; Cairn keeps no on-disk cache, so ``deleteCache(withName:)`` has
/// nothing to delete.
@MainActor
open class NSFetchedResultsController<ResultType: PersistentModel> {
    /// The request; change its predicate or sort descriptors, then call ``performFetch()``.
    public let fetchRequest: NSFetchRequest<ResultType>
    /// The context the controller fetches in.
    public let managedObjectContext: NSManagedObjectContext
    /// The key whose value names each object's section (nil: one section).
    public let sectionNameKeyPath: String?
    /// The cache name given (no cache is kept).
    public let cacheName: String?
    /// Told about changes after commits.
    public weak var delegate: (any NSFetchedResultsControllerDelegate)?

    /// The objects of the last fetch (nil before ``performFetch()``).
    public private(set) var fetchedObjects: [ResultType]?
    var sectionList: [FetchedResultsSection<ResultType>] = []
    /// The attribute values of each fetched object at the last fetch, to tell updates.
    var snapshots: [PersistentIdentifier: [FormatValue]] = [:]
    private var trigger: CommitTrigger?
    private var saveObserver: (any NSObjectProtocol)?
    /// How many fetches ran after commits (tests check that unrelated commits cause none).
    private(set) var refetchCount = 0

    public init(
        fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext,
        sectionNameKeyPath: String?, cacheName name: String?
    ) {
        self.fetchRequest = fetchRequest
        managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        cacheName = name
    }

    /// The same, over a SwiftData context.
    public convenience init(
        fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: ModelContext,
        sectionNameKeyPath: String?, cacheName name: String?
    ) {
        self.init(fetchRequest: fetchRequest, managedObjectContext: NSManagedObjectContext(context),
                  sectionNameKeyPath: sectionNameKeyPath, cacheName: name)
    }

    isolated deinit {
        if let saveObserver { NotificationCenter.default.removeObserver(saveObserver) }
        trigger?.cancel()
    }

    /// Fetches, and starts following the commits that write the tables the request reads.
    ///
    /// - Throws: what the fetch throws (a malformed predicate, an unknown key or selector, a
    ///   context without a coordinator).
    public func performFetch() throws {
        let objects: [ResultType] = try managedObjectContext.fetch(fetchRequest)
        let sections = try sections(of: objects)
        fetchedObjects = objects
        sectionList = sections
        snapshots = Self.snapshots(of: objects)
        if let context = managedObjectContext.modelContext {
            let trigger = self.trigger ?? startObserving(context)
            trigger.watch(tablesRead(in: context))
            trigger.clear()
        }
    }

    /// The sections, in order (nil before ``performFetch()``).
    public var sections: [any NSFetchedResultsSectionInfo]? {
        fetchedObjects == nil ? nil : sectionList
    }

    /// The object at a section and item.
    ///
    /// - Precondition: Core Data raises for an index path out of range; Cairn returns `nil`.
    public func object(at indexPath: IndexPath) -> ResultType? {
        guard sectionList.indices.contains(indexPath.section),
            sectionList[indexPath.section].models.indices.contains(indexPath.item)
        else { return nil }
        return sectionList[indexPath.section].models[indexPath.item]
    }

    /// Where an object is, or nil if the results do not hold it.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        for (section, info) in sectionList.enumerated() {
            if let item = info.models.firstIndex(where: { $0 === object }) { return IndexPath(item: item, section: section) }
        }
        return nil
    }

    /// The index titles of the sections, without repeats.
    public var sectionIndexTitles: [String] {
        var titles: [String] = []
        for section in sectionList { if let title = section.indexTitle, titles.last != title { titles.append(title) } }
        return titles
    }

    /// The index title for a section name: its first letter, uppercased.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    /// The section of an index title.
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        sectionList.firstIndex { $0.indexTitle == title } ?? sectionIndex
    }

    /// Core Data deletes a controller's on-disk cache; Cairn keeps none, so this does nothing.
    public static func deleteCache(withName name: String?) {}

    // MARK: - Following commits

    private func startObserving(_ context: ModelContext) -> CommitTrigger {
        let target = WeakController(self)
        let trigger = CommitTrigger(container: context.container) { target.value?.refresh() }
        self.trigger = trigger
        // A save of the controller's own context runs on the main actor: the context is not
        // Sendable and this main-actor controller holds it, so strict concurrency keeps it
        // there. Its changes are reported before `save()` returns, as Core Data does, instead
        // of in the task the commit queued (which then finds nothing pending).
        saveObserver = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) {
            _ in
            MainActor.assumeIsolated { target.value?.trigger?.fireIfPending() }
        }
        return trigger
    }

    /// The tables the request's SELECT reads (its entity's when it cannot be compiled).
    private func tablesRead(in context: ModelContext) -> Set<String> {
        let name = fetchRequest.entityName ?? Schema.entityName(for: ResultType.self)
        guard let entity = context.container.schema.entitiesByName[name],
            let select = try? fetchRequest.sqlSelect(for: FormatSQLEntity(entity), as: .managedObjectIDResultType)
        else { return [name] }
        return context.tablesRead(by: select, entityName: name)
    }

    /// Fetches again after a commit and tells the delegate what changed. A failed fetch keeps
    /// the last results (``performFetch()`` reports the error).
    private func refresh() {
        guard let old = fetchedObjects else { return }
        refetchCount += 1
        let objects: [ResultType]
        let newSections: [FetchedResultsSection<ResultType>]
        do {
            objects = try managedObjectContext.fetch(fetchRequest)
            newSections = try sections(of: objects)
        } catch {
            return
        }
        let newSnapshots = Self.snapshots(of: objects)
        var updated: Set<PersistentIdentifier> = []
        for (id, values) in newSnapshots where snapshots[id].map({ $0 != values }) ?? false { updated.insert(id) }
        let oldSections = sectionList
        fetchedObjects = objects
        sectionList = newSections
        snapshots = newSnapshots
        guard let delegate else { return }
        let changes = FetchedResultsChanges(
            old: (old, oldSections), new: (objects, newSections), updated: updated)
        guard !changes.isEmpty else { return }
        delegate.controllerWillChangeContent(self)
        for change in changes.sections {
            delegate.controller(self, didChange: change.info, atSectionIndex: change.index, for: change.type)
        }
        for change in changes.objects {
            delegate.controller(self, didChange: change.object, at: change.indexPath, for: change.type,
                                newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(self)
    }

    // MARK: - Sections and snapshots

    private func sections(of objects: [ResultType]) throws -> [FetchedResultsSection<ResultType>] {
        guard let sectionNameKeyPath else {
            return [FetchedResultsSection(name: "", indexTitle: nil, models: objects)]
        }
        let key = try FormatPredicateParser.parseExpression(sectionNameKeyPath)
        var result: [FetchedResultsSection<ResultType>] = []
        var current: (name: String, models: [ResultType])?
        func close() {
            guard let open = current else { return }
            result.append(FetchedResultsSection(name: open.name, indexTitle: sectionIndexTitle(forSectionName: open.name),
                                                models: open.models))
        }
        for object in objects {
            let value = try key.value(with: object)
            let name = value.map { "\($0)" } ?? ""
            if let open = current, open.name == name {
                current?.models.append(object)
            } else {
                close()
                current = (name, [object])
            }
        }
        close()
        return result
    }

    /// Each object's attribute values, in the entity's attribute order.
    private static func snapshots(of objects: [ResultType]) -> [PersistentIdentifier: [FormatValue]] {
        let names = Schema.Entity.of(ResultType.self).attributes.map(\.name).sorted()
        var result: [PersistentIdentifier: [FormatValue]] = [:]
        for object in objects {
            result[object.persistentModelID] = names.map { name in
                let value = object.value(forKey: name)
                return FormatValue(converting: value) ?? .string(value.map { String(describing: $0) } ?? "")
            }
        }
        return result
    }
}

/// A weak reference to a controller, carried by notification and commit callbacks into the
/// main actor.
private struct WeakController<Model: PersistentModel>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read on the main actor (inside `MainActor`
    // closures and `assumeIsolated`); elsewhere it is only carried.
    weak var value: NSFetchedResultsController<Model>?
    init(_ value: NSFetchedResultsController<Model>) { self.value = value }
}
