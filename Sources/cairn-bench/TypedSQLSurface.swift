import Cairn
import Foundation

/// A `workout` row as a `@Table` value.
@Table("workout")
struct BenchWorkout: Sendable {
    var id: Int64
    var title: String
    var startedAt: Double
    var finishedAt: Double?
    var minutes: Int64
    var calories: Double
    var isFavorite: Bool
}

/// An `orders` row as a `@Table` value, with the Northwind column names.
@Table("orders")
struct BenchOrder: Sendable {
    @Column("OrderID", primaryKey: true) var id: Int64
    @Column("CustomerID") var customerID: String?
    @Column("EmployeeID") var employeeID: Int64
    @Column("OrderDate") var orderDate: String?
    @Column("RequiredDate") var requiredDate: String?
    @Column("ShippedDate") var shippedDate: String?
    @Column("ShipVia") var shipVia: Int64
    @Column("Freight") var freight: Double
    @Column("ShipName") var shipName: String?
    @Column("ShipAddress") var shipAddress: String?
    @Column("ShipCity") var shipCity: String?
    @Column("ShipRegion") var shipRegion: String?
    @Column("ShipPostalCode") var shipPostalCode: String?
    @Column("ShipCountry") var shipCountry: String?
}

/// A `shippers` row (Northwind's Shippers), the other side of W9's join.
@Table("shippers")
struct BenchShipper: Sendable {
    @Column("ShipperID", primaryKey: true) var id: Int64
    @Column("CompanyName") var companyName: String
    @Column("Phone") var phone: String?
}

/// W1–W7 through the typed SQL builder: `@Table` values, statements built with `insert`,
/// `where`, `order`, `limit`, `find`, `count`, run on a `DatabasePool`; W8 and W9 as tuple
/// `select`s, of one table and across a join; W11–W13 with `update` and `delete`.
struct TypedSQLSurface: BenchSurface {
    /// Rows per INSERT statement in W1 (7 bound values each, under SQLite's 32766 limit).
    static let insertBatch = 500

    func run(directory: String) throws -> Measurements {
        let path = directory + "/typedsql.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let pool = try DatabasePool(path: path)
        defer { try? pool.close() }
        try pool.write { db in
            try db.execute(sql: Workload.createWorkout)
            try db.execute(sql: Workload.createWorkoutIndex)
        }
        var m = Measurements(name: "typed SQL (@Table)", surfaceLabel: "typedsql")
        let input = Workload.makeRows().map {
            BenchWorkout(id: $0.id, title: $0.title, startedAt: $0.startedAt, finishedAt: $0.finishedAt,
                         minutes: $0.minutes, calories: $0.calories, isFavorite: $0.isFavorite)
        }

        try m.measure(1) {
            try pool.write { db in try Self.insert(input, db) }
            return nil
        }

        try Self.measureReads(&m, pool)

        // W8: W2's rows as a seven-column tuple, the way `select { ($0.a, $0.b) }` reads them.
        let tuples = BenchWorkout.select {
            ($0.id, $0.title, $0.startedAt, $0.finishedAt, $0.minutes, $0.calories, $0.isFavorite)
        }
        try m.measure(8, { try pool.read { db in try tuples.fetchAll(db) } }, checksum: { rows in
            var sum: Int64 = 0
            for (id, title, _, finishedAt, minutes, _, isFavorite) in rows {
                let favorite: Int64 = isFavorite ? 1 : 0
                let unfinished: Int64 = finishedAt == nil ? 1 : 0
                sum += id + minutes + favorite + Int64(title.utf8.count) + unfinished
            }
            return sum
        })

        try pool.write { db in try db.execute(sql: Workload.createOrders) }
        let orders = Workload.makeOrders().map {
            BenchOrder(id: $0.id, customerID: $0.customerID, employeeID: $0.employeeID, orderDate: $0.orderDate,
                       requiredDate: $0.requiredDate, shippedDate: $0.shippedDate, shipVia: $0.shipVia,
                       freight: $0.freight, shipName: $0.shipName, shipAddress: $0.shipAddress, shipCity: $0.shipCity,
                       shipRegion: $0.shipRegion, shipPostalCode: $0.shipPostalCode, shipCountry: $0.shipCountry)
        }
        try pool.write { db in
            var start = 0
            while start < orders.count {
                try BenchOrder.insert { Array(orders[start..<min(start + 1_000, orders.count)]) }.execute(db)
                start += 1_000
            }
        }
        // W6 as baseline.c writes it: one array, refilled from a cursor by each fetch.
        try m.measure(6) {
            try pool.read { db in
                var sum: Int64 = 0
                var rows: [BenchOrder] = []
                for _ in 0..<Workload.orderRepeats {
                    rows.removeAll(keepingCapacity: true)
                    let cursor = try BenchOrder.all.fetchCursor(db)
                    while let order = try cursor.next() { rows.append(order) }
                    sum += rows.reduce(0) { $0 + Workload.orderChecksum(id: $1.id, shippedDate: $1.shippedDate) }
                }
                return sum
            }
        }
        // W7: the same fetches through `fetchAll`, a new array each time.
        try m.measure(7) {
            try pool.read { db in
                var sum: Int64 = 0
                for _ in 0..<Workload.orderRepeats {
                    let rows = try BenchOrder.all.fetchAll(db)
                    sum += rows.reduce(0) { $0 + Workload.orderChecksum(id: $1.id, shippedDate: $1.shippedDate) }
                }
                return sum
            }
        }

        // W9: W7's fetches as a tuple select across a join, the shape of
        // `Reminder.join(RemindersList.all) { … }.select { ($0.title, $1.title) }`.
        try pool.write { db in
            try db.execute(sql: Workload.createShippers)
            try BenchShipper.insert {
                for (id, name) in Workload.shippers { BenchShipper(id: id, companyName: name, phone: nil) }
            }.execute(db)
        }
        let joined = BenchOrder.join(BenchShipper.all) { $0.shipVia.eq($1.id) }.select {
            ($0.id, $0.customerID, $0.orderDate, $0.shippedDate, $0.freight, $1.companyName)
        }
        try m.measure(9) {
            try pool.read { db in
                var sum: Int64 = 0
                for _ in 0..<Workload.orderRepeats {
                    for (id, _, _, shippedDate, _, company) in try joined.fetchAll(db) {
                        sum += Workload.orderChecksum(id: id, shippedDate: shippedDate) + Int64(company.utf8.count)
                    }
                }
                return sum
            }
        }

        try ConcurrentLoad.measure(&m) { reads in
            var sum: Int64 = 0
            for _ in 0..<reads { sum += try pool.read { db in try Self.topHundred(db) } }
            return sum
        } writeBatch: { first in
            let rows = (first..<first + ConcurrentLoad.batch).map(ConcurrentLoad.writtenRow).map {
                BenchWorkout(id: $0.id, title: $0.title, startedAt: $0.startedAt, finishedAt: $0.finishedAt,
                             minutes: $0.minutes, calories: $0.calories, isFavorite: $0.isFavorite)
            }
            try pool.write { db in try BenchWorkout.insert { rows }.execute(db) }
        }
        try Self.measureWrites(&m, pool: pool)
        return m
    }

