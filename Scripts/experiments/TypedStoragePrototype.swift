// An experiment, not part of any target: what SwiftData's W6 would cost if `@Model` kept a
// fetched row's values in typed stored properties of the model, one allocation a row.
//
// To rerun it: copy this file into Sources/cairn-bench/, and in EngineSurface.swift make W7's
// loop call the prototype instead of `fetchAll`:
//
//     let orders = try protoFetch(db, ProtoContext())
//     sum += orders.reduce(0) { $0 + Workload.orderChecksum(id: $1.values.id, shippedDate: $1.values.shippedDate) }
//
// then `SWIFT_DETERMINISTIC_HASHING=1 Scripts/bench-instructions.sh engine 7`, and compare with
// C's W6 (11,039.2M). The header fields stand for what a storage keeps beside the values (its
// entity, identifier scope and key, context link, state, changed and loaded bits, registrar,
// rarely used fields); the two dictionaries stand for the context's identity tables.

import Cairn

final class ProtoEntity: Sendable {}
final class ProtoScope: Sendable {}
final class ProtoLink {}

final class ProtoOrder {
    unowned(unsafe) let entity: ProtoEntity
    let scope: ProtoScope
    var link: ProtoLink?
    var state: UInt8 = 2
    var changed: UInt64 = 0
    var loaded: UInt64 = (1 << 14) - 1
    var registrar: AnyObject?
    var rare: AnyObject?
    /// The 14 values, typed, stored inline in this object (the engine surface's row struct).
    var values: OrderRow

    var primaryKey: Int64 { values.id }

    init(_ row: Row, entity: ProtoEntity, scope: ProtoScope, link: ProtoLink) throws {
        self.entity = entity
        self.scope = scope
        self.link = link
        values = try EngineSurface.decodeOrder(row)
    }
}

final class ProtoContext {
    let link = ProtoLink()
    var byKey: [Int64: ObjectIdentifier] = [:]
    var tracked: [ObjectIdentifier: ProtoOrder] = [:]
}

let protoEntity = ProtoEntity()
let protoScope = ProtoScope()

@inline(never)
func protoFetch(_ db: Database, _ context: ProtoContext) throws -> [ProtoOrder] {
    var models: [ProtoOrder] = []
    let statement = try db.cachedStatement(sql: Workload.selectOrders)
    try statement.forEachRow { row in
        let key: Int64 = try row.decode(at: 0)
        if !context.byKey.isEmpty, let id = context.byKey[key], let existing = context.tracked[id] {
            models.append(existing)
            return
        }
        models.append(try ProtoOrder(row, entity: protoEntity, scope: protoScope, link: context.link))
    }
    context.byKey.reserveCapacity(models.count)
    context.tracked.reserveCapacity(models.count)
    for model in models {
        let id = ObjectIdentifier(model)
        context.byKey[model.primaryKey] = id
        context.tracked[id] = model
    }
    return models
}
