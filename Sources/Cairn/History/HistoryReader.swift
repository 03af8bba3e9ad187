import Foundation

/// Turns a stored transaction's changes (HistoryRecording.swift) back into `HistoryChange`s of
/// the models' own types. An entity no longer in the schema is left out; so is a property no
/// longer in its entity. A document that is not what Cairn writes (the file was edited or
/// damaged) is an error naming the transaction, not an empty list of changes.
struct HistoryReader {
    let store: ModelStore
    let transaction: Int64

    func changes(_ json: String) throws -> [HistoryChange] {
        guard let data = json.data(using: .utf8),
            let entries = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
        else {
            throw ModelError(.valueDecodingFailed, entityName: "_CairnHistoryTransaction", value: "\(transaction)",
                             message: "The changes of history transaction \(transaction) in store '\(store.identifier)' "
                                 + "are not a list of change entries: \(json.prefix(80))")
        }
        var changes: [HistoryChange] = []
        var ordinal: Int64 = 0
        for entry in entries {
            guard let name = entry["e"] as? String, let kind = (entry["k"] as? String).flatMap(HistoryRecord.Kind.init),
                let keyList = entry["keys"] as? [Any], let layout = store.layouts[name]
            else { continue }
            let details = entry[kind == .update ? "props" : "tomb"] as? [Any] ?? []
            for (index, key) in HistoryRecord.keys(keyList).enumerated() {
                ordinal += 1
                let identifier = PersistentIdentifier.permanent(scope: layout.identifierScope, primaryKey: key)
                // Transaction and position: unique in the store, and increasing.
                let change = (transaction << 32) | ordinal
                let detail = index < details.count ? details[index] : nil
                changes.append(make(layout.entity.modelType, kind, identifier, change, detail, layout.entity))
            }
        }
        return changes
    }

    private func make<Model: PersistentModel>(
        _ type: Model.Type, _ kind: HistoryRecord.Kind, _ identifier: PersistentIdentifier, _ change: Int64, _ detail: Any?,
        _ entity: Schema.Entity
    ) -> HistoryChange {
        switch kind {
        case .insert:
            return .insert(DefaultHistoryInsert<Model>(
                changeIdentifier: change, changedPersistentIdentifier: identifier, transactionIdentifier: transaction))
        case .update:
            let names = detail as? [String] ?? []
            let keyPaths = names.compactMap { entity.storedPropertiesByName[$0]?.keypath.flatMap { $0 as? PartialKeyPath<Model> } }
            return .update(DefaultHistoryUpdate<Model>(
                changeIdentifier: change, changedPersistentIdentifier: identifier, transactionIdentifier: transaction,
                updatedAttributes: keyPaths.map(sendableKeyPath)))
        case .delete:
            let stored = detail as? [String: Any] ?? [:]
            var entries: [(keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)] = []
            for property in entity.properties {  // declaration order
                guard let json = stored[property.name], let attribute = property as? Schema.Attribute,
                    let keyPath = attribute.keypath.flatMap({ $0 as? PartialKeyPath<Model> })
                else { continue }
                let value = HistoryRecord.decode(json)
                guard value != .null, let decoded = try? attribute.value(from: value) else { continue }
                entries.append((sendableKeyPath(keyPath), sendableValue(decoded)))
            }
            return .delete(DefaultHistoryDelete<Model>(
                changeIdentifier: change, changedPersistentIdentifier: identifier, transactionIdentifier: transaction,
                tombstone: HistoryTombstone(entries: entries)))
        }
    }
}

/// A model's key path as SwiftData's history types hold it. A key path is an immutable object
/// (`Sendable` in fact; the type system cannot see that through `AnyKeyPath`), and the
/// existential adds no witness table for the marker protocol, so the two share one layout.
private func sendableKeyPath<Root>(_ keyPath: PartialKeyPath<Root>) -> any PartialKeyPath<Root> & Sendable {
    unsafeBitCast(keyPath, to: (any PartialKeyPath<Root> & Sendable).self)
}

/// A tombstone value as SwiftData's `HistoryTombstone` hands it out (`any Sendable`). It was
/// just decoded from the stored column, so nothing else holds it; `Any` and `any Sendable`
/// have one layout (a marker protocol adds no witness table), hence the reinterpretation.
private func sendableValue(_ value: Any) -> any Sendable {
    var value = value
    return withUnsafePointer(to: &value) { $0.withMemoryRebound(to: (any Sendable).self, capacity: 1) { $0.pointee } }
}
