import Cairn
import Foundation
import Testing

/// `Enrollment`'s column-group primary key on a PostgreSQL server: `find`, `update(row)`,
/// `delete(row)` and `upsert` compare and write both key columns, as on SQLite
/// (`CompositePrimaryKeyTests`), with `$n` placeholders.
@Suite("Typed SQL on PostgreSQL: a column group as the primary key",
       .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipMessage))
struct PostgresCompositePrimaryKeyTests {
    static let schema = """
        CREATE TABLE "enrollments" (
          "courseID" BIGINT NOT NULL, "studentID" BIGINT NOT NULL, "grade" TEXT,
          PRIMARY KEY ("courseID", "studentID")
        )
        """
    static let byKey = #"("enrollments"."courseID", "enrollments"."studentID") = ($1, $2)"#

    /// Runs `body` in a write on a server schema holding three enrollments.
    static func withEnrollments(_ body: (PostgresConnection) throws -> Void) throws {
        try PostgresTestServer.withDatabase { database in
            try database.write { db in
                try db.execute(sql: schema)
                try Enrollment.insert {
                    Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729), grade: "B")
                    Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1), grade: nil)
                    Enrollment(id: Enrollment.ID(courseID: 7, studentID: 1729), grade: "A")
                }.execute(db)
                try body(db)
            }
        }
    }

    static func all(_ db: PostgresConnection) throws -> [Enrollment] {
        try Enrollment.order { $0.id.courseID }.order { $0.id.studentID }.fetchAll(db)
    }

    @Test func findComparesBothKeyColumns() throws {
        try Self.withEnrollments { db in
            let find = Enrollment.find(Enrollment.ID(courseID: 42, studentID: 1729))
            let rendered = try SQLStatement.select(find.query).render(dialect: PostgreSQLDialect())
            #expect(rendered.sql.hasSuffix("WHERE " + Self.byKey))
            #expect(rendered.arguments == [.integer(42), .integer(1729)])
            #expect(try find.fetchAll(db) == [Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729), grade: "B")])
            #expect(try Enrollment.find(Enrollment.ID(courseID: 1729, studentID: 42)).fetchOne(db) == nil)
            #expect(try Enrollment.find(db, key: Enrollment.ID(courseID: 7, studentID: 1729)).grade == "A")
            #expect(throws: NotFound.self) { try Enrollment.find(db, key: Enrollment.ID(courseID: 7, studentID: 7)) }
            let several = Enrollment.find([Enrollment.ID(courseID: 7, studentID: 1729), Enrollment.ID(courseID: 42, studentID: 1)])
            #expect(try several.order { $0.id.courseID }.fetchAll(db).map(\.id)
                == [Enrollment.ID(courseID: 7, studentID: 1729), Enrollment.ID(courseID: 42, studentID: 1)])
            #expect(try Enrollment.where { $0.primaryKey.gt(Enrollment.ID(courseID: 42, studentID: 1)) }.select(\.id).fetchAll(db)
                == [Enrollment.ID(courseID: 42, studentID: 1729)])
        }
    }

    @Test func updateOfARowChangesOnlyTheRowWithItsKey() throws {
        try Self.withEnrollments { db in
            let update = Enrollment.update(Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1), grade: "C"))
            #expect(try update.sqlStatement().render(dialect: PostgreSQLDialect()).sql
                == #"UPDATE "enrollments" SET "grade" = $1 WHERE ("enrollments"."courseID", "enrollments"."studentID") = ($2, $3)"#)
            try update.execute(db)
            #expect(try Self.all(db) == [
                Enrollment(id: Enrollment.ID(courseID: 7, studentID: 1729), grade: "A"),
                Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1), grade: "C"),
                Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729), grade: "B"),
            ])
        }
    }

    @Test func deleteOfARowDeletesOnlyTheRowWithItsKey() throws {
        try Self.withEnrollments { db in
            let delete = Enrollment.delete(Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729)))
            #expect(try delete.sqlStatement().render(dialect: PostgreSQLDialect()).sql == #"DELETE FROM "enrollments" WHERE "# + Self.byKey)
            try delete.execute(db)
            #expect(try Self.all(db).map(\.id) == [Enrollment.ID(courseID: 7, studentID: 1729), Enrollment.ID(courseID: 42, studentID: 1)])
        }
    }

    @Test func upsertUpdatesTheRowWithTheSameKeyAndInsertsTheRest() throws {
        try Self.withEnrollments { db in
            let upsert = Enrollment.upsert {
                Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729), grade: "A")
                Enrollment(id: Enrollment.ID(courseID: 9, studentID: 9), grade: "F")
            }
            #expect(try upsert.sqlStatement().render(dialect: PostgreSQLDialect()).sql
                == #"INSERT INTO "enrollments" ("courseID", "studentID", "grade") VALUES ($1, $2, $3), ($4, $5, $6) "#
                + #"ON CONFLICT ("courseID", "studentID") DO UPDATE SET "grade" = "excluded"."grade""#)
            try upsert.execute(db)
            #expect(try Self.all(db).map(\.grade) == ["A", "F", nil, "A"])
            try Enrollment.insert {
                Enrollment(id: Enrollment.ID(courseID: 7, studentID: 1729), grade: "B")
            } onConflict: { $0.id } doUpdate: { $0.grade = $1.grade }.execute(db)
            #expect(try Enrollment.find(db, key: Enrollment.ID(courseID: 7, studentID: 1729)).grade == "B")
            let returned = try Enrollment.upsert { Enrollment(id: Enrollment.ID(courseID: 9, studentID: 9), grade: "E") }
                .returning(\.self).fetchAll(db)
            #expect(returned == [Enrollment(id: Enrollment.ID(courseID: 9, studentID: 9), grade: "E")])
            #expect(try Enrollment.fetchCount(db) == 4)
        }
    }
}
