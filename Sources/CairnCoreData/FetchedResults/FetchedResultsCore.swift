@_spi(CairnCoreData) import Cairn
import Foundation

/// The state and work of a fetched-results controller, shared by the typed controller a user
/// makes and the `NSFetchedResultsController<any NSFetchRequestResult>` view its delegate is
/// handed: the results as models, their sections, the commit and pending-change observation,
/// and the delegate calls.
@MainActor
final class FetchedResultsCore {
    let context: NSManagedObjectContext
    let sectionNameKeyPath: String?
    let cacheName: String?
    weak var delegate: (any NSFetchedResultsControllerDelegate)?
    /// The view handed to the delegate; the typed controller holds it.
    weak var view: NSFetchedResultsController<any NSFetchRequestResult>?
    /// The typed controller's `sectionIndexTitle(forSectionName:)`, which a subclass may
    /// override.
    var ownerSectionIndexTitle: (String) -> String? = FetchedResultsCore.firstLetter

    /// Runs the typed request in the context.
    private let fetchModels: () throws -> [any PersistentModel]
    /// The tables the typed request's SELECT reads in a context.
    private let tablesRead: (ModelContext) -> Set<String>
    /// The entity's attribute names, in a fixed order, for the update snapshots.
    private let attributeNames: [String]

    /// The models of the last fetch (nil before the first).
    private(set) var objects: [any PersistentModel]?
    private(set) var sections: [FetchedResultsSection] = []
    /// Each fetched model's attribute values at the last fetch, to tell updates.
    private var snapshots: [ObjectIdentifier: [FormatValue]] = [:]
    /// The identifiers of the last fetch, in order, for ``NSFetchedResultsControllerDelegate/controller(_:didChangeContentWith:)``.
    private var identifiers: [PersistentIdentifier] = []
    /// Bumped whenever ``objects`` changes, so that typed copies know when to cast again.
    private(set) var generation = 0
    /// The watch on the container's commits; it watches the tables the request reads.
    private var watch: CommitWatch<ContainerChanges>?
    private var observers: [any NSObjectProtocol] = []
    /// How many fetches ran after commits or processed pending changes (tests check that
    /// unrelated commits cause none).
    private(set) var refetchCount = 0
    /// Set by the default ``NSFetchedResultsControllerDelegate/controller(_:didChangeContentWith:)``:
    /// the delegate does not implement it.
    var differenceWasIgnored = false

    init<Model: PersistentModel>(
        request: NSFetchRequest<Model>, context: NSManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?
    ) {
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        fetchModels = { try context.fetch(request) as [Model] }
        tablesRead = { context in
            let name = request.entityName ?? Schema.entityName(for: Model.self)
            guard let entity = context.container.schema.entitiesByName[name],
                let select = try? request.sqlSelect(for: FormatSQLEntity(entity), as: .managedObjectIDResultType)
            else { return [name] }
            return context.tablesRead(by: select, entityName: name)
        }
        attributeNames = Schema.Entity.of(Model.self).attributes.map(\.name).sorted()
    }

