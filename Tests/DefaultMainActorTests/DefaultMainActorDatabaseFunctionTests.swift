import SwiftData
import Testing

// Compiled with `.defaultIsolation(MainActor.self)`: a `@Table` as an app target of Swift 6.2
// writes it, and `@DatabaseFunction`s declared `nonisolated`, as they must be there (SQLite
// calls them on the thread that runs the statement). A function left main-actor isolated fails
// the build with "a @DatabaseFunction must be 'nonisolated'".

@Table
struct Stop: Identifiable {
    let id: Int
    var city = ""
    var nights = 0
}

@DatabaseFunction
nonisolated func isLongStay(_ stop: Stop) -> Bool {
    stop.nights >= 3
}

@DatabaseFunction
nonisolated func route(_ stops: some Sequence<Stop>) -> String {
    stops.map(\.city).joined(separator: " → ")
}

/// A database with three stops and the functions registered, made wherever it is called.
nonisolated func stopsDatabase() throws -> Database {
    var configuration = Configuration()
    configuration.functions = [$isLongStay.databaseFunction, $route.databaseFunction]
    let db = try Database.inMemory(configuration: configuration)
    try db.execute(sql: #"CREATE TABLE "stops" ("id" INTEGER PRIMARY KEY, "city" TEXT NOT NULL, "nights" INTEGER NOT NULL)"#)
    try Stop.insert {
        Stop.Draft(city: "Milan", nights: 1)
        Stop.Draft(city: "Rome", nights: 4)
        Stop.Draft(city: "Naples", nights: 3)
    }.execute(db)
    return db
}

@Suite("@DatabaseFunction under default main-actor isolation")
struct DefaultMainActorDatabaseFunctionTests {
    @Test func rowArgumentsOnTheMainActor() throws {
        let db = try stopsDatabase()
        let long = Stop.where { $isLongStay($0) }.select(\.city)
        #expect(try long.render().sql
            == #"SELECT "stops"."city" FROM "stops" WHERE "isLongStay"("stops"."id", "stops"."city", "stops"."nights")"#)
        #expect(try long.fetchAll(db) == ["Rome", "Naples"])
    }

    @Test func rowArgumentsOffTheMainActor() async throws {
        let route = try await Task.detached {
            try Stop.order(by: \.id).select { $route($0) }.fetchAll(stopsDatabase())
        }.value
        #expect(route == ["Milan → Rome → Naples"])
    }
}
