import Cairn
import Foundation

/// W1-W6 and W10 through the typed SQL builder on a `PostgresDatabase`: the statements of
/// TypedSQLSurface, unchanged, rendered in PostgreSQL's dialect.
struct PostgresTypedSQLSurface: PostgresBenchSurface {
    var label: String { "typedsql" }

    func run(url: String) throws -> Measurements {
        let database = try PostgresWorkload.open(url: url)
        defer { database.close() }
        var m = Measurements(name: "typed SQL (@Table)", surfaceLabel: "typedsql")
        let input = Workload.makeRows().map(Self.workout)

        try m.measure(1) {
            try database.write { db in try TypedSQLSurface.insert(input, db) }
            return nil
        }
        try PostgresWorkload.vacuum("workout", url: url)

        try TypedSQLSurface.measureReads(&m, database)

        if selectedWorkloads.contains(6) {
            let orders = Workload.makeOrders().map {
                BenchOrder(id: $0.id, customerID: $0.customerID, employeeID: $0.employeeID, orderDate: $0.orderDate,
                           requiredDate: $0.requiredDate, shippedDate: $0.shippedDate, shipVia: $0.shipVia,
                           freight: $0.freight, shipName: $0.shipName, shipAddress: $0.shipAddress,
                           shipCity: $0.shipCity, shipRegion: $0.shipRegion, shipPostalCode: $0.shipPostalCode,
                           shipCountry: $0.shipCountry)
            }
            try database.write { db in
                try db.execute(sql: PostgresWorkload.createOrders)
                // 500 rows (7,000 parameters) a statement: libpq before 16 cannot read the server's
                // description of a statement with more than 7,500 parameters.
                var start = 0
                while start < orders.count {
                    try BenchOrder.insert { Array(orders[start..<min(start + 500, orders.count)]) }.execute(db)
                    start += 500
                }
            }
            try PostgresWorkload.vacuum("orders", url: url)
        }
        // W6: one array, refilled by each of the 100 fetches (typed SQL has no cursor on
        // PostgreSQL, whose results arrive whole).
        try m.measure(6) {
            try database.read { db in
                var sum: Int64 = 0
                var rows: [BenchOrder] = []
                for _ in 0..<Workload.orderRepeats {
                    rows.removeAll(keepingCapacity: true)
                    rows.append(contentsOf: try BenchOrder.all.fetchAll(db))
                    sum += rows.reduce(0) { $0 + Workload.orderChecksum(id: $1.id, shippedDate: $1.shippedDate) }
                }
                return sum
            }
        }

        try ConcurrentLoad.measure(&m) { reads in
            var sum: Int64 = 0
            for _ in 0..<reads { sum += try database.read { db in try TypedSQLSurface.topHundred(db) } }
            return sum
        } writeBatch: { first in
            let rows = (first..<first + ConcurrentLoad.batch).map { Self.workout(ConcurrentLoad.writtenRow($0)) }
            try database.write { db in try BenchWorkout.insert { rows }.execute(db) }
        }
        return m
    }

    static func workout(_ w: WorkoutRow) -> BenchWorkout {
        BenchWorkout(id: w.id, title: w.title, startedAt: w.startedAt, finishedAt: w.finishedAt,
                     minutes: w.minutes, calories: w.calories, isFavorite: w.isFavorite)
    }
}
