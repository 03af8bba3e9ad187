@testable import Cairn
import Testing

/// The whole-row `SELECT` a layout keeps, which every model fetch, fault and refresh narrows:
/// the key first, then the columns in the order the layout decodes them.
@Suite("A table's whole-row select")
struct TableLayoutSelectTests {
    @Test("names the primary key, then every stored column in the layout's order, from the entity's table")
    func wholeRow() throws {
        let layout = TableLayout(entity: Schema.Entity.of(Workout.self), storeIdentifier: nil)
        let rendered = try StoreDialect.sqlite.render(layout.selectAll)
        #expect(rendered.sql == #"SELECT "id", "title", "startedAt", "finishedAt", "minutes", "calories", "isFavorite" FROM "Workout""#)
        #expect(layout.selectColumns == ["id"] + layout.columns.map(\.name))
    }

    @Test("a context's narrowed select keeps the layout's own untouched")
    func narrowingCopies() throws {
        let layout = TableLayout(entity: Schema.Entity.of(Workout.self), storeIdentifier: nil)
        let narrowed = layout.selectAll.where(.column("id").equals(.value(.integer(7))))
        #expect(try StoreDialect.sqlite.render(narrowed).sql.hasSuffix(#"FROM "Workout" WHERE "id" = ?"#))
        #expect(try StoreDialect.sqlite.render(layout.selectAll).sql.hasSuffix(#"FROM "Workout""#))
    }
}
