import Cairn
import Foundation

/// W1-W6 and W10 through CairnPostgres as a server would use it: a `PostgresDatabase`, each
/// workload in one `write { }` or `read { }` (one transaction), W1's rows in one pipelined
/// `executeBatch`, statements prepared once per connection with binary parameters, rows
/// decoded by index into Swift structs.
struct PostgresEngineSurface: PostgresBenchSurface {
    var label: String { "engine" }

    func run(url: String) throws -> Measurements {
        let database = try PostgresWorkload.open(url: url)
        defer { database.close() }
        var m = Measurements(name: "engine (PostgresDatabase)", surfaceLabel: "engine")
        let input = Workload.makeRows()

        try m.measure(1) {
            try database.write { db in
                try db.executeBatch(sql: PostgresWorkload.insertWorkout, argumentRows: input.map(Self.arguments))
            }
            return nil
        }
        try PostgresWorkload.vacuum("workout", url: url)

        try m.measure(2, {
            try database.read { db in
                try db.fetchAll(sql: "SELECT \(PostgresWorkload.columns) FROM workout", Self.decodeWorkout)
            }
        }, checksum: Workload.checksumW2)
        m.peakRSSKiB = peakResidentKiB()

        try m.measure(3) {
            try database.read { db in
                var sum: Int64 = 0
                for _ in 0..<Workload.repeats { sum += try Self.topHundred(db) }
                return sum
            }
        }

        try m.measure(4) {
            try database.read { db in
                var sum: Int64 = 0
                for _ in 0..<Workload.repeats {
                    sum += try db.fetchOne(
                        sql: #"SELECT COUNT(*) FROM workout WHERE "isFavorite" = $1"#, arguments: [true]
                    ) { try $0.decode(Int64.self, at: 0) } ?? 0
                }
                return sum
            }
        }

        try m.measure(5) {
            try database.read { db in
                var sum: Int64 = 0
                for k in 0..<Workload.lookups {
                    if let w = try db.fetchOne(
                        sql: "SELECT \(PostgresWorkload.columns) FROM workout WHERE id = $1",
                        arguments: [Workload.lookupKey(k)], Self.decodeWorkout) {
                        sum += w.id + w.minutes
                    }
                }
                return sum
            }
        }

        if selectedWorkloads.contains(6) {
            try database.write { db in
                try db.execute(sql: PostgresWorkload.createOrders)
                try db.executeBatch(
                    sql: "INSERT INTO orders VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)",
                    argumentRows: Workload.makeOrders().map { o in
                        [o.id, o.customerID, o.employeeID, o.orderDate, o.requiredDate, o.shippedDate, o.shipVia,
                         o.freight, o.shipName, o.shipAddress, o.shipCity, o.shipRegion, o.shipPostalCode, o.shipCountry]
                    })
            }
            try PostgresWorkload.vacuum("orders", url: url)
        }
        // W6 as baseline.c writes it: one array, refilled by each of the 100 fetches.
        try m.measure(6) {
            try database.read { db in
                var sum: Int64 = 0
                var orders: [OrderRow] = []
                for _ in 0..<Workload.orderRepeats {
                    orders.removeAll(keepingCapacity: true)
                    try db.forEachRow(sql: PostgresWorkload.selectOrders) { orders.append(try EngineSurface.decodeOrder($0)) }
                    sum += orders.reduce(0) { $0 + Workload.orderChecksum(id: $1.id, shippedDate: $1.shippedDate) }
                }
                return sum
            }
        }

        try ConcurrentLoad.measure(&m) { reads in
            var sum: Int64 = 0
            for _ in 0..<reads { sum += try database.read { db in try Self.topHundred(db) } }
            return sum
        } writeBatch: { first in
            try database.write { db in
                try db.executeBatch(
                    sql: PostgresWorkload.insertWorkout,
                    argumentRows: (first..<first + ConcurrentLoad.batch).map { Self.arguments(ConcurrentLoad.writtenRow($0)) })
            }
        }
        return m
    }

    static func arguments(_ w: WorkoutRow) -> StatementArguments {
        [w.id, w.title, w.startedAt, w.finishedAt, w.minutes, w.calories, w.isFavorite]
    }

    /// W3's query once: the sum of its ids plus its row count (what W3 and W10 add up).
    static func topHundred(_ db: PostgresConnection) throws -> Int64 {
        let rows = try db.fetchAll(sql: PostgresWorkload.topHundred, arguments: [30, 100], decodeWorkout)
        return rows.reduce(0) { $0 + $1.id } + Int64(rows.count)
    }

    static func decodeWorkout(_ row: Row) throws -> WorkoutRow {
        try EngineSurface.decodeWorkout(row)
    }
}
