import Cairn
import Foundation

/// What changed between two fetches of a fetched-results controller, in the terms its delegate
/// hears: sections inserted and deleted (by name), then objects inserted, deleted, moved and
/// updated, with Core Data's index paths (a deletion's old path, an insertion's new one, a
/// move's both, an update's old path).
///
/// Objects are matched by identity, not by identifier: a context holds one instance per row,
/// and an inserted model keeps its instance when its save turns its temporary identifier into
/// a permanent one (which is no change of the results).
struct FetchedResultsChanges {
    struct SectionChange {
        let info: any NSFetchedResultsSectionInfo
        let index: Int
        let type: NSFetchedResultsChangeType
    }

    struct ObjectChange {
        let object: any PersistentModel
        let indexPath: IndexPath?
        let type: NSFetchedResultsChangeType
        let newIndexPath: IndexPath?
    }

    private(set) var sections: [SectionChange] = []
    private(set) var objects: [ObjectChange] = []

    var isEmpty: Bool { sections.isEmpty && objects.isEmpty }

    /// Compares `old` and `new`; `updated` names the objects whose attribute values changed.
    init(old: [FetchedResultsSection], new: [FetchedResultsSection], updated: Set<ObjectIdentifier>) {
        let oldPaths = Self.paths(old), newPaths = Self.paths(new)
        for change in new.map(\.name).difference(from: old.map(\.name)) {
            switch change {
            case .remove(let offset, _, _):
                sections.append(SectionChange(info: old[offset], index: offset, type: .delete))
            case .insert(let offset, _, _):
                sections.append(SectionChange(info: new[offset], index: offset, type: .insert))
            }
        }
        let oldObjects = old.flatMap(\.models), newObjects = new.flatMap(\.models)
        var oldByKey: [ObjectIdentifier: any PersistentModel] = [:]
        for model in oldObjects { oldByKey[ObjectIdentifier(model)] = model }
        var newByKey: [ObjectIdentifier: any PersistentModel] = [:]
        for model in newObjects { newByKey[ObjectIdentifier(model)] = model }

        let difference = newObjects.map(ObjectIdentifier.init).difference(from: oldObjects.map(ObjectIdentifier.init))
            .inferringMoves()
        var reported: Set<ObjectIdentifier> = []
        for change in difference {
            switch change {
            case .remove(_, let key, let move):
                if move == nil, let model = oldByKey[key] {
                    objects.append(ObjectChange(object: model, indexPath: oldPaths[key], type: .delete, newIndexPath: nil))
                }
            case .insert(_, let key, let move):
                guard let model = newByKey[key] else { continue }
                let type: NSFetchedResultsChangeType = move == nil ? .insert : .move
                objects.append(ObjectChange(object: model, indexPath: move == nil ? nil : oldPaths[key], type: type,
                                            newIndexPath: newPaths[key]))
                reported.insert(key)
            }
        }
        for model in newObjects {
            let key = ObjectIdentifier(model)
            guard updated.contains(key), !reported.contains(key) else { continue }
            if oldPaths[key] != newPaths[key] {
                objects.append(ObjectChange(object: model, indexPath: oldPaths[key], type: .move, newIndexPath: newPaths[key]))
            } else {
                objects.append(ObjectChange(object: model, indexPath: oldPaths[key], type: .update, newIndexPath: nil))
            }
        }
    }

    private static func paths(_ sections: [FetchedResultsSection]) -> [ObjectIdentifier: IndexPath] {
        var paths: [ObjectIdentifier: IndexPath] = [:]
        for (s, section) in sections.enumerated() {
            for (i, model) in section.models.enumerated() { paths[ObjectIdentifier(model)] = IndexPath(item: i, section: s) }
        }
        return paths
    }
}
