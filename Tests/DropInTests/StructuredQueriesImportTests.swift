import StructuredQueries
import StructuredQueriesSQLite
import Testing

// Written as swift-structured-queries code is: `import StructuredQueries` for the builder.

@Table
struct Plant: Identifiable {
    let id: Int
    var name = ""
    var height = 0
}

extension Plant {
    static let tall: Where<Plant> = Plant.where { $0.height.gt(3) }
    static func named(_ name: String) -> Where<Plant> { Self.where { $0.name.eq(name) } }
}

@Suite("import StructuredQueries")
struct StructuredQueriesImportTests {
    @Test func theBuilderRendersTheSameSQL() throws {
        let query = Plant.where { $0.height.gt(3) }.order { $0.name.desc() }.select(\.name)
        #expect(try query.render().sql
            == #"SELECT "plants"."name" FROM "plants" WHERE "plants"."height" > ? ORDER BY "plants"."name" DESC"#)
    }

    @Test func whereClausesAreValuesOfTypeWhere() throws {
        let tall: Where<Plant> = Plant.tall
        #expect(try tall.select(\.name).render().sql
            == #"SELECT "plants"."name" FROM "plants" WHERE "plants"."height" > ?"#)
        #expect(try (tall + Plant.named("Fern")).delete().render().sql
            == #"DELETE FROM "plants" WHERE "plants"."height" > ? AND "plants"."name" = ?"#)
        #expect(try tall.update { $0.height = 0 }.render().sql
            == #"UPDATE "plants" SET "height" = ? WHERE "plants"."height" > ?"#)
        #expect(try tall.count().render().sql == #"SELECT COUNT(*) FROM "plants" WHERE "plants"."height" > ?"#)
    }

    @Test func oneInsertTakesRowsAndDraftsTogether() throws {
        let insert = Plant.insert {
            Plant(id: 5, name: "Fern", height: 2)
            Plant.Draft(name: "Moss")
        }
        let rendered = try insert.render()
        #expect(rendered.sql == #"INSERT INTO "plants" ("id", "name", "height") VALUES (?, ?, ?), (?, ?, ?)"#)
        #expect(rendered.arguments == [.integer(5), .text("Fern"), .integer(2), .null, .text("Moss"), .integer(0)])
    }
}
