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

@Suite("import StructuredQueries")
struct StructuredQueriesImportTests {
    @Test func theBuilderRendersTheSameSQL() throws {
        let query = Plant.where { $0.height.gt(3) }.order { $0.name.desc() }.select(\.name)
        #expect(try query.render().sql
            == #"SELECT "plants"."name" FROM "plants" WHERE "plants"."height" > ? ORDER BY "plants"."name" DESC"#)
    }
}
