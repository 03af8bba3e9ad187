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
            db.add(function: $shout)
            db.add(function: $mostCommon)
            db.add(function: $list)
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

@DatabaseFunction
func chain(titles: some Sequence<String>) -> String {
    titles.joined(separator: ">")
}

// Written as StructuredQueries' aggregate documentation writes ordered aggregates: `order:` on
// the built-in aggregates and on a `@DatabaseFunction` aggregate's call.
@Suite("import SQLiteData: aggregates with order:")
struct OrderedAggregateImportTests {
    @Test func orderSortsTheGroupBeforeTheAggregateSeesIt() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            db.add(function: $chain)
            try db.execute(sql: #"CREATE TABLE "houseChores" ("id" INTEGER PRIMARY KEY, "room" TEXT NOT NULL, "title" TEXT NOT NULL, "effort" INTEGER)"#)
            try HouseChore.insert {
                HouseChore.Draft(room: "Kitchen", title: "Floor", effort: 3)
                HouseChore.Draft(room: "Kitchen", title: "Dishes", effort: 1)
                HouseChore.Draft(room: "Kitchen", title: "Oven", effort: 2)
            }.execute(db)
        }
        let query = HouseChore.group(by: \.room).select {
            (
                $0.title.groupConcat(order: $0.effort),
                $0.title.groupConcat(", ", order: $0.title.desc()),
                $0.title.jsonGroupArray(order: $0.title),
                $chain($0.title, order: $0.effort.desc()),
                $chain(titles: $0.title, order: $0.title, filter: $0.effort.gt(1))
            )
        }
        let sql = try query.render().sql
        #expect(sql == #"SELECT GROUP_CONCAT("houseChores"."title" ORDER BY "houseChores"."effort" ASC), GROUP_CONCAT("houseChores"."title", ? ORDER BY "houseChores"."title" DESC), json_group_array("houseChores"."title" ORDER BY "houseChores"."title" ASC), "chain"("houseChores"."title" ORDER BY "houseChores"."effort" DESC), "chain"("houseChores"."title" ORDER BY "houseChores"."title" ASC) FILTER (WHERE "houseChores"."effort" > ?) FROM "houseChores" GROUP BY "houseChores"."room""#)
        // `ORDER BY` inside a call needs SQLite 3.44; an older SQLite refuses the statement.
        let version = try database.read { db in try db.fetchValue(String.self, sql: "SELECT sqlite_version()") } ?? ""
        guard version.compare("3.44", options: .numeric) != .orderedAscending else {
            let error = #expect(throws: DatabaseError.self) { try database.read { db in try query.fetchOne(db) } }
            #expect(error?.message.contains("ORDER") == true)
            return
        }
        let row = try database.read { db in try query.fetchOne(db) }
        #expect(row?.0 == "Dishes,Oven,Floor")
        #expect(row?.1 == "Oven, Floor, Dishes")
        #expect(row?.2 == ["Dishes", "Floor", "Oven"])
        #expect(row?.3 == "Floor>Oven>Dishes")
        #expect(row?.4 == "Floor>Oven")
    }

    @Test func aRefusedRegistrationFailsTheNextStatement() throws {
        let database = try DatabaseQueue()
        let error = #expect(throws: (any Error).self) {
            try database.write { db in
                db.add(function: DatabaseFunction(String(repeating: "x", count: 300), argumentCount: 0) { _ in nil })
                try db.execute(sql: "SELECT 1")
            }
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("was not registered"))
    }
}
