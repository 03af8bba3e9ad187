import Foundation

// Fetched rows of an inheritance hierarchy's table (``TableHierarchy``): each row becomes a
// model of the entity its discriminator names, whichever entity the fetch asked for.
extension ModelContext {
    /// The model of a row of a hierarchy's table, made as the class its discriminator names,
    /// with the row's storage unretained (see `materializeUnregistered`).
    func materializeMember<T: PersistentModel>(
        _ type: T.Type, row: some RowValues, layout: TableLayout, primaryKey: Int64, discriminatorAt position: Int
    ) throws -> (T, Unmanaged<ModelStorage>?, Int64) {
        let discriminator = position < row.count ? row.value(at: position) : .null
        guard let member = layout.hierarchy?.member(named: discriminator) else {
            throw ModelError(
                .valueDecodingFailed, entityName: layout.entity.name,
                column: SQLText.identifier(layout.tableName) + "." + SQLText.identifier(Schema.Entity.discriminatorColumn),
                value: discriminator.description,
                message: "Row \(primaryKey) of \(layout.tableName) is of an entity this container's schema does not have; "
                    + "list every model class of the hierarchy in ModelContainer(for:)")
        }
        let storage = try ModelStorage.fetched(
            entity: member.entity, scope: layout.identifierScope, primaryKey: primaryKey, link: link
        ) { slots in
            try row.fill(member.slotPlan, into: slots, tableName: layout.tableName)
        }
        let unmanaged = Unmanaged.passUnretained(storage)
        let made = Self.makeFetched(member.entity.modelType, _FetchedStorage(storage: consume storage))
        guard let model = made as? T else {
            throw ModelError(
                .valueDecodingFailed, entityName: layout.entity.name,
                column: SQLText.identifier(layout.tableName) + "." + SQLText.identifier(Schema.Entity.discriminatorColumn),
                value: discriminator.description,
                message: "Row \(primaryKey) of \(layout.tableName) is a \(member.entity.name), which is not a \(T.self)")
        }
        if unmanaged._withUnsafeGuaranteedRef({ $0.droppedByModel }) { throw droppedBackingData(T.self, layout: layout) }
        return (model, unmanaged, primaryKey)
    }

    private static func makeFetched<M: PersistentModel>(_ type: M.Type, _ storage: consuming _FetchedStorage) -> any PersistentModel {
        M._$makeFetched(storage)
    }
}