    /// The rows of a key range, as W11-W13 select them.
    static func rows(_ keys: ClosedRange<Int64>) -> SelectOf<BenchWorkout> {
        BenchWorkout.where { $0.id.gte(keys.lowerBound) && $0.id.lte(keys.upperBound) }
    }

    /// W11-W13 as typed SQL code writes them: fetched values changed and saved with
    /// `update(_:)` (which writes every column of the row, as a whole value is saved), a
    /// `where { }.delete()`, and requests that each `find` one row and `update` it.
    static func measureWrites(_ m: inout Measurements, pool: DatabasePool) throws {
        try m.measure(11, {
            try pool.write { db in
                for var w in try rows(Workload.updatedKeys).fetchAll(db) {
                    w.minutes += 1
                    w.calories += 0.5
                    try BenchWorkout.update(w).execute(db)
                }
            }
        }, checksum: { _ in
            try pool.read { db in
                try rows(Workload.updatedKeys).fetchAll(db).reduce(0) {
                    $0 + Workload.checksumW11(minutes: $1.minutes, calories: $1.calories)
                }
            }
        })

        try m.measure(12, {
            try pool.write { db in try rows(Workload.deletedKeys).delete().execute(db) }
        }, checksum: { _ in
            try pool.read { db in
                Workload.checksumW12(
                    remaining: try rows(1...Int64(Workload.rowCount)).fetchCount(db),
                    leftInDeletedRange: try rows(Workload.deletedKeys).fetchCount(db))
            }
        })

        try m.measure(13, {
            for k in 0..<Workload.requestKeys.count {
                try pool.write { db in
                    guard var w = try BenchWorkout.find(Workload.requestKey(k)).fetchOne(db) else { return }
                    w.minutes += 1
                    try BenchWorkout.update(w).execute(db)
                }
            }
        }, checksum: { _ in
            try pool.read { db in try rows(Workload.requestKeys).fetchAll(db).reduce(0) { $0 + $1.minutes } }
        })
    }

    /// W1's inserts: `insertBatch` rows a statement.
    static func insert(_ rows: [BenchWorkout], _ db: some QueryConnection) throws {
        var start = 0
        while start < rows.count {
            let batch = rows[start..<min(start + insertBatch, rows.count)]
            try BenchWorkout.insert { Array(batch) }.execute(db)
            start += insertBatch
        }
    }

    /// W2-W5 on `database`, an SQLite pool or a PostgreSQL one: the same typed statements,
    /// rendered in each database's dialect.
    static func measureReads(_ m: inout Measurements, _ database: some QueryDatabase) throws {
        try m.measure(2, { try database.read { db in try BenchWorkout.all.fetchAll(db) } }, checksum: { rows in
            rows.reduce(0) { sum, w in
                sum + w.id + w.minutes + (w.isFavorite ? 1 : 0) + Int64(w.title.utf8.count) + (w.finishedAt == nil ? 1 : 0)
            }
        })
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
                    sum += Int64(try BenchWorkout.where { $0.isFavorite.eq(true) }.fetchCount(db))
                }
                return sum
            }
        }

        try m.measure(5) {
            try database.read { db in
                var sum: Int64 = 0
                for k in 0..<Workload.lookups {
                    if let w = try BenchWorkout.find(Workload.lookupKey(k)).fetchOne(db) { sum += w.id + w.minutes }
                }
                return sum
            }
        }
    }

    /// W3's query once: the sum of its ids plus its row count (what W3 and W10 add up).
    static func topHundred(_ db: some QueryConnection) throws -> Int64 {
        let rows = try BenchWorkout
            .where { $0.minutes.gte(30) }
            .order { $0.startedAt.desc() }
            .limit(100)
            .fetchAll(db)
        return rows.reduce(0) { $0 + $1.id } + Int64(rows.count)
    }
}
