import Foundation

/// The rows and constants of BENCHMARKS.md, generated exactly as baseline.c's `make_row`.
enum Workload {
    static let rowCount = 100_000
    static let repeats = 1_000
    static let lookups = 10_000
    static let orderCount = 16_000
    static let orderRepeats = 100

    /// The primary key of W5's `k`th lookup, as baseline.c picks it.
    static func lookupKey(_ k: Int) -> Int64 { Int64((k * 7919) % rowCount + 1) }

    // W11-W13 (writes.c): each writes its own range of ids, so none disturbs another's rows,
    // and they run after W10, so no read workload sees their changes.

    /// W11's rows: fetched by this key range, each given minutes + 1 and calories + 0.5, saved.
    static let updatedKeys: ClosedRange<Int64> = 20_001...30_000
    /// W12's rows: deleted by this predicate on the key.
    static let deletedKeys: ClosedRange<Int64> = 30_001...40_000
    /// W13's rows: each fetched by key and its minutes + 1 saved, once, in its own request.
    static let requestKeys: ClosedRange<Int64> = 40_001...50_000
    /// The key W13's `k`th request changes: every key of `requestKeys` once, scattered as W5's.
    static func requestKey(_ k: Int) -> Int64 { requestKeys.lowerBound + Int64((k * 7919) % requestKeys.count) }

    /// W11's checksum, of the rows of `updatedKeys` read back after the save.
    static func checksumW11(minutes: Int64, calories: Double) -> Int64 { minutes + Int64(calories * 4) }

    /// W12's checksum from two counts read back: the rows left with ids up to `rowCount`, and
    /// those left in `deletedKeys` (weighted so that deleting the wrong rows shows).
    static func checksumW12(remaining: Int, leftInDeletedRange: Int) -> Int64 {
        Int64(remaining) + 1_000_000 * Int64(leftInDeletedRange)
    }

    static let createWorkout = """
        CREATE TABLE workout (id INTEGER PRIMARY KEY, title TEXT NOT NULL, startedAt REAL NOT NULL, \
        finishedAt REAL, minutes INTEGER NOT NULL, calories REAL NOT NULL, isFavorite INTEGER NOT NULL)
        """
    static let createWorkoutIndex = "CREATE INDEX workout_startedAt ON workout(startedAt)"
    static let createOrders = """
        CREATE TABLE orders (OrderID INTEGER PRIMARY KEY, CustomerID TEXT, EmployeeID INTEGER, \
        OrderDate TEXT, RequiredDate TEXT, ShippedDate TEXT, ShipVia INTEGER, Freight REAL, \
        ShipName TEXT, ShipAddress TEXT, ShipCity TEXT, ShipRegion TEXT, ShipPostalCode TEXT, ShipCountry TEXT)
        """
    /// Northwind's Shippers, which W9 joins to `orders` on `ShipVia`.
    static let createShippers = "CREATE TABLE shippers (ShipperID INTEGER PRIMARY KEY, CompanyName TEXT NOT NULL, Phone TEXT)"
    static let shippers: [(Int64, String)] = [(1, "Speedy Express"), (2, "United Package"), (3, "Federal Shipping")]

    static let selectOrders = """
        SELECT OrderID, CustomerID, EmployeeID, OrderDate, RequiredDate, ShippedDate, ShipVia, \
        Freight, ShipName, ShipAddress, ShipCity, ShipRegion, ShipPostalCode, ShipCountry FROM orders
        """

    static func makeRows() -> [WorkoutRow] {
        (1...Int64(rowCount)).map { i in
            let minutes = (i * 37) % 120 + 1
            let started = 1_700_000_000.0 + Double((i * 7919) % Int64(rowCount)) * 60.0
            return WorkoutRow(
                id: i, title: "Workout session #\(i)", startedAt: started,
                finishedAt: i % 10 == 0 ? nil : started + Double(minutes) * 60.0,
                minutes: minutes, calories: Double(minutes) * 7.5 + Double(i % 13) * 0.25,
                isFavorite: i % 7 == 0)
        }
    }

    /// The orders of W6, generated as baseline.c's loop does (inserted before W6's clock).
    static func makeOrders() -> [OrderRow] {
        (1...orderCount).map(makeOrder)
    }

    private static func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func makeOrder(_ i: Int) -> OrderRow {
        let day = padded(1 + i % 28, 2)
        let orderDate = "2019-\(padded(1 + i % 12, 2))-\(day) "
            + "\(padded(i % 24, 2)):\(padded(i % 60, 2)):\(padded((i * 7) % 60, 2))"
        let requiredDate = "2019-\(padded(1 + (i + 1) % 12, 2))-\(day) 00:00:00"
        let shippedDate: String? = i % 17 == 0 ? nil : "2019-\(padded(1 + (i + 2) % 12, 2))-\(day) 12:00:00"
        let region: String? = i % 3 == 0 ? nil : "Region"
        return OrderRow(
            id: Int64(i), customerID: "C" + padded(i % 93, 4), employeeID: Int64(1 + i % 9),
            orderDate: orderDate, requiredDate: requiredDate, shippedDate: shippedDate,
            shipVia: Int64(1 + i % 3), freight: Double(i % 1000) / 7.0,
            shipName: "Ship to customer number \(i % 500)", shipAddress: "\(i % 9000) Long Street Name Avenue",
            shipCity: "City \(i % 70)", shipRegion: region, shipPostalCode: padded((i * 31) % 99999, 5),
            shipCountry: "Country")
    }

    /// One order's part of W6's and W7's checksum, as baseline.c adds it: the id, plus one when
    /// the order was shipped. Inlined, so a surface's loop costs what it did written out.
    @inline(__always)
    static func orderChecksum(id: Int64, shippedDate: String?) -> Int64 {
        id + (shippedDate == nil ? 0 : 1)
    }

    static func checksumW2(_ rows: [WorkoutRow]) -> Int64 {
        rows.reduce(0) { sum, w in
            sum + w.id + w.minutes + (w.isFavorite ? 1 : 0) + Int64(w.title.utf8.count) + (w.finishedAt == nil ? 1 : 0)
        }
    }
}

/// A `workout` row as a plain Swift struct (the C baseline's `Workout`).
struct WorkoutRow {
    var id: Int64
    var title: String
    var startedAt: Double
    var finishedAt: Double?
    var minutes: Int64
    var calories: Double
    var isFavorite: Bool
}

/// An `orders` row (the C baseline's `Order`).
struct OrderRow {
    var id: Int64
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
}
