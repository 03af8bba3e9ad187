import Foundation
import SQLiteData
import Testing

// Written as sqlite-data code is: `import SQLiteData`, a DatabaseQueue, writes and reads.

@Table
struct Visit: Identifiable {
    let id: Int
    var place = ""
}

@Suite("import SQLiteData")
struct SQLiteDataImportTests {
    @Test func readsAndWritesThroughTheDatabase() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: #"CREATE TABLE "visits" ("id" INTEGER PRIMARY KEY, "place" TEXT NOT NULL)"#)
            try Visit.insert { Visit.Draft(place: "Harbour") }.execute(db)
            try Visit.insert { Visit.Draft(place: "Market") }.execute(db)
        }
        let places = try database.read { db in try Visit.order(by: \.place).fetchAll(db).map(\.place) }
        #expect(places == ["Harbour", "Market"])
    }
}
