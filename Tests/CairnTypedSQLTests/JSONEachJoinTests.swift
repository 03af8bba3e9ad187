import Cairn
import Foundation
import Testing

@Table("coordinates")
struct TripCoordinate: Codable, Hashable, Sendable {
    var latitude: Double
    var longitude: Double
    var label: String
}

@Table
struct TaggedItem: Identifiable, Hashable, Sendable {
    let id: Int
    var title = ""
    @Column(as: [String].JSONRepresentation.self)
    var tags: [String] = []
}

@Table
struct Trip: Identifiable, Hashable, Sendable {
    let id: Int
    var title = ""
    @Column(as: [TripCoordinate].JSONRepresentation.self)
    var geofence: [TripCoordinate] = []
}

/// Joins over `json_each` and `json_each` under an alias, written as StructuredQueries' own
/// tests write them.
@Suite("Typed SQL: joins over json_each, and json_each under an alias")
struct JSONEachJoinTests {
    let db: Database

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: """
            CREATE TABLE "taggedItems" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "tags" TEXT NOT NULL);
            CREATE TABLE "trips" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "geofence" TEXT NOT NULL);
            """)
        try TaggedItem.insert {
            TaggedItem(id: 1, title: "Groceries", tags: ["home", "urgent", "chores"])
            TaggedItem(id: 2, title: "Taxes", tags: ["work"])
            TaggedItem(id: 3, title: "Nothing", tags: [])
        }.execute(db)
        try Trip.insert {
            Trip(id: 1, title: "Northern", geofence: [
                TripCoordinate(latitude: 40.7, longitude: -74.0, label: "home"),
                TripCoordinate(latitude: 51.5, longitude: -0.1, label: "away"),
            ])
            Trip(id: 2, title: "Empty", geofence: [])
        }.execute(db)
    }

    @Test func eachItemWithEachOfItsTags() throws {
        let tagged = TaggedItem
            .join(TaggedItem.columns.tags.jsonEach()) { _, _ in true }
            .select { ($0.title, $1.key, $1.value) }
        try assertQuery(
            tagged,
            sql: #"""
                SELECT "taggedItems"."title", "json_each"."key", "json_each"."value" FROM "taggedItems" \#
                JOIN json_each("taggedItems"."tags") ON ?
                """#,
            rows: { try tagged.fetchAll(db).map { "\($0.0) \($0.1) \($0.2)" } },
            ["Groceries 0 home", "Groceries 1 urgent", "Groceries 2 chores", "Taxes 0 work"])
    }

    @Test func aLeftJoinKeepsARowWithoutElements() throws {
        let labels = Trip
            .leftJoin(Trip.columns.geofence.jsonEach()) { _, _ in true }
            .select { ($0.title, $1.value.jsonExtract(\.label)) }
        try assertQuery(
            labels,
            sql: #"""
                SELECT "trips"."title", json_extract("json_each"."value", ?) FROM "trips" \#
                LEFT JOIN json_each("trips"."geofence") ON ?
                """#,
            arguments: [.text(#"$."label""#), .integer(1)],
            rows: { try labels.fetchAll(db).map { "\($0.0) \($0.1 ?? "nil")" } },
            ["Northern home", "Northern away", "Empty nil"])
    }

    @Test func theJoinedStatementsConditionAndTheJoinConditionFilterTheRows() throws {
        let urgent = TaggedItem.order(by: \.id)
            .join(TaggedItem.columns.tags.jsonEach().where { $0.value.neq("home") }) { $1.key > 0 }
            .order { $1.key.desc() }
            .select { ($0.id, $1.value) }
        try assertQuery(
            urgent,
            sql: #"""
                SELECT "taggedItems"."id", "json_each"."value" FROM "taggedItems" \#
                JOIN json_each("taggedItems"."tags") ON "json_each"."key" > ? \#
                WHERE "json_each"."value" <> ? ORDER BY "taggedItems"."id" ASC, "json_each"."key" DESC
                """#,
            arguments: [.integer(0), .text("home")],
            rows: { try urgent.fetchAll(db).map { "\($0.0) \($0.1)" } }, ["1 chores", "1 urgent"])
    }

    @Test func aJoinedRowDecodesAsJSONEach() throws {
        let rows = Trip.where { $0.title.eq("Northern") }
            .join(Trip.columns.geofence.jsonEach()) { _, _ in true }
            .select { $1 }
        #expect(try rows.render().sql == #"""
            SELECT "json_each"."key", "json_each"."value" FROM "trips" JOIN json_each("trips"."geofence") ON ? \#
            WHERE "trips"."title" = ?
            """#)
        let decoded = try rows.fetchAll(db)
        #expect(decoded.map(\.key) == [0, 1])
        #expect(decoded.map(\.value.label) == ["home", "away"])
        #expect(decoded.first?.value == TripCoordinate(latitude: 40.7, longitude: -74.0, label: "home"))
    }

    /// StructuredQueries' `aliasedJoins`, as its test writes it.
    @Test func aliasedJoins() throws {
        enum First: AliasName {}
        enum Second: AliasName {}
        let pairs = TaggedItem
            .join(TaggedItem.columns.tags.jsonEach().as(First.self)) { _, _ in true }
            .join(TaggedItem.columns.tags.jsonEach().as(Second.self)) { $1.key < $2.key }
            .select { ($0.title, $1.value, $2.value) }
        try assertQuery(
            pairs,
            sql: #"""
                SELECT "taggedItems"."title", "firsts"."value", "seconds"."value" FROM "taggedItems" \#
                JOIN json_each("taggedItems"."tags") AS "firsts" ON ? \#
                JOIN json_each("taggedItems"."tags") AS "seconds" ON "firsts"."key" < "seconds"."key"
                """#,
            rows: { try pairs.fetchAll(db).map { "\($0.0) \($0.1) \($0.2)" } },
            ["Groceries home urgent", "Groceries home chores", "Groceries urgent chores"])
    }

    /// StructuredQueries' `aliasAfterJoin`: the statement's own table goes by the alias, in the
    /// joined `json_each`'s argument too.
    @Test func aliasAfterJoin() throws {
        enum Outer: AliasName {}
        let labels = Trip
            .join(Trip.columns.geofence.jsonEach()) { _, _ in true }
            .select { ($0.title, $1.value.jsonExtract(\.label)) }
            .as(Outer.self)
        try assertQuery(
            labels,
            sql: #"""
                SELECT "outers"."title", json_extract("json_each"."value", ?) FROM "trips" AS "outers" \#
                JOIN json_each("outers"."geofence") ON ?
                """#,
            rows: { try labels.fetchAll(db).map { "\($0.0) \($0.1)" } }, ["Northern home", "Northern away"])
    }

    /// StructuredQueries' `aliasAfterClauses`: every clause written before the alias goes by it.
    @Test func aliasAfterClauses() throws {
        enum Element: AliasName {}
        try TaggedItem.insert { TaggedItem(id: 4, title: "Twice", tags: ["home", "urgent", "home"]) }.execute(db)
        let twice = TaggedItem
            .where {
                $0.tags.jsonEach()
                    .where { $0.key >= 0 }
                    .group(by: \.value)
                    .having { $0.value.count() > 1 }
                    .order(by: \.value)
                    .limit(1)
                    .offset(0)
                    .as(Element.self)
                    .exists()
            }
            .select(\.title)
        try assertQuery(
            twice,
            sql: #"""
                SELECT "taggedItems"."title" FROM "taggedItems" WHERE EXISTS (SELECT "elements"."key", \#
                "elements"."value" FROM json_each("taggedItems"."tags") AS "elements" WHERE "elements"."key" >= ? \#
                GROUP BY "elements"."value" HAVING COUNT("elements"."value") > ? ORDER BY "elements"."value" ASC \#
                LIMIT ? OFFSET ?)
                """#,
            rows: { try twice.fetchAll(db) }, ["Twice"])
    }

    /// StructuredQueries' `lateAlias`.
    @Test func lateAlias() throws {
        enum Urgent: AliasName {}
        let urgent = TaggedItem
            .where {
                $0.tags.jsonEach().where { $0.value.eq("urgent") }.as(Urgent.self).exists()
            }
            .select(\.title)
        try assertQuery(
            urgent,
            sql: #"""
                SELECT "taggedItems"."title" FROM "taggedItems" WHERE EXISTS (SELECT "urgents"."key", \#
                "urgents"."value" FROM json_each("taggedItems"."tags") AS "urgents" WHERE "urgents"."value" = ?)
                """#,
            arguments: [.text("urgent")],
            rows: { try urgent.fetchAll(db) }, ["Groceries"])
    }

    @Test func anAliasedStatementReadsAsItsOwnRows() throws {
        enum Label: AliasName {}
        let labels = [String].JSONRepresentation(queryOutput: ["b", "a"]).jsonEach().as(Label.self)
            .order(by: \.value).select(\.value)
        try assertQuery(
            labels,
            sql: #"SELECT "labels"."value" FROM json_each(?) AS "labels" ORDER BY "labels"."value" ASC"#,
            rows: { try labels.fetchAll(db) }, ["a", "b"])
    }

    /// `json_each` is SQLite's: PostgreSQL's dialect refuses it by name, joined or aliased.
    @Test func postgreSQLRefusesJSONEachByName() throws {
        enum First: AliasName {}
        let joined = TaggedItem.join(TaggedItem.columns.tags.jsonEach()) { _, _ in true }.select { $1.value }
        let aliased = TaggedItem.join(TaggedItem.columns.tags.jsonEach().as(First.self)) { _, _ in true }
        for statement in [SQLStatement.select(joined.query), .select(aliased.query)] {
            let error = #expect(throws: SQLRenderError.self) { try statement.render(dialect: PostgreSQLDialect()) }
            #expect(error?.unsupportedDialect == "PostgreSQL")
            #expect(error?.description.contains("json_each()") == true)
        }
    }
}
