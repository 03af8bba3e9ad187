import CairnSQLite
import Foundation

/// W1–W13 through the engine's public API as a server would use it: a `DatabasePool`, each
/// workload in one `write { }` or `read { }` (one transaction; W13 one per request), cached
/// statements, typed binding, rows decoded by index into Swift structs.
struct EngineSurface: BenchSurface {
    static let columns = "id, title, startedAt, finishedAt, minutes, calories, isFavorite"

    func run(directory: String) throws -> Measurements {
        let path = directory + "/engine.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let pool = try DatabasePool(path: path)
        defer { try? pool.close() }
        try pool.write { db in
            try db.execute(sql: Workload.createWorkout)
            try db.execute(sql: Workload.createWorkoutIndex)
        }
        var m = Measurements(name: "engine (DatabasePool)", surfaceLabel: "engine")
        let input = Workload.makeRows()

        try m.measure(1) {
            try pool.write { db in
                let insert = try db.cachedStatement(
                    sql: "INSERT INTO workout (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
                for w in input {
                    try insert.bind(values: w.id, w.title, w.startedAt, w.finishedAt, w.minutes, w.calories, w.isFavorite)
                    try insert.execute()
                }
            }
            return nil
        }

        try m.measure(2, {
            try pool.read { db in try db.fetchAll(sql: "SELECT \(Self.columns) FROM workout", Self.decodeWorkout) }
        }, checksum: Workload.checksumW2)
        m.peakRSSKiB = peakResidentKiB()

        try m.measure(3) {
            try pool.read { db in
                var sum: Int64 = 0
                for _ in 0..<Workload.repeats { sum += try Self.topHundred(db) }
                return sum
            }
        }

        try m.measure(4) {
            try pool.read { db in
                var sum: Int64 = 0
                for _ in 0..<Workload.repeats {
                    sum += try db.fetchValue(Int64.self, sql: "SELECT COUNT(*) FROM workout WHERE isFavorite = ?", arguments: [1]) ?? 0
                }
                return sum
            }
        }

        try m.measure(5) {
            try pool.read { db in
                var sum: Int64 = 0
                let lookup = try db.cachedStatement(sql: "SELECT \(Self.columns) FROM workout WHERE id = ?")
                for k in 0..<Workload.lookups {
                    try lookup.bind(values: Workload.lookupKey(k))
                    if let w = try lookup.fetchOne(Self.decodeWorkout) { sum += w.id + w.minutes }
                }
                return sum
            }
        }

        try pool.write { db in try db.execute(sql: Workload.createOrders) }
        try pool.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO orders VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
            for o in Workload.makeOrders() {
                try insert.bind(values: o.id, o.customerID, o.employeeID, o.orderDate, o.requiredDate, o.shippedDate,
                                o.shipVia, o.freight, o.shipName, o.shipAddress, o.shipCity, o.shipRegion,
                                o.shipPostalCode, o.shipCountry)
                try insert.execute()
            }
        }
        // W6 as baseline.c writes it: one array, refilled by each of the 100 fetches.
        try m.measure(6) {
            try pool.read { db in
                var sum: Int64 = 0
                var orders: [OrderRow] = []
                let select = try db.cachedStatement(sql: Workload.selectOrders)
                for _ in 0..<Workload.orderRepeats {
                    orders.removeAll(keepingCapacity: true)
                    try select.forEachRow { orders.append(try Self.decodeOrder($0)) }
                    sum += orders.reduce(0) { $0 + Workload.orderChecksum(id: $1.id, shippedDate: $1.shippedDate) }
                }
                return sum
            }
        }
        // W7: the same fetches through `fetchAll`, a new array each time.
        try m.measure(7) {
            try pool.read { db in
                var sum: Int64 = 0
                for _ in 0..<Workload.orderRepeats {
                    let orders = try db.fetchAll(sql: Workload.selectOrders, Self.decodeOrder)
                    sum += orders.reduce(0) { $0 + Workload.orderChecksum(id: $1.id, shippedDate: $1.shippedDate) }
                }
                return sum
            }
        }

        try ConcurrentLoad.measure(&m) { reads in
            var sum: Int64 = 0
            for _ in 0..<reads { sum += try pool.read { db in try Self.topHundred(db) } }
            return sum
        } writeBatch: { first in
            try pool.write { db in
                let insert = try db.cachedStatement(
                    sql: "INSERT INTO workout (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
                for k in first..<first + ConcurrentLoad.batch {
                    let w = ConcurrentLoad.writtenRow(k)
                    try insert.bind(values: w.id, w.title, w.startedAt, w.finishedAt, w.minutes, w.calories, w.isFavorite)
                    try insert.execute()
                }
            }
        }
        try Self.measureWrites(&m, pool: pool)
        return m
    }

    /// W11-W13 as C writes them: rows fetched and updated by a cached statement per row, a
    /// `DELETE ... WHERE`, and requests that each fetch and update one row in a `write { }`.
    static func measureWrites(_ m: inout Measurements, pool: DatabasePool) throws {
        let range = "WHERE id >= ? AND id <= ?"
        try m.measure(11, {
            try pool.write { db in
                let rows = try db.fetchAll(
                    sql: "SELECT \(columns) FROM workout \(range)",
                    arguments: [Workload.updatedKeys.lowerBound, Workload.updatedKeys.upperBound], decodeWorkout)
                let update = try db.cachedStatement(sql: "UPDATE workout SET minutes = ?, calories = ? WHERE id = ?")
                for var w in rows {
                    w.minutes += 1
                    w.calories += 0.5
                    try update.bind(values: w.minutes, w.calories, w.id)
                    try update.execute()
                }
            }
        }, checksum: { _ in
            try pool.read { db in
                try db.fetchAll(
                    sql: "SELECT minutes, calories FROM workout \(range)",
                    arguments: [Workload.updatedKeys.lowerBound, Workload.updatedKeys.upperBound]
                ) { Workload.checksumW11(minutes: try $0.decode(at: 0), calories: try $0.decode(at: 1)) }
            }.reduce(0, +)
        })

        try m.measure(12, {
            try pool.write { db in
                try db.execute(sql: "DELETE FROM workout \(range)",
                               arguments: [Workload.deletedKeys.lowerBound, Workload.deletedKeys.upperBound])
            }
        }, checksum: { _ in
            try pool.read { db in
                let count = "SELECT COUNT(*) FROM workout \(range)"
                return Workload.checksumW12(
                    remaining: try db.fetchValue(Int.self, sql: count, arguments: [1, Workload.rowCount]) ?? -1,
                    leftInDeletedRange: try db.fetchValue(
                        Int.self, sql: count,
                        arguments: [Workload.deletedKeys.lowerBound, Workload.deletedKeys.upperBound]) ?? -1)
            }
        })

        try m.measure(13, {
            for k in 0..<Workload.requestKeys.count {
                try pool.write { db in
                    let select = try db.cachedStatement(sql: "SELECT \(columns) FROM workout WHERE id = ?")
                    try select.bind(values: Workload.requestKey(k))
                    guard let w = try select.fetchOne(decodeWorkout) else { return }
                    let update = try db.cachedStatement(sql: "UPDATE workout SET minutes = ? WHERE id = ?")
                    try update.bind(values: w.minutes + 1, w.id)
                    try update.execute()
                }
            }
        }, checksum: { _ in
            try pool.read { db in
                try db.fetchValue(
                    Int64.self, sql: "SELECT SUM(minutes) FROM workout \(range)",
                    arguments: [Workload.requestKeys.lowerBound, Workload.requestKeys.upperBound])
            }
        })
    }

    /// W3's query once: the sum of its ids plus its row count (what W3 and W10 add up).
    static func topHundred(_ db: Database) throws -> Int64 {
        let rows = try db.fetchAll(
            sql: "SELECT \(Self.columns) FROM workout WHERE minutes >= ? ORDER BY startedAt DESC LIMIT ?",
            arguments: [30, 100], Self.decodeWorkout)
        return rows.reduce(0) { $0 + $1.id } + Int64(rows.count)
    }

    static func decodeWorkout(_ row: Row) throws -> WorkoutRow {
        WorkoutRow(
            id: try row.decode(at: 0), title: try row.decode(at: 1), startedAt: try row.decode(at: 2),
            finishedAt: try row.decode(at: 3), minutes: try row.decode(at: 4), calories: try row.decode(at: 5),
            isFavorite: try row.decode(at: 6))
    }

    static func decodeOrder(_ row: Row) throws -> OrderRow {
        OrderRow(
            id: try row.decode(at: 0), customerID: try row.decode(at: 1), employeeID: try row.decode(at: 2),
            orderDate: try row.decode(at: 3), requiredDate: try row.decode(at: 4), shippedDate: try row.decode(at: 5),
            shipVia: try row.decode(at: 6), freight: try row.decode(at: 7), shipName: try row.decode(at: 8),
            shipAddress: try row.decode(at: 9), shipCity: try row.decode(at: 10), shipRegion: try row.decode(at: 11),
            shipPostalCode: try row.decode(at: 12), shipCountry: try row.decode(at: 13))
    }
}