    isolated deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        watch?.cancel()
    }

    /// Fetches, and starts following the commits that write the tables the request reads and
    /// the pending changes of the context.
    func performFetch() throws {
        let objects = try fetchModels()
        let sections = try sections(of: objects)
        setResults(objects, sections)
        if let context = context.modelContext {
            let watch = self.watch ?? startObserving(context)
            watch.watch(tablesRead(context))
            watch.clear()
        }
    }

    private func setResults(_ objects: [any PersistentModel], _ sections: [FetchedResultsSection]) {
        self.objects = objects
        self.sections = sections
        snapshots = snapshots(of: objects)
        identifiers = objects.map(\.persistentModelID)
        generation += 1
    }

    // MARK: - Following commits and pending changes

    private func startObserving(_ context: ModelContext) -> CommitWatch<ContainerChanges> {
        let watch = CommitWatch(source: context.container.changes, delivery: .mainActor { [weak self] in self?.refresh() })
        self.watch = watch
        // The controller's own context runs on the main actor: the context is not Sendable and
        // this main-actor controller holds it, so strict concurrency keeps it there. Its saves
        // are reported before `save()` returns, as Core Data does, instead of in the task the
        // commit queued (which then finds nothing pending); its processed pending changes are
        // reported as they are processed.
        observers.append(NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) {
            [weak self] _ in
            MainActor.assumeIsolated { self?.watch?.deliverIfPending() }
        })
        context.observeProcessedChanges(owner: self) { [weak self] changed in
            MainActor.assumeIsolated {
                guard let self, self.reads(changedEntities: changed) else { return }
                self.refresh()
            }
        }
        return watch
    }

    /// Whether unsaved changes to models of `changedEntities` (`nil`: of any entity) can change
    /// the results: the request reads one of their tables, or a table that is not an entity's
    /// (a many-to-many join table, which a change on either side writes).
    private func reads(changedEntities: Set<String>?) -> Bool {
        guard let changedEntities, let watched = watch?.tables, let context = context.modelContext else { return true }
        let entities = context.container.schema.entitiesByName
        return watched.contains { changedEntities.contains($0) || entities[$0] == nil }
    }

    /// Fetches again and tells the delegate what changed. A failed fetch keeps the last
    /// results (``performFetch()`` reports the error).
    private func refresh() {
        guard objects != nil else { return }
        refetchCount += 1
        let objects: [any PersistentModel]
        let newSections: [FetchedResultsSection]
        do {
            objects = try fetchModels()
            newSections = try sections(of: objects)
        } catch {
            return
        }
        let newSnapshots = snapshots(of: objects)
        var updated: Set<ObjectIdentifier> = []
        for (key, values) in newSnapshots where snapshots[key].map({ $0 != values }) ?? false { updated.insert(key) }
        let oldSections = sections, oldIdentifiers = identifiers
        setResults(objects, newSections)
        guard let delegate, let view else { return }
        let changes = FetchedResultsChanges(old: oldSections, new: newSections, updated: updated)
        let difference = identifiers.difference(from: oldIdentifiers)
        if sectionNameKeyPath == nil, !changes.isEmpty || !difference.isEmpty {
            differenceWasIgnored = false
            delegate.controller(view, didChangeContentWith: difference)
            guard differenceWasIgnored else { return }
        }
        guard !changes.isEmpty else { return }
        delegate.controllerWillChangeContent(view)
        for change in changes.sections {
            delegate.controller(view, didChange: change.info, atSectionIndex: change.index, for: change.type)
        }
        for change in changes.objects {
            delegate.controller(view, didChange: change.object, at: change.indexPath, for: change.type,
                                newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(view)
    }

    // MARK: - Sections and snapshots

    /// A section's index title: the delegate's, else the controller's.
    func sectionIndexTitle(forSectionName name: String) -> String? {
        if let delegate, let view { return delegate.controller(view, sectionIndexTitleForSectionName: name) }
        return ownerSectionIndexTitle(name)
    }

    /// The controller's own title for a section name (what a delegate defaults to).
    func defaultSectionIndexTitle(forSectionName name: String) -> String? { ownerSectionIndexTitle(name) }

    /// Core Data's default index title: the name's first letter, uppercased.
    nonisolated static func firstLetter(_ name: String) -> String? { name.first.map { String($0).uppercased() } }

    private func sections(of objects: [any PersistentModel]) throws -> [FetchedResultsSection] {
        guard let sectionNameKeyPath else {
            return [FetchedResultsSection(name: "", indexTitle: nil, models: objects)]
        }
        let key = try FormatPredicateParser.parseExpression(sectionNameKeyPath)
        var result: [FetchedResultsSection] = []
        var current: (name: String, models: [any PersistentModel])?
        func close() {
            guard let open = current else { return }
            result.append(FetchedResultsSection(
                name: open.name, indexTitle: sectionIndexTitle(forSectionName: open.name), models: open.models))
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

    /// Each object's attribute values, in ``attributeNames`` order.
    private func snapshots(of objects: [any PersistentModel]) -> [ObjectIdentifier: [FormatValue]] {
        var result: [ObjectIdentifier: [FormatValue]] = [:]
        for object in objects {
            result[ObjectIdentifier(object)] = attributeNames.map { name in
                let value = object.value(forKey: name)
                return FormatValue(converting: value) ?? .string(value.map { String(describing: $0) } ?? "")
            }
        }
        return result
    }
}
