import Cairn
import Testing

/// A table that hides its soft-deleted rows from every statement begun from it.
@Table
struct Memo: Equatable {
    static let all = Self.where { !$0.isDeleted }

    let id: Int
    var title = ""
    var isDeleted = false
}

@Table
struct MemoTag: Equatable {
    let id: Int
    var memoID = 0
    var name = ""
}

/// A table's own `all` is the default scope of its statements, as in StructuredQueries:
/// selects, counts, lookups, joins, subqueries, updates and deletes see only its rows, and
/// `unscoped` leaves it out.
@Suite("Typed SQL: a table's default scope")
struct DefaultScopeTests {
    let db: Database

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: #"CREATE TABLE "memos" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "isDeleted" INTEGER NOT NULL)"#)
        try db.execute(sql: #"CREATE TABLE "memoTags" ("id" INTEGER PRIMARY KEY, "memoID" INTEGER NOT NULL, "name" TEXT NOT NULL)"#)
        try Memo.insert {
            Memo(id: 1, title: "Groceries")
            Memo(id: 2, title: "Old list", isDeleted: true)
            Memo(id: 3, title: "Taxes")
        }.execute(db)
        try MemoTag.insert {
            MemoTag(id: 1, memoID: 1, name: "home")
            MemoTag(id: 2, memoID: 2, name: "home")
            MemoTag(id: 3, memoID: 3, name: "work")
        }.execute(db)
    }

    @Test func selectsBegunFromTheTableSeeItsScope() throws {
        try assertQuery(
            Memo.select(\.id), sql: #"SELECT "memos"."id" FROM "memos" WHERE NOT "memos"."isDeleted""#,
            rows: { try Memo.select(\.id).fetchAll(db) }, [1, 3])
        // The scope's condition comes first, and once, also on the table's own `all`.
        try assertQuery(
            Memo.where { $0.id.gt(1) }.select(\.id),
            sql: #"SELECT "memos"."id" FROM "memos" WHERE NOT "memos"."isDeleted" AND "memos"."id" > ?"#,
            rows: { try Memo.where { $0.id.gt(1) }.select(\.id).fetchAll(db) }, [3])
        try assertQuery(
            Memo.all.where { $0.id.gt(1) }.select(\.id),
            sql: #"SELECT "memos"."id" FROM "memos" WHERE NOT "memos"."isDeleted" AND "memos"."id" > ?"#,
            rows: { try Memo.all.where { $0.id.gt(1) }.select(\.id).fetchAll(db) }, [3])
        #expect(try Memo.all.fetchAll(db).map(\.id) == [1, 3])
        #expect(try Memo.fetchAll(db).map(\.id) == [1, 3])
        #expect(try Memo.count().fetchOne(db) == 2)
        #expect(try Memo.find(2).fetchOne(db) == nil)
        #expect(try Memo.order(by: \.title).limit(1).fetchOne(db)?.title == "Groceries")
    }

    @Test func unscopedSeesEveryRow() throws {
        try assertQuery(
            Memo.unscoped.select(\.id), sql: #"SELECT "memos"."id" FROM "memos""#,
            rows: { try Memo.unscoped.select(\.id).fetchAll(db) }, [1, 2, 3])
        #expect(try Memo.unscoped.where { $0.isDeleted }.fetchAll(db).map(\.id) == [2])
        #expect(try Memo.unscoped.find(2).fetchOne(db)?.title == "Old list")
    }

    @Test func joinsAndSubqueriesOfAScopedTableSeeItsScope() throws {
        let joined = MemoTag.join(Memo.all) { $0.memoID.eq($1.id) }.select { tag, memo in (tag.id, memo.title) }
        #expect(try joined.fetchAll(db).map { "\($0.0) \($0.1)" } == ["1 Groceries", "3 Taxes"])
        let inScope = MemoTag.where { $0.memoID.in(Memo.select(\.id)) }.select(\.id)
        #expect(try inScope.fetchAll(db) == [1, 3])
        // A table without a scope of its own is unchanged.
        #expect(try MemoTag.all.fetchAll(db).count == 3)
    }

    @Test func updatesAndDeletesTouchOnlyTheScope() throws {
        try assertQuery(
            Memo.update { $0.title += "!" },
            sql: #"UPDATE "memos" SET "title" = "memos"."title" || ? WHERE NOT "memos"."isDeleted""#,
            rows: {
                try Memo.update { $0.title += "!" }.execute(db)
                return try Memo.unscoped.order(by: \.id).select(\.title).fetchAll(db)
            }, ["Groceries!", "Old list", "Taxes!"])
        // Deleting a row by its key leaves a row outside the scope alone.
        let hidden = Memo(id: 2, title: "Old list", isDeleted: true)
        try Memo.delete(hidden).execute(db)
        #expect(try Memo.unscoped.count().fetchOne(db) == 3)
        try assertQuery(
            Memo.where { $0.id.eq(1) }.delete(),
            sql: #"DELETE FROM "memos" WHERE NOT "memos"."isDeleted" AND "memos"."id" = ?"#,
            rows: {
                try Memo.where { $0.id.eq(1) }.delete().execute(db)
                return try Memo.unscoped.order(by: \.id).select(\.id).fetchAll(db)
            }, [2, 3])
        try assertQuery(
            Memo.unscoped.where { $0.isDeleted }.delete(), sql: #"DELETE FROM "memos" WHERE "memos"."isDeleted""#,
            rows: {
                try Memo.unscoped.where { $0.isDeleted }.delete().execute(db)
                return try Memo.unscoped.select(\.id).fetchAll(db)
            }, [3])
        try Memo.delete().execute(db)
        #expect(try Memo.unscoped.count().fetchOne(db) == 0)
    }
}
