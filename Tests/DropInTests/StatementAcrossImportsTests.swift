import Foundation
import SQLiteData
import StructuredQueries
import StructuredQueriesSQLite
import Testing

// A file of an app that imports every module sqlite-data code brings in: `Statement` is still
// the protocol of whole statements, not the engine's prepared statement.

private func tallPlantNames() -> some Statement<String> {
    Plant.where { $0.height.gt(3) }.order(by: \.name).select(\.name)
}

@Suite("some Statement<Row> under SQLiteData, StructuredQueries and StructuredQueriesSQLite")
struct StatementAcrossImportsTests {
    @Test func theProtocolIsWhatTheNameMeans() throws {
        let database = try DatabaseQueue()
        let names = try database.write { db in
            try db.execute(sql: #"CREATE TABLE "plants" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "height" INTEGER NOT NULL)"#)
            try Plant.insert {
                Plant(id: 1, name: "Fern", height: 2)
                Plant(id: 2, name: "Oak", height: 30)
                Plant(id: 3, name: "Birch", height: 20)
            }.execute(db)
            return try tallPlantNames().fetchAll(db)
        }
        #expect(names == ["Birch", "Oak"])
        #expect(try SQLRenderCache.shared.render(tallPlantNames().sqlStatement()).sql == #"""
            SELECT "plants"."name" FROM "plants" WHERE "plants"."height" > ? ORDER BY "plants"."name" ASC
            """#)
    }
}
