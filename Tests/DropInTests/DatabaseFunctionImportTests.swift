import Foundation
import SQLiteData
import Testing

// Written as sqlite-data's CustomFunctions documentation writes it: scalar and aggregate
// `@DatabaseFunction`s added in `prepareDatabase` and called with the function's labels.

@Table
struct HouseChore: Identifiable {
    let id: Int
    var room = ""
    var title = ""
    var effort: Int?
}

@DatabaseFunction
func shout(_ string: String) -> String {
    string.uppercased() + "!"
}

@DatabaseFunction
func mostCommon(effort efforts: some Sequence<Int?>) -> Int? {
    var occurrences: [Int: Int] = [:]
    for effort in efforts {
        guard let effort else { continue }
        occurrences[effort, default: 0] += 1
    }
    return occurrences.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
}

@DatabaseFunction
func list(_ titles: some Sequence<String>) -> String {
    titles.sorted().joined(separator: " · ")
}

@Suite("import SQLiteData: @DatabaseFunction")
struct DatabaseFunctionImportTests {
    @Test func scalarAndAggregateFunctionsFromPrepareDatabase() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.add(function: $shout)
            try db.add(function: $mostCommon)
            try db.add(function: $list)
        }
        let database = try DatabaseQueue(configuration: configuration)
        try database.write { db in
            try db.execute(sql: #"CREATE TABLE "houseChores" ("id" INTEGER PRIMARY KEY, "room" TEXT NOT NULL, "title" TEXT NOT NULL, "effort" INTEGER)"#)
            try HouseChore.insert {
                HouseChore.Draft(room: "Kitchen", title: "Dishes", effort: 2)
                HouseChore.Draft(room: "Kitchen", title: "Floor", effort: 3)
                HouseChore.Draft(room: "Kitchen", title: "Oven", effort: 3)
                HouseChore.Draft(room: "Garden", title: "Weeds", effort: nil)
            }.execute(db)
        }
        let query = HouseChore.group(by: \.room).order(by: \.room)
            .select { ($0.room, $list($0.title), $mostCommon(effort: $0.effort), $shout($0.room)) }
        #expect(try query.render().sql == #"SELECT "houseChores"."room", "list"("houseChores"."title"), "mostCommon"("houseChores"."effort"), "shout"("houseChores"."room") FROM "houseChores" GROUP BY "houseChores"."room" ORDER BY "houseChores"."room" ASC"#)
        let rows = try database.read { db in try query.fetchAll(db) }
        #expect(rows.map(\.0) == ["Garden", "Kitchen"])
        #expect(rows.map(\.1) == ["Weeds", "Dishes · Floor · Oven"])
        #expect(rows.map(\.2) == [nil, 3])
        #expect(rows.map(\.3) == ["GARDEN!", "KITCHEN!"])
    }
}
