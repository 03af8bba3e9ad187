import Cairn
import Foundation

/// Core Data's fetched-results controller: the results of a fetch request, split into sections
/// by a key, kept current after every save that touches the request's entity, with a delegate
/// told what moved.
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
/// Built on the context's save notifications (``ModelContext/didSave``): after a save (from any
/// context of the same container) whose inserted, updated or deleted objects include the request's
/// entity, the controller fetches again in its own context and reports the difference
/// (`difference(from:)` on the objects' identifiers, with moves inferred) to its delegate, on the
/// main actor. Like Core Data, sections follow the fetch order, so the first sort descriptor
/// should sort by the section key.
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
    /// Told about changes after saves.
    public weak var delegate: (any NSFetchedResultsControllerDelegate)?

    /// The objects of the last fetch (nil before ``performFetch()``).
    public private(set) var fetchedObjects: [ResultType]?
    private var sectionList: [FetchedResultsSection<ResultType>] = []
    private var observer: (any NSObjectProtocol)?

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
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    /// Fetches and starts following saves.
    ///
    /// - Throws: what the fetch throws (a malformed predicate, an unknown key or selector).
    public func performFetch() throws {
        let objects = try managedObjectContext.fetch(fetchRequest)
        fetchedObjects = objects
        sectionList = try sections(of: objects)
        if observer == nil { startObserving() }
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

    // MARK: - Sections and changes

    private func sections(of objects: [ResultType]) throws -> [FetchedResultsSection<ResultType>] {
        guard let sectionNameKeyPath else {
            return [FetchedResultsSection(name: "", indexTitle: nil, models: objects)]
        }
        let key = try FormatPredicateParser.parseExpression(sectionNameKeyPath)
        var result: [FetchedResultsSection<ResultType>] = []
        var current: (name: String, models: [ResultType])?
        for object in objects {
            let value = try key.value(with: object)
            let name = value.map { "\($0)" } ?? ""
            if let open = current, open.name == name {
                current?.models.append(object)
            } else {
                if let open = current {
                    result.append(FetchedResultsSection(name: open.name, indexTitle: sectionIndexTitle(forSectionName: open.name), models: open.models))
                }
                current = (name, [object])
            }
        }
        if let open = current {
            result.append(FetchedResultsSection(name: open.name, indexTitle: sectionIndexTitle(forSectionName: open.name), models: open.models))
        }
        return result
    }

    private func startObserving() {
        let entityName = fetchRequest.entityName ?? Schema.entityName(for: ResultType.self)
        // A save of the controller's own context runs on the main actor: that context is not
        // Sendable and the controller (main actor) holds it. Such saves are reported before
        // `save()` returns, as Core Data does; saves of other contexts hop to the main actor.
        let ownContext = managedObjectContext.modelContext.map { ObjectIdentifier($0) }
        let ownContainer = managedObjectContext.modelContext.map { ObjectIdentifier($0.container) }
        observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) {
            [weak self] note in
            // Only saves to the same container's stores.
            guard let saver = note.object as? ModelContext, ObjectIdentifier(saver.container) == ownContainer else { return }
            let keys = [ModelContext.NotificationKey.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers]
            var touched: [ModelContext.NotificationKey: Set<PersistentIdentifier>] = [:]
            for key in keys {
                let ids = note.userInfo?[key.rawValue] as? [PersistentIdentifier] ?? []
                touched[key] = Set(ids.filter { $0.entityName == entityName })
            }
            guard touched.values.contains(where: { !$0.isEmpty }) else { return }
            let updated = touched[.updatedIdentifiers] ?? []
            if ObjectIdentifier(saver) == ownContext {
                MainActor.assumeIsolated { self?.refresh(updated: updated) }
            } else {
                Task { @MainActor in self?.refresh(updated: updated) }
            }
        }
    }

    /// Fetches again and tells the delegate what changed.
    private func refresh(updated: Set<PersistentIdentifier>) {
        guard let old = fetchedObjects, let objects = try? managedObjectContext.fetch(fetchRequest),
            let newSections = try? sections(of: objects)
        else { return }
        let oldSections = sectionList
        fetchedObjects = objects
        sectionList = newSections
        guard let delegate else { return }

        func paths(_ sections: [FetchedResultsSection<ResultType>]) -> [PersistentIdentifier: IndexPath] {
            var paths: [PersistentIdentifier: IndexPath] = [:]
            for (s, section) in sections.enumerated() {
                for (i, model) in section.models.enumerated() { paths[model.persistentModelID] = IndexPath(item: i, section: s) }
            }
            return paths
        }
        let oldPaths = paths(oldSections), newPaths = paths(newSections)
        let oldIDs = old.map(\.persistentModelID), newIDs = objects.map(\.persistentModelID)
        let difference = newIDs.difference(from: oldIDs).inferringMoves()
        let sectionDifference = newSections.map(\.name).difference(from: oldSections.map(\.name))

        delegate.controllerWillChangeContent(self)
        for change in sectionDifference {
            switch change {
            case .remove(let offset, _, _):
                delegate.controller(self, didChange: oldSections[offset], atSectionIndex: offset, for: .delete)
            case .insert(let offset, _, _):
                delegate.controller(self, didChange: newSections[offset], atSectionIndex: offset, for: .insert)
            }
        }
        var reported: Set<PersistentIdentifier> = []
        for change in difference {
            switch change {
            case .remove(_, let id, let move):
                if move == nil {
                    let model = old.first { $0.persistentModelID == id }
                    delegate.controller(self, didChange: model as Any, at: oldPaths[id], for: .delete, newIndexPath: nil)
                }
            case .insert(_, let id, let move):
                let model = objects.first { $0.persistentModelID == id }
                let type: NSFetchedResultsChangeType = move == nil ? .insert : .move
                delegate.controller(self, didChange: model as Any, at: move == nil ? nil : oldPaths[id], for: type,
                                    newIndexPath: newPaths[id])
                reported.insert(id)
            }
        }
        for model in objects where updated.contains(model.persistentModelID) && !reported.contains(model.persistentModelID) {
            let id = model.persistentModelID
            if oldPaths[id] != newPaths[id] {
                delegate.controller(self, didChange: model, at: oldPaths[id], for: .move, newIndexPath: newPaths[id])
            } else {
                delegate.controller(self, didChange: model, at: oldPaths[id], for: .update, newIndexPath: nil)
            }
        }
        delegate.controllerDidChangeContent(self)
    }
}
