import Cairn
import Testing

/// A table only these tests use, so the shared render cache's statistics for its statements
/// are theirs alone.
@Table
private struct RenderProbe: Hashable, Sendable {
    let id: Int
    var name = ""
}

/// The table of the row-update test, apart from `RenderProbe` so that neither test's
/// statistics count the other's statements.
@Table
private struct RowUpdateProbe: Hashable, Sendable {
    let id: Int
    var name = ""
}

/// The table of the insert test, apart from the others for the same reason.
@Table
private struct RowInsertProbe: Hashable, Sendable {
    let id: Int
    var name = ""
}

/// A table keyed by a `UUID`, and one keyed by a `UUID` stored as lowercase text: a lookup
/// binds its key as an insert writes it.
@Table
private struct UUIDKeyProbe: Hashable, Sendable {
    let id: UUID
    var name = ""
}

@Table
private struct TextUUIDKeyProbe: Hashable, Sendable {
    @Column(as: UUID.LowercasedRepresentation.self)
    let id: UUID
    var name = ""
}

@Suite("Typed SQL: rendered once per query shape")
struct RenderOnceTests {
    let db: Database

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: #"CREATE TABLE "renderProbes" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL)"#)
        try RenderProbe.insert { RenderProbe(id: 1, name: "one"); RenderProbe(id: 2, name: "two") }.execute(db)
    }

    private func statistics<C, F, J>(_ statement: Select<C, F, J>) -> SQLRenderCache.Statistics? {
        SQLRenderCache.shared.statistics(for: .select(statement.query))
    }

    @Test func findRendersItsSQLOnce() throws {
        var found: [RenderProbe?] = []
        for id in [1, 2, 3, 1] { found.append(try RenderProbe.find(id).fetchOne(db)) }
        #expect(found == [RenderProbe(id: 1, name: "one"), RenderProbe(id: 2, name: "two"), nil,
                          RenderProbe(id: 1, name: "one")])
        // A lookup of every row by key is a template of the table: its SELECT is neither
        // built nor compared with a cached one, only its key is bound.
        let lookup = SQLTemplate.Identity(RenderProbe.self, .primaryKeyLookup)
        #expect(SQLRenderCache.shared.statistics(for: lookup) == SQLRenderCache.Statistics(renders: 1, hits: 3))
        let rendered = try RenderProbe.find(9).render()
        #expect(rendered.sql == #"SELECT "renderProbes"."id", "renderProbes"."name" FROM "renderProbes" WHERE "renderProbes"."id" = ?"#)
        #expect(rendered.arguments == [.integer(9)])
        #expect(try RenderProbe.find([2]).fetchAll(db) == [RenderProbe(id: 2, name: "two")])
        #expect(try RenderProbe.find(2).fetchAll(db) == [RenderProbe(id: 2, name: "two")])
    }

    @Test func aLookupFindsARowByTheKeyItWasInsertedWith() throws {
        try db.execute(sql: #"CREATE TABLE "uUIDKeyProbes" ("id" BLOB PRIMARY KEY, "name" TEXT NOT NULL)"#)
        try db.execute(sql: #"CREATE TABLE "textUUIDKeyProbes" ("id" TEXT PRIMARY KEY, "name" TEXT NOT NULL)"#)
        let first = UUID(), second = UUID()
        try UUIDKeyProbe.insert { UUIDKeyProbe(id: first, name: "first"); UUIDKeyProbe(id: second, name: "second") }.execute(db)
        try TextUUIDKeyProbe.insert { TextUUIDKeyProbe(id: first, name: "first") }.execute(db)
        #expect(try UUIDKeyProbe.find(second).fetchOne(db) == UUIDKeyProbe(id: second, name: "second"))
        #expect(try UUIDKeyProbe.find(UUID()).fetchOne(db) == nil)
        #expect(try TextUUIDKeyProbe.find(first).fetchOne(db) == TextUUIDKeyProbe(id: first, name: "first"))
        let stored = try db.fetchAll(sql: #"SELECT "id" FROM "textUUIDKeyProbes""#) { try $0.decode(String.self, at: 0) }
        #expect(stored == [first.uuidString.lowercased()])
        #expect(try TextUUIDKeyProbe.find(first).render().arguments == [.text(first.uuidString.lowercased())])
    }

    @Test func aLookupChangedAfterFindIsAStatementAgain() throws {
        #expect(try RenderProbe.find(1).where { $0.name.eq("one") }.fetchOne(db) == RenderProbe(id: 1, name: "one"))
        #expect(try RenderProbe.find(1).where { $0.name.eq("two") }.fetchOne(db) == nil)
        #expect(try RenderProbe.find(2).select(\.name).fetchOne(db) == "two")
        #expect(try RenderProbe.find(1).fetchCount(db) == 1)
        #expect(try RenderProbe.find(1).render().sql
                == #"SELECT "renderProbes"."id", "renderProbes"."name" FROM "renderProbes" WHERE "renderProbes"."id" = ?"#)
        #expect(try RenderProbe.find(1).where { $0.name.eq("one") }.render().sql.hasSuffix(
            #"WHERE "renderProbes"."id" = ? AND "renderProbes"."name" = ?"#))
        // `where` first, then `find`: one statement, as before.
        #expect(try RenderProbe.where { $0.name.eq("two") }.find(2).fetchOne(db) == RenderProbe(id: 2, name: "two"))
        #expect(try RenderProbe.where { $0.name.eq("two") }.find(1).fetchOne(db) == nil)
    }

    @Test func aRowUpdateIsATemplateOfItsTable() throws {
        try db.execute(sql: #"CREATE TABLE "rowUpdateProbes" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL)"#)
        try RowUpdateProbe.insert { RowUpdateProbe(id: 1, name: "one"); RowUpdateProbe(id: 2, name: "two") }.execute(db)
        try RowUpdateProbe.update(RowUpdateProbe(id: 1, name: "first")).execute(db)
        try RowUpdateProbe.update(RowUpdateProbe(id: 2, name: "second")).execute(db)
        #expect(try RowUpdateProbe.order(by: \.id).fetchAll(db).map(\.name) == ["first", "second"])
        let update = SQLTemplate.Identity(RowUpdateProbe.self, .rowUpdate)
        #expect(SQLRenderCache.shared.statistics(for: update) == SQLRenderCache.Statistics(renders: 1, hits: 1))
        let rendered = try RowUpdateProbe.update(RowUpdateProbe(id: 7, name: "seven")).render()
        #expect(rendered.sql == #"UPDATE "rowUpdateProbes" SET "name" = ? WHERE "rowUpdateProbes"."id" = ?"#)
        #expect(rendered.arguments == [.text("seven"), .integer(7)])
        // Anything added makes it a statement again.
        let names = try RowUpdateProbe.update(RowUpdateProbe(id: 1, name: "one")).returning(\.name).fetchAll(db)
        #expect(names == ["one"])
        try RowUpdateProbe.update(RowUpdateProbe(id: 2, name: "two")).where { $0.name.eq("nobody") }.execute(db)
        #expect(try RowUpdateProbe.find(2).fetchOne(db)?.name == "second")
        try RowUpdateProbe.update(RowUpdateProbe(id: 2, name: "two")).execute(StatementRecorder(db))
        #expect(try RowUpdateProbe.find(2).fetchOne(db)?.name == "two")
    }

    @Test func anInsertOfWholeRowsIsATemplateOfItsTableAndRowCount() throws {
        try db.execute(sql: #"CREATE TABLE "rowInsertProbes" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL)"#)
        try RowInsertProbe.insert { RowInsertProbe(id: 1, name: "one"); RowInsertProbe(id: 2, name: "two") }.execute(db)
        try RowInsertProbe.insert { RowInsertProbe(id: 3, name: "three"); RowInsertProbe(id: 4, name: "four") }.execute(db)
        try RowInsertProbe.insert { RowInsertProbe(id: 5, name: "five") }.execute(db)
        #expect(try RowInsertProbe.order(by: \.id).fetchAll(db).map(\.name) == ["one", "two", "three", "four", "five"])
        #expect(SQLRenderCache.shared.statistics(for: SQLTemplate.Identity(RowInsertProbe.self, .rowsInsert(count: 2)))
                == SQLRenderCache.Statistics(renders: 1, hits: 1))
        #expect(SQLRenderCache.shared.statistics(for: SQLTemplate.Identity(RowInsertProbe.self, .rowsInsert(count: 1)))?.renders == 1)
        let rendered = try RowInsertProbe.insert { RowInsertProbe(id: 6, name: "six"); RowInsertProbe(id: 7, name: "seven") }.render()
        #expect(rendered.sql == #"INSERT INTO "rowInsertProbes" ("id", "name") VALUES (?, ?), (?, ?)"#)
        #expect(rendered.arguments == [.integer(6), .text("six"), .integer(7), .text("seven")])
        // An upsert or `returning` makes it a statement again.
        let ids = try RowInsertProbe.insert { RowInsertProbe(id: 8, name: "eight") }.returning(\.id).fetchAll(db)
        #expect(ids == [8])
        try RowInsertProbe.upsert { RowInsertProbe(id: 1, name: "uno") }.execute(db)
        #expect(try RowInsertProbe.where { $0.id.eq(1) }.select(\.name).fetchOne(db) == "uno")
        // Drafts are statements: a missing key is the database's to assign.
        try RowInsertProbe.insert { RowInsertProbe.Draft(name: "nine") }.execute(db)
        #expect(try RowInsertProbe.where { $0.name.eq("nine") }.select(\.id).fetchOne(db) == 9)
        try RowInsertProbe.insert { RowInsertProbe(id: 10, name: "ten") }.execute(StatementRecorder(db))
        #expect(try RowInsertProbe.fetchCount(db) == 8)
    }

    @Test func aConnectionWithoutTemplatesRunsTheLookupAsItsStatement() throws {
        let recording = StatementRecorder(db)
        #expect(try RenderProbe.find(2).fetchOne(recording) == RenderProbe(id: 2, name: "two"))
        #expect(try RenderProbe.find(3).fetchAll(recording) == [])
        #expect(recording.statements.count == 2)
        #expect(try recording.statements.first?.render().arguments == [.integer(2)])
    }

    @Test func whereClosuresRenderOncePerShape() throws {
        var names: [[String]] = []
        for name in ["one", "two", "three"] {
            names.append(try RenderProbe.where { $0.name.eq(name) }.select(\.name).fetchAll(db))
        }
        #expect(names == [["one"], ["two"], []])
        #expect(statistics(RenderProbe.where { $0.name.eq("") }.select(\.name))
                == SQLRenderCache.Statistics(renders: 1, hits: 2))
        // Another operator is another shape, with its own SQL text.
        let other = RenderProbe.where { $0.name.neq("one") }.select(\.name)
        #expect(try other.fetchAll(db) == ["two"])
        #expect(try other.render().sql.hasSuffix(#"WHERE "renderProbes"."name" <> ?"#))
    }

    @Test func countsAndWritesRenderOncePerShape() throws {
        for id in [1, 2] {
            try RenderProbe.where { $0.id.eq(id) }.update(set: { $0.name = "renamed" }).execute(db)
        }
        #expect(try RenderProbe.where { $0.name.eq("renamed") }.fetchCount(db) == 2)
        let update = RenderProbe.where { $0.id.eq(0) }.update(set: { $0.name = "" })
        #expect(SQLRenderCache.shared.statistics(for: try update.sqlStatement())
                == SQLRenderCache.Statistics(renders: 1, hits: 1))
    }
}

/// A connection that implements only the statement requirements, recording each statement.
private final class StatementRecorder: QueryConnection {
    let db: Database
    private(set) var statements: [SQLStatement] = []

    init(_ db: Database) { self.db = db }

    func fetchAll<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> [Element] {
        statements.append(statement)
        return try db.fetchAll(statement, transform)
    }

    func fetchOne<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> Element? {
        statements.append(statement)
        return try db.fetchOne(statement, transform)
    }

    func execute(_ statement: SQLStatement) throws {
        statements.append(statement)
        try db.execute(statement)
    }

    func fetchCursor(_ statement: SQLStatement) throws -> RowCursor {
        statements.append(statement)
        return try db.fetchCursor(statement)
    }

    func withTaskCancellation<T>(_ body: () throws -> T) throws -> T { try db.withTaskCancellation(body) }
}
