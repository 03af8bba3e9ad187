import Cairn
import Foundation

/// What changed between two fetches of a fetched-results controller, in the terms its delegate
/// hears: sections inserted and deleted (by name), then objects inserted, deleted, moved and
/// updated, with Core Data's index paths (a deletion's old path, an insertion's new one, a
/// move's both, an update's old path).
struct FetchedResultsChanges<Model: PersistentModel> {
    struct SectionChange {
        let info: any NSFetchedResultsSectionInfo
        let index: Int
        let type: NSFetchedResultsChangeType
    }

    struct ObjectChange {
        let object: Model
        let indexPath: IndexPath?
        let type: NSFetchedResultsChangeType
        let newIndexPath: IndexPath?
    }

    typealias Results = (objects: [Model], sections: [FetchedResultsSection<Model>])

    private(set) var sections: [SectionChange] = []
    private(set) var objects: [ObjectChange] = []

    var isEmpty: Bool { sections.isEmpty && objects.isEmpty }

    /// Compares `old` and `new`; `updated` names the objects whose attribute values changed.
    init(old: Results, new: Results, updated: Set<PersistentIdentifier>) {
        let oldPaths = Self.paths(old.sections), newPaths = Self.paths(new.sections)
        let sectionDifference = new.sections.map(\.name).difference(from: old.sections.map(\.name))
        for change in sectionDifference {
            switch change {
            case .remove(let offset, _, _):
                sections.append(SectionChange(info: old.sections[offset], index: offset, type: .delete))
            case .insert(let offset, _, _):
                sections.append(SectionChange(info: new.sections[offset], index: offset, type: .insert))
            }
        }
        var oldByID: [PersistentIdentifier: Model] = [:]
        for model in old.objects { oldByID[model.persistentModelID] = model }
        var newByID: [PersistentIdentifier: Model] = [:]
        for model in new.objects { newByID[model.persistentModelID] = model }

        let difference = new.objects.map(\.persistentModelID).difference(from: old.objects.map(\.persistentModelID))
            .inferringMoves()
        var reported: Set<PersistentIdentifier> = []
        for change in difference {
            switch change {
            case .remove(_, let id, let move):
                if move == nil, let model = oldByID[id] {
                    objects.append(ObjectChange(object: model, indexPath: oldPaths[id], type: .delete, newIndexPath: nil))
                }
            case .insert(_, let id, let move):
                guard let model = newByID[id] else { continue }
                let type: NSFetchedResultsChangeType = move == nil ? .insert : .move
                objects.append(ObjectChange(object: model, indexPath: move == nil ? nil : oldPaths[id], type: type,
                                            newIndexPath: newPaths[id]))
                reported.insert(id)
            }
        }
        for model in new.objects where updated.contains(model.persistentModelID) && !reported.contains(model.persistentModelID) {
            let id = model.persistentModelID
            if oldPaths[id] != newPaths[id] {
                objects.append(ObjectChange(object: model, indexPath: oldPaths[id], type: .move, newIndexPath: newPaths[id]))
            } else {
                objects.append(ObjectChange(object: model, indexPath: oldPaths[id], type: .update, newIndexPath: nil))
            }
        }
    }

    private static func paths(_ sections: [FetchedResultsSection<Model>]) -> [PersistentIdentifier: IndexPath] {
        var paths: [PersistentIdentifier: IndexPath] = [:]
        for (s, section) in sections.enumerated() {
            for (i, model) in section.models.enumerated() { paths[model.persistentModelID] = IndexPath(item: i, section: s) }
        }
        return paths
    }
}
