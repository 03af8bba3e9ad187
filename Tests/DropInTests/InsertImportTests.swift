import StructuredQueries
import Testing

// Inserts as StructuredQueries' InsertTests write them beyond rows and conflict clauses: the
// whole-row column list, `#sql` in `values:` rows, inserts of no rows, `where:` with no conflict
// clause, `Values(#sql(…))` as the query of an insert; and `isNot(nil)`, written `IS NOT NULL`.

@Table("pins")
struct Pin: Identifiable {
    let id: Int
    var label = ""
    var note: String?
}

@Suite("import StructuredQueries: insert { $0 } values:, insert { [] }, insert … where:, isNot(nil)")
struct InsertImportTests {
    let database: DatabaseQueue

    init() throws {
        database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: #"CREATE TABLE "pins" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL, "note" TEXT)"#)
        }
    }

    func labels() throws -> [String] {
        try database.read { db in try Pin.order(by: \.id).select(\.label).fetchAll(db) }
    }

    @Test func recordsWithTheWholeRowAsTheColumnList() throws {
        let insert = Pin.insert {
            $0
        } values: {
            Pin(id: 100, label: "Check email")
        }
        .returning(\.id)
        #expect(try insert.render().sql == """
            INSERT INTO "pins" ("id", "label", "note") VALUES (?, ?, ?) RETURNING "pins"."id"
            """)
        #expect(try database.write { db in try insert.fetchAll(db) } == [100])
    }

    @Test func sqlExpressionsInValuesRows() throws {
        let insert = Pin.insert {
            ($0.id, $0.label, $0.note)
        } values: {
            (1, "Groceries", "milk")
            (#sql("2"), #sql("'Haircut'"), #sql("NULL"))
        }
        .returning(\.id)
        #expect(try insert.render().sql == """
            INSERT INTO "pins" ("id", "label", "note") VALUES (?, ?, ?), (2, 'Haircut', NULL) RETURNING "pins"."id"
            """)
        #expect(try database.write { db in try insert.fetchAll(db) } == [1, 2])
        #expect(try labels() == ["Groceries", "Haircut"])
    }

    @Test func emptyValuesRenderNothingAndRunNothing() throws {
        #expect(try Pin.insert { [] }.render().sql == "")
        #expect(try Pin.insert(\.id) { return [] }.render().sql == "")
        try database.write { db in
            try Pin.insert { [] }.execute(db)
            try Pin.insert(\.id) { return [] }.execute(db)
            #expect(try Pin.insert { [] }.returning(\.id).fetchAll(db).isEmpty)
        }
        #expect(try labels().isEmpty)
    }

    @Test func whereWithoutAConflictClause() throws {
        let condition = false
        let insert = Pin.insert {
            Pin.Draft(label: "Groceries")
        } where: {
            if condition {
                $0.note.isNot(nil)
            }
        }
        #expect(try insert.render().sql == #"INSERT INTO "pins" ("id", "label", "note") VALUES (?, ?, ?)"#)
        try database.write { db in try insert.execute(db) }
        #expect(try labels() == ["Groceries"])
        // A condition with no update to filter: StructuredQueries reports it; here it throws.
        let filtered = Pin.insert { Pin.Draft(label: "Haircut") } where: { $0.note.isNot(nil) }
        #expect(throws: (any Error).self) { try database.write { db in try filtered.execute(db) } }
        #expect(try labels() == ["Groceries"])
    }

    @Test func insertSelectSQL() throws {
        let insert = Pin.insert {
            $0.label
        } select: {
            Values(#sql("'Groceries'"))
        }
        .returning(\.id)
        #expect(try insert.render().sql == #"INSERT INTO "pins" ("label") SELECT 'Groceries' RETURNING "pins"."id""#)
        #expect(try database.write { db in try insert.fetchAll(db) } == [1])
    }

    @Test func isAndIsNotNilWriteNull() throws {
        try database.write { db in
            try Pin.insert { Pin(id: 1, label: "a", note: "x"); Pin(id: 2, label: "b") }.execute(db)
        }
        let noted = Pin.where { $0.note.isNot(nil) }.select(\.id)
        #expect(try noted.render().sql == #"SELECT "pins"."id" FROM "pins" WHERE "pins"."note" IS NOT NULL"#)
        #expect(try noted.render().arguments.isEmpty)
        let bare = Pin.where { $0.note.is(nil) }.select(\.id)
        #expect(try bare.render().sql == #"SELECT "pins"."id" FROM "pins" WHERE "pins"."note" IS NULL"#)
        #expect(try database.read { db in try noted.fetchAll(db) } == [1])
        #expect(try database.read { db in try bare.fetchAll(db) } == [2])
    }
}
