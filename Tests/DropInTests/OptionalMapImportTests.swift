import Foundation
import StructuredQueries
import StructuredQueriesSQLite
import Testing

// Written as swift-structured-queries' DateFunctionsTests and MapTests write it: date components
// and functions of an optional column reached with `map`.

@Table
struct Birdwatch: Identifiable {
    let id: Int
    @Column(as: Date.UnixTimeRepresentation.self)
    var observedAt: Date
    @Column(as: Date.UnixTimeRepresentation?.self)
    var confirmedAt: Date?
    var species: String?
}

@Suite("import StructuredQueries: map on optional columns")
struct OptionalMapImportTests {
    @Test func mapReachesTheWrappedColumn() throws {
        let db = try Database.inMemory()
        try db.execute(sql: #"CREATE TABLE "birdwatches" ("id" INTEGER PRIMARY KEY, "observedAt" REAL NOT NULL, "confirmedAt" REAL, "species" TEXT)"#)
        let august = Date(timeIntervalSince1970: 1_786_579_200)  // 2026-08-13
        try Birdwatch.insert {
            Birdwatch(id: 1, observedAt: august, confirmedAt: nil, species: "wren")
            Birdwatch(id: 2, observedAt: august, confirmedAt: august, species: nil)
        }.execute(db)

        let query = Birdwatch.order(by: \.id).select {
            ($0.observedAt.year, $0.confirmedAt.map(\.year))
        }
        #expect(try query.render().sql == #"""
            SELECT CAST(strftime('%Y', "birdwatches"."observedAt", 'unixepoch') AS INTEGER), \#
            CAST(strftime('%Y', "birdwatches"."confirmedAt", 'unixepoch') AS INTEGER) \#
            FROM "birdwatches" ORDER BY "birdwatches"."id" ASC
            """#)
        let years = try query.fetchAll(db)
        #expect(years.map(\.0) == [2026, 2026])
        #expect(years.map(\.1) == [nil, 2026])

        let recent = Birdwatch.where { $0.confirmedAt.map { $0 > .now(.days(-7)) } }.select(\.id)
        #expect(try recent.render().sql == #"""
            SELECT "birdwatches"."id" FROM "birdwatches" WHERE "birdwatches"."confirmedAt" > \#
            (((round(julianday('now', ?) * 86400000.0) - 210866760000000) / 1000.0))
            """#)

        let names = Birdwatch.order(by: \.id).select { $0.species.map { $0.upper() } }
        #expect(try names.fetchAll(db) == ["WREN", nil])
    }
}
