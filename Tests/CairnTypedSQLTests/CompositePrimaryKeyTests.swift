import Cairn
import Foundation
import Testing

/// A table whose primary key is a column group named `id`: a composite key. Not private: a
/// macro-generated member of the nested `ID` cannot be more visible than its enclosing type.
@Table
struct Enrollment: Equatable {
    @Selection
    struct ID: Hashable {
        let courseID: Int
        let studentID: Int
    }

    let id: ID
    var grade: String?
}

@Selection
private struct MembershipKey: Hashable {
    var teamID: Int
    var userID: String
}

/// A group under another name, made the key by `@Column(primaryKey: true)`; its columns have
/// defaults, so a draft without a key takes them.
@Table("memberships")
private struct Membership: Equatable {
    @Column(primaryKey: true) let key: MembershipKey
    var role = ""
}

@Selection
private struct Availability: Equatable {
    var isOutOfStock = false
    var isOnBackOrder = false
}

@Table("items")
private struct Item: Equatable {
    let id: Int
    var title = ""
    var status = Availability()
}

/// A composite primary key, as StructuredQueries declares one: `find`, `update(row)`,
/// `delete(row)`, `upsert` and `insert` compare and write the key's columns together.
@Suite("Typed SQL: a column group as the primary key")
struct CompositePrimaryKeyTests {
    let db: Database
    private let byKey = #"("enrollments"."courseID", "enrollments"."studentID") = (?, ?)"#

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: """
            CREATE TABLE "enrollments" (
              "courseID" INTEGER NOT NULL, "studentID" INTEGER NOT NULL, "grade" TEXT,
              PRIMARY KEY ("courseID", "studentID")
            );
            CREATE TABLE "memberships" (
              "teamID" INTEGER NOT NULL ON CONFLICT REPLACE DEFAULT 1,
              "userID" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT 'guest',
              "role" TEXT NOT NULL DEFAULT '',
              PRIMARY KEY ("teamID", "userID")
            );
            CREATE TABLE "items" (
              "id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '',
              "isOutOfStock" INTEGER NOT NULL DEFAULT 0, "isOnBackOrder" INTEGER NOT NULL DEFAULT 0
            );
            """)
        try Enrollment.insert {
            Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729), grade: "B")
            Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1), grade: nil)
            Enrollment(id: Enrollment.ID(courseID: 7, studentID: 1729), grade: "A")
        }.execute(db)
    }

    private func all() throws -> [Enrollment] {
        try Enrollment.order { $0.id.courseID }.order { $0.id.studentID }.fetchAll(db)
    }

    @Test func theKeyIsTheGroup() {
        #expect(Enrollment.columns.primaryKey._writtenNames == ["courseID", "studentID"])
        #expect(Membership.columns.primaryKey._writtenNames == ["teamID", "userID"])
        #expect(Enrollment(id: Enrollment.ID(courseID: 1, studentID: 2)).primaryKey == Enrollment.ID(courseID: 1, studentID: 2))
    }

    @Test func findComparesTheKeyAsARowValue() throws {
        let find = Enrollment.find(Enrollment.ID(courseID: 42, studentID: 1729))
        try assertQuery(
            find,
            sql: #"SELECT "enrollments"."courseID", "enrollments"."studentID", "enrollments"."grade" FROM "enrollments" WHERE "#
                + byKey,
            arguments: [.integer(42), .integer(1729)],
            rows: { try find.fetchAll(db) },
            [Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729), grade: "B")])
        #expect(try Enrollment.find(Enrollment.ID(courseID: 1, studentID: 1)).fetchOne(db) == nil)
        let filtered = Enrollment.where { $0.grade.isNot(nil) }.find(Enrollment.ID(courseID: 42, studentID: 1))
        let filteredSQL = try filtered.render().sql
        #expect(filteredSQL == #"SELECT "enrollments"."courseID", "enrollments"."studentID", "enrollments"."grade" FROM "enrollments" WHERE "enrollments"."grade" IS NOT NULL AND "# + byKey)
        #expect(try filtered.fetchAll(db).isEmpty)
    }

    @Test func findOfSeveralKeysIsARowValueIn() throws {
        let find = Enrollment.find([Enrollment.ID(courseID: 7, studentID: 1729), Enrollment.ID(courseID: 42, studentID: 1)])
        try assertQuery(
            find.order { $0.id.courseID },
            sql: #"SELECT "enrollments"."courseID", "enrollments"."studentID", "enrollments"."grade" FROM "enrollments" "#
                + #"WHERE ("enrollments"."courseID", "enrollments"."studentID") IN ((?, ?), (?, ?)) "#
                + #"ORDER BY "enrollments"."courseID" ASC"#,
            arguments: [.integer(7), .integer(1729), .integer(42), .integer(1)],
            rows: { try find.order { $0.id.courseID }.fetchAll(db) },
            [Enrollment(id: Enrollment.ID(courseID: 7, studentID: 1729), grade: "A"),
             Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1), grade: nil)])
    }

    @Test func updateOfARowSetsTheOtherColumnsWhereTheKeyMatches() throws {
        let update = Enrollment.update(Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1), grade: "C"))
        try assertQuery(
            update, sql: #"UPDATE "enrollments" SET "grade" = ? WHERE "# + byKey,
            arguments: [.text("C"), .integer(42), .integer(1)],
            rows: { try update.execute(db); return try all() },
            [Enrollment(id: Enrollment.ID(courseID: 7, studentID: 1729), grade: "A"),
             Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1), grade: "C"),
             Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729), grade: "B")])
    }

    @Test func deleteOfARowDeletesByTheWholeKey() throws {
        let delete = Enrollment.delete(Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729)))
        try assertQuery(
            delete, sql: #"DELETE FROM "enrollments" WHERE "# + byKey,
            arguments: [.integer(42), .integer(1729)],
            rows: { try delete.execute(db); return try all().map(\.id) },
            [Enrollment.ID(courseID: 7, studentID: 1729), Enrollment.ID(courseID: 42, studentID: 1)])
    }

    @Test func upsertTargetsEveryColumnOfTheKey() throws {
        let upsert = Enrollment.upsert {
            Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729), grade: "A")
            Enrollment(id: Enrollment.ID(courseID: 9, studentID: 9), grade: "F")
        }
        try assertQuery(
            upsert,
            sql: #"INSERT INTO "enrollments" ("courseID", "studentID", "grade") VALUES (?, ?, ?), (?, ?, ?) "#
                + #"ON CONFLICT ("courseID", "studentID") DO UPDATE SET "grade" = "excluded"."grade""#,
            rows: { try upsert.execute(db); return try all().map(\.grade) },
            ["A", "F", nil, "A"])
        let named = Enrollment.insert {
            Enrollment(id: Enrollment.ID(courseID: 7, studentID: 1729), grade: "B")
        } onConflict: { $0.id } doUpdate: { $0.grade = $1.grade }
        #expect(try named.render().sql.hasSuffix(
            #"ON CONFLICT ("courseID", "studentID") DO UPDATE SET "grade" = "excluded"."grade""#))
        try named.execute(db)
        #expect(try Enrollment.find(Enrollment.ID(courseID: 7, studentID: 1729)).fetchOne(db)?.grade == "B")
    }

    @Test func aDraftWithoutItsKeyLeavesTheKeysColumnsToTheDatabase() throws {
        let insert = Membership.insert { Membership.Draft(role: "admin") }
        try assertQuery(
            insert, sql: #"INSERT INTO "memberships" ("teamID", "userID", "role") VALUES (?, ?, ?)"#,
            arguments: [.null, .null, .text("admin")],
            rows: { try insert.execute(db); return try Membership.fetchAll(db) },
            [Membership(key: MembershipKey(teamID: 1, userID: "guest"), role: "admin")])
        let keyed = Membership.Draft(key: MembershipKey(teamID: 2, userID: "blob"), role: "owner")
        try Membership.upsert { keyed }.execute(db)
        #expect(try Membership.find(MembershipKey(teamID: 2, userID: "blob")).fetchOne(db)?.role == "owner")
    }

    @Test func theKeyIsAGroupInQueries() throws {
        let query = Enrollment.where { $0.primaryKey.gt(Enrollment.ID(courseID: 42, studentID: 1)) }.select(\.id)
        try assertQuery(
            query,
            sql: #"SELECT "enrollments"."courseID", "enrollments"."studentID" FROM "enrollments" "#
                + #"WHERE ("enrollments"."courseID", "enrollments"."studentID") > (?, ?)"#,
            rows: { try query.fetchAll(db) },
            [Enrollment.ID(courseID: 42, studentID: 1729)])
    }

    @Test func findThrowsNotFoundWhenNoRowHasTheKey() throws {
        let found = try Enrollment.find(db, key: Enrollment.ID(courseID: 7, studentID: 1729))
        #expect(found.grade == "A")
        #expect(throws: NotFound.self) { try Enrollment.find(db, key: Enrollment.ID(courseID: 7, studentID: 7)) }
        #expect(throws: NotFound.self) {
            try Enrollment.where { $0.grade.is(nil) }.find(db, key: Enrollment.ID(courseID: 7, studentID: 1729))
        }
        do {
            _ = try Item.find(db, key: 99)
            Issue.record("no item 99, yet find returned one")
        } catch let error as NotFound {
            #expect(error.tableName == "items")
            #expect("\(error)".contains(#"no row of "items""#))
        }
    }

    @Test func aGroupNamedBesideOtherColumnsInsertsItsColumnsInPlace() throws {
        let insert = Item.insert { ($0.status, $0.title) } values: {
            (Availability(isOutOfStock: true), "Phone")
            (Availability(isOnBackOrder: true), "Case")
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "items" ("isOutOfStock", "isOnBackOrder", "title") VALUES (?, ?, ?), (?, ?, ?)"#,
            arguments: [.integer(1), .integer(0), .text("Phone"), .integer(0), .integer(1), .text("Case")],
            rows: { try insert.execute(db); return try Item.order(by: \.id).fetchAll(db) },
            [Item(id: 1, title: "Phone", status: Availability(isOutOfStock: true)),
             Item(id: 2, title: "Case", status: Availability(isOnBackOrder: true))])
        let keyed = Enrollment.insert { ($0.grade, $0.id) } values: { ("D", Enrollment.ID(courseID: 3, studentID: 4)) }
        #expect(try keyed.render().sql == #"INSERT INTO "enrollments" ("grade", "courseID", "studentID") VALUES (?, ?, ?)"#)
        try keyed.execute(db)
        #expect(try Enrollment.find(db, key: Enrollment.ID(courseID: 3, studentID: 4)).grade == "D")
    }
}
