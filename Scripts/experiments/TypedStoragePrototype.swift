// An experiment, not part of any target: what SwiftData's W6 would cost if `@Model` kept a
// fetched row's values in typed stored properties of the model, one allocation a row
// (Docs/Performance.md, session 27, "A prototype of typed storage").
//
// To rerun it: copy this file into Sources/cairn-bench/, and in EngineSurface.swift make W7's
// loop call the prototype instead of `fetchAll`:
//
//     let orders = try protoFetch(db, ProtoContext())
//     sum += orders.reduce(0) { $0 + Workload.orderChecksum(id: $1.orderID, shippedDate: $1.shippedDate) }
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
    let primaryKey: Int64
    var link: ProtoLink?
    var state: UInt8 = 2
    var changed: UInt64 = 0
    var loaded: UInt64 = 0
    var registrar: AnyObject?
    var rare: AnyObject?
    var orderID: Int64
    var customerID: String?
    var employeeID: Int64
    var orderDate: String?
    var requiredDate: String?
    var shippedDate: String?
    var shipVia: Int64
    var freight: Double
    var shipName: String?
    var shipAddress: String?
    var shipCity: String?
    var shipRegion: String?
    var shipPostalCode: String?
    var shipCountry: String?

    init(_ row: Row, entity: ProtoEntity, scope: ProtoScope, link: ProtoLink) throws {
        self.entity = entity
        self.scope = scope
        self.link = link
        primaryKey = try row.decode(at: 0)
        orderID = try row.decode(at: 0)
        customerID = try row.decode(at: 1)
        employeeID = try row.decode(at: 2)
        orderDate = try row.decode(at: 3)
        requiredDate = try row.decode(at: 4)
        shippedDate = try row.decode(at: 5)
        shipVia = try row.decode(at: 6)
        freight = try row.decode(at: 7)
        shipName = try row.decode(at: 8)
        shipAddress = try row.decode(at: 9)
        shipCity = try row.decode(at: 10)
        shipRegion = try row.decode(at: 11)
        shipPostalCode = try row.decode(at: 12)
        shipCountry = try row.decode(at: 13)
        loaded = (1 << 14) - 1
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
