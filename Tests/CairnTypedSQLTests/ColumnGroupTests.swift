import Cairn
import Foundation
import Testing

/// Two columns many tables share, grouped in one type.
@Selection
private struct Timestamps: Equatable {
    var createdAt: Date
    var updatedAt: Date?
}

@Selection
private struct Availability: Equatable {
    var isOutOfStock = false
    var isOnBackOrder = false
}

/// A result row holding a group.
@Selection
private struct Stamped: Equatable {
    var title: String
    var timestamps: Timestamps
}

/// A value read from one column that has no way to be bound back.
private struct Opaque: QueryRepresentable, Equatable {
    var text: String
    static func decode(from decoder: inout QueryDecoder) throws -> Opaque { Opaque(text: try decoder.decode(String.self)) }
}

/// A result row holding it: selectable, never writable.
@Selection
private struct Labelled: Equatable {
    var label: Opaque
}

@Table("labels")
private struct Label: Equatable {
    let id: Int
    var labelled: Labelled
}

@Table("items")
private struct Item: Equatable {
    let id: Int
    var title = ""
    var status = Availability()
    var timestamps: Timestamps
}

/// A group whose last column the database computes.
@Selection
private struct Stock: Equatable {
    var quantity = 0
    @Column(generated: .virtual) let isEmpty: Bool
}

/// A group whose value may fail to bind (JSON cannot hold NaN).
@Selection
private struct Readings: Equatable {
    @Column(as: [Double].JSONRepresentation.self) var values: [Double]
}

@Table("sensors")
private struct Sensor: Equatable {
    let id: Int
    var readings: Readings
}

/// A group that may be absent: all its columns NULL.
@Table("stockings")
private struct Stocking: Equatable {
    var label = ""
    var availability: Availability?
}

@Table("shelves")
private struct Shelf: Equatable {
    let id: Int
    var stock: Stock
}

@Selection private struct Inner: Equatable { var depth: Int }
@Selection private struct Outer: Equatable { var inner: Inner; var label: String }
@Table("nests") private struct Nest: Equatable {
    let id: Int
    var outer: Outer
}

/// A property whose type is a `@Selection` (or `@Table`) struct is a group of the table's own
/// columns, named as the group's properties, read and written in place.
@Suite("Typed SQL: column groups")
struct ColumnGroupTests {
    let db: Database
    private let monday = Date(timeIntervalSinceReferenceDate: 86_400)
    private let tuesday = Date(timeIntervalSinceReferenceDate: 2 * 86_400)

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: """
            CREATE TABLE "items" (
              "id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '',
              "isOutOfStock" INTEGER NOT NULL DEFAULT 0, "isOnBackOrder" INTEGER NOT NULL DEFAULT 0,
              "createdAt" REAL NOT NULL, "updatedAt" REAL
            );
            CREATE TABLE "shelves" (
              "id" INTEGER PRIMARY KEY, "quantity" INTEGER NOT NULL,
              "isEmpty" INTEGER GENERATED ALWAYS AS ("quantity" = 0) VIRTUAL
            );
            CREATE TABLE "nests" ("id" INTEGER PRIMARY KEY, "depth" INTEGER NOT NULL, "label" TEXT NOT NULL);
            """)
    }

    private func seed() throws {
        try Item.insert {
            Item(id: 1, title: "Phone", status: Availability(isOutOfStock: true), timestamps: Timestamps(createdAt: monday))
        }.execute(db)
        try Item.insert { Item.Draft(title: "Case", timestamps: Timestamps(createdAt: tuesday, updatedAt: tuesday)) }.execute(db)
    }

    @Test func rowsAndDraftsInsertTheGroupsColumnsInPlace() throws {
        let row = Item.insert {
            Item(id: 1, title: "Phone", status: Availability(isOutOfStock: true), timestamps: Timestamps(createdAt: monday))
        }
        let draft = Item.insert { Item.Draft(title: "Case", timestamps: Timestamps(createdAt: tuesday, updatedAt: tuesday)) }
        let columns = #"INSERT INTO "items" ("id", "title", "isOutOfStock", "isOnBackOrder", "createdAt", "updatedAt") "#
        #expect(try row.render().arguments == [.integer(1), .text("Phone"), .integer(1), .integer(0), .text("2001-01-02 00:00:00.000"), .null])
        try assertQuery(
            draft, sql: columns + "VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [.null, .text("Case"), .integer(0), .integer(0), .text("2001-01-03 00:00:00.000"), .text("2001-01-03 00:00:00.000")],
            rows: { try row.execute(db); try draft.execute(db); return try Item.order(by: \.id).fetchAll(db) },
            [Item(id: 1, title: "Phone", status: Availability(isOutOfStock: true), timestamps: Timestamps(createdAt: monday)),
             Item(id: 2, title: "Case", timestamps: Timestamps(createdAt: tuesday, updatedAt: tuesday))])
    }

    @Test func theTableSelectsEveryColumnOfItsGroups() throws {
        try seed()
        try assertQuery(
            Item.all,
            sql: #"SELECT "items"."id", "items"."title", "items"."isOutOfStock", "items"."isOnBackOrder", "#
                + #""items"."createdAt", "items"."updatedAt" FROM "items""#,
            rows: { try Item.all.fetchAll(db).map(\.title) }, ["Phone", "Case"])
    }

    @Test func aGroupsColumnsFilterSortAndSelect() throws {
        try seed()
        let query = Item
            .where { $0.timestamps.updatedAt.isNot(nil) || $0.status.isOutOfStock }
            .order { $0.timestamps.createdAt.desc() }
            .select { ($0.title, $0.timestamps.createdAt) }
        try assertQuery(
            query,
            sql: #"SELECT "items"."title", "items"."createdAt" FROM "items" "#
                + #"WHERE "items"."updatedAt" IS NOT NULL OR "items"."isOutOfStock" ORDER BY "items"."createdAt" DESC"#,
            rows: { try query.fetchAll(db).map { "\($0.0) \($0.1.timeIntervalSinceReferenceDate)" } },
            ["Case 172800.0", "Phone 86400.0"])
    }

    @Test func aWholeGroupSelectsAsItsType() throws {
        try seed()
        let byKeyPath = Item.order(by: \.id).select(\.timestamps)
        try assertQuery(
            byKeyPath,
            sql: #"SELECT "items"."createdAt", "items"."updatedAt" FROM "items" ORDER BY "items"."id" ASC"#,
            rows: { try byKeyPath.fetchAll(db) },
            [Timestamps(createdAt: monday), Timestamps(createdAt: tuesday, updatedAt: tuesday)])
        let beside = try Item.order(by: \.id).select { ($0.title, $0.status) }.fetchAll(db)
        #expect(beside.map(\.0) == ["Phone", "Case"])
        #expect(beside.map(\.1) == [Availability(isOutOfStock: true), Availability()])
    }

    @Test func aGroupComparesWithAValueAsARowValue() throws {
        try seed()
        let inStock = Item.where { $0.status.eq(Availability()) }.select(\.title)
        try assertQuery(
            inStock,
            sql: #"SELECT "items"."title" FROM "items" WHERE ("items"."isOutOfStock", "items"."isOnBackOrder") = (?, ?)"#,
            arguments: [.integer(0), .integer(0)], rows: { try inStock.fetchAll(db) }, ["Case"])
        let before = try Item.where { $0.timestamps.lt(Timestamps(createdAt: tuesday)) }.select(\.title).fetchAll(db)
        #expect(before == ["Phone"])
        let other = try Item.where { $0.timestamps.isNot(Timestamps(createdAt: monday)) }.select(\.title).fetchAll(db)
        #expect(other == ["Case"])
    }

    @Test func updatesAssignAGroupsColumns() throws {
        try seed()
        let update = Item.find(2).update { $0.status.isOnBackOrder = true; $0.timestamps.updatedAt = Optional(tuesday) }
        try assertQuery(
            update,
            sql: #"UPDATE "items" SET "isOnBackOrder" = ?, "updatedAt" = ? WHERE "items"."id" = ?"#,
            rows: { try update.execute(db); return try Item.find(2).select(\.status).fetchAll(db) },
            [Availability(isOnBackOrder: true)])

        var phone = try #require(try Item.find(1).fetchOne(db))
        phone.timestamps.updatedAt = tuesday
        try Item.update(phone).execute(db)
        #expect(try Item.find(1).fetchOne(db) == phone)
    }

    @Test func aWholeGroupIsAssignedFromAValue() throws {
        try seed()
        let update = Item.find(2).update { $0.status = Availability(isOutOfStock: true, isOnBackOrder: true) }
        try assertQuery(
            update,
            sql: #"UPDATE "items" SET "isOutOfStock" = ?, "isOnBackOrder" = ? WHERE "items"."id" = ?"#,
            arguments: [.integer(1), .integer(1), .integer(2)],
            rows: { try update.execute(db); return try Item.find(2).select(\.status).fetchAll(db) },
            [Availability(isOutOfStock: true, isOnBackOrder: true)])
        // A generated column of the group is left to the database.
        try Shelf.insert { Shelf.Draft(stock: Stock(quantity: 2, isEmpty: false)) }.execute(db)
        let empty = Shelf.find(1).update { $0.stock = Stock(quantity: 0, isEmpty: false) }
        #expect(try empty.render().sql == #"UPDATE "shelves" SET "quantity" = ? WHERE "shelves"."id" = ?"#)
        try empty.execute(db)
        #expect(try Shelf.find(1).select(\.stock.isEmpty).fetchOne(db) == true)
    }

    @Test func aGroupValueThatCannotBeBoundFailsTheStatement() throws {
        try db.execute(sql: #"CREATE TABLE "sensors" ("id" INTEGER PRIMARY KEY, "values" TEXT NOT NULL)"#)
        try Sensor.insert { Sensor(id: 1, readings: Readings(values: [1.5])) }.execute(db)
        let update = Sensor.find(1).update { $0.readings = Readings(values: [.nan]) }
        let error = #expect(throws: TypedSQLError.self) { try update.execute(db) }
        #expect(error?.message.contains("cannot update sensors: readings") == true)
        #expect(try Sensor.find(1).fetchOne(db)?.readings == Readings(values: [1.5]))
        #expect(throws: TypedSQLError.self) { try Sensor.insert { Sensor(id: 2, readings: Readings(values: [.nan])) }.execute(db) }
    }

    @Test func upsertsWriteAndReadTheExcludedGroup() throws {
        try seed()
        let upsert = Item.upsert { Item.Draft(id: 1, title: "Phone", timestamps: Timestamps(createdAt: tuesday)) }
        try assertQuery(
            upsert,
            sql: #"INSERT INTO "items" ("id", "title", "isOutOfStock", "isOnBackOrder", "createdAt", "updatedAt") "#
                + #"VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "title" = "excluded"."title", "#
                + #""isOutOfStock" = "excluded"."isOutOfStock", "isOnBackOrder" = "excluded"."isOnBackOrder", "#
                + #""createdAt" = "excluded"."createdAt", "updatedAt" = "excluded"."updatedAt""#,
            rows: { try upsert.execute(db); return try Item.find(1).select(\.timestamps).fetchAll(db) },
            [Timestamps(createdAt: tuesday)])

        let touch = Item.insert {
            Item(id: 2, title: "Case", timestamps: Timestamps(createdAt: monday, updatedAt: monday))
        } onConflict: { $0.id } doUpdate: { $0.timestamps.updatedAt = $1.timestamps.updatedAt }
        try assertQuery(
            touch,
            sql: #"INSERT INTO "items" ("id", "title", "isOutOfStock", "isOnBackOrder", "createdAt", "updatedAt") "#
                + #"VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "updatedAt" = "excluded"."updatedAt""#,
            rows: { try touch.execute(db); return try Item.find(2).select(\.timestamps).fetchAll(db) },
            [Timestamps(createdAt: tuesday, updatedAt: monday)])
    }

    @Test func aTouchTriggerSetsAColumnOfAGroup() throws {
        try seed()
        let trigger = Item.createTemporaryTrigger("touch", after: .update(touch: \.timestamps.updatedAt))
        #expect(try trigger.render().sql.contains(#"UPDATE "items" SET "updatedAt" = "#))
        try trigger.execute(db)
        try Item.find(1).update { $0.title = "Phone 2" }.execute(db)
        let stamps = try #require(try Item.find(1).select(\.timestamps).fetchOne(db))
        #expect(try #require(stamps.updatedAt) > Date(timeIntervalSinceNow: -60))
    }

    @Test func deletingARowFindsItsKeyPastTheGroups() throws {
        try seed()
        let phone = try #require(try Item.find(1).fetchOne(db))
        try Item.delete(phone).execute(db)
        #expect(try Item.select(\.id).fetchAll(db) == [2])
    }

    @Test func aNamedGroupInsertsItsColumns() throws {
        try db.execute(sql: #"CREATE TABLE "stockings" ("label" TEXT NOT NULL DEFAULT '', "isOutOfStock" INTEGER, "isOnBackOrder" INTEGER)"#)
        let insert = Stocking.insert { $0.availability } values: {
            Availability(isOutOfStock: true)
            Optional<Availability>.none
        }
        try assertQuery(
            insert, sql: #"INSERT INTO "stockings" ("isOutOfStock", "isOnBackOrder") VALUES (?, ?), (?, ?)"#,
            arguments: [.integer(1), .integer(0), .null, .null],
            rows: { try insert.execute(db); return try Stocking.select(\.availability).fetchAll(db) },
            [Availability(isOutOfStock: true), nil])
        let one = Item.insert { $0.status.isOutOfStock } values: { true }
        #expect(try one.render().sql == #"INSERT INTO "items" ("isOutOfStock") VALUES (?)"#)
    }

    @Test func aGeneratedColumnInAGroupIsReadAndNeverWritten() throws {
        let insert = Shelf.insert { Shelf.Draft(stock: Stock(quantity: 0, isEmpty: false)) }
        try assertQuery(
            insert, sql: #"INSERT INTO "shelves" ("id", "quantity") VALUES (?, ?)"#, arguments: [.null, .integer(0)],
            rows: { try insert.execute(db); return try Shelf.where(\.stock.isEmpty).fetchAll(db) },
            [Shelf(id: 1, stock: Stock(quantity: 0, isEmpty: true))])
    }

    @Test func anOptionalGroupIsNilWhenItsColumnsAreNull() throws {
        try db.execute(sql: #"CREATE TABLE "stockings" ("label" TEXT NOT NULL, "isOutOfStock" INTEGER, "isOnBackOrder" INTEGER)"#)
        let insert = Stocking.insert {
            Stocking(label: "none", availability: nil)
            Stocking(label: "some", availability: Availability(isOnBackOrder: true))
        }
        try assertQuery(
            insert, sql: #"INSERT INTO "stockings" ("label", "isOutOfStock", "isOnBackOrder") VALUES (?, ?, ?), (?, ?, ?)"#,
            arguments: [.text("none"), .null, .null, .text("some"), .integer(0), .integer(1)],
            rows: { try insert.execute(db); return try Stocking.order(by: \.label).fetchAll(db) },
            [Stocking(label: "none"), Stocking(label: "some", availability: Availability(isOnBackOrder: true))])
        let backOrdered = Stocking.where { $0.availability.isOnBackOrder.is(true) }.select(\.label)
        try assertQuery(
            backOrdered, sql: #"SELECT "stockings"."label" FROM "stockings" WHERE "stockings"."isOnBackOrder" IS ?"#,
            rows: { try backOrdered.fetchAll(db) }, ["some"])
        try Stocking.where { $0.label.eq("some") }.update { $0.availability = nil }.execute(db)
        try Stocking.where { $0.label.eq("none") }.update { $0.availability = Availability(isOutOfStock: true) }.execute(db)
        #expect(try Stocking.order(by: \.label).select(\.availability).fetchAll(db) == [Availability(isOutOfStock: true), nil])
        try Stocking.where { $0.label.eq("none") }.update { $0.availability.isOnBackOrder = Optional(true) }.execute(db)
        #expect(try Stocking.where { $0.label.eq("none") }.select(\.availability).fetchOne(db)
            == Availability(isOutOfStock: true, isOnBackOrder: true))
    }

    @Test func aLeftJoinedGroupIsOptional() throws {
        try seed()
        try Shelf.insert { Shelf(id: 2, stock: Stock(quantity: 1, isEmpty: false)); Shelf(id: 3, stock: Stock(quantity: 1, isEmpty: false)) }.execute(db)
        let query = Shelf.leftJoin(Item.all) { $0.id.eq($1.id) }
            .where { $1.timestamps.updatedAt.isNot(nil) || $1.id.is(nil) }
            .select { ($0.id, $1.timestamps) }
        try assertQuery(
            query,
            sql: #"SELECT "shelves"."id", "items"."createdAt", "items"."updatedAt" FROM "shelves" "#
                + #"LEFT JOIN "items" ON "shelves"."id" = "items"."id" WHERE "items"."updatedAt" IS NOT NULL OR "items"."id" IS NULL"#,
            rows: { try query.fetchAll(db).map { "\($0.0) \($0.1?.createdAt.timeIntervalSinceReferenceDate ?? -1)" } },
            ["2 172800.0", "3 -1.0"])
    }

    @Test func anAliasedTableReachesItsGroups() throws {
        try seed()
        let later = Item.join(Item.as(Sibling.self).all) { $0.timestamps.createdAt.lt($1.timestamps.createdAt) }
            .select { ($0.title, $1.title, $1.timestamps) }
        try assertQuery(
            later,
            sql: #"SELECT "items"."title", "siblings"."title", "siblings"."createdAt", "siblings"."updatedAt" FROM "items" "#
                + #"JOIN "items" AS "siblings" ON "items"."createdAt" < "siblings"."createdAt""#,
            rows: { try later.fetchAll(db).map { "\($0.0) \($0.1) \($0.2 == Timestamps(createdAt: tuesday, updatedAt: tuesday))" } },
            ["Phone Case true"])
    }

    @Test func aSelectionRowTakesAGroupWhole() throws {
        try seed()
        let query = Item.order(by: \.id).select { Stamped.Columns(title: $0.title, timestamps: $0.timestamps) }
        try assertQuery(
            query, sql: #"SELECT "items"."title", "items"."createdAt", "items"."updatedAt" FROM "items" ORDER BY "items"."id" ASC"#,
            rows: { try query.fetchAll(db) },
            [Stamped(title: "Phone", timestamps: Timestamps(createdAt: monday)),
             Stamped(title: "Case", timestamps: Timestamps(createdAt: tuesday, updatedAt: tuesday))])
    }

    @Test func aSelectionHoldingAnUnbindableValueIsReadButNotWritten() throws {
        try db.execute(sql: #"CREATE TABLE "labels" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL)"#)
        try db.execute(sql: #"INSERT INTO "labels" VALUES (1, 'fragile')"#)
        #expect(try Label.fetchAll(db) == [Label(id: 1, labelled: Labelled(label: Opaque(text: "fragile")))])
        let error = #expect(throws: TypedSQLError.self) {
            try Label.insert { Label(id: 2, labelled: Labelled(label: Opaque(text: "x"))) }.execute(db)
        }
        #expect(error?.message.contains("'label' holds a value of type Opaque, which cannot be written as columns") == true)
        #expect(try Label.fetchCount(db) == 1)
    }

    @Test func groupsNest() throws {
        try Nest.insert { Nest(id: 1, outer: Outer(inner: Inner(depth: 3), label: "deep")) }.execute(db)
        let query = Nest.where { $0.outer.inner.depth.gt(2) }.select(\.outer)
        try assertQuery(
            query, sql: #"SELECT "nests"."depth", "nests"."label" FROM "nests" WHERE "nests"."depth" > ?"#,
            rows: { try query.fetchAll(db) }, [Outer(inner: Inner(depth: 3), label: "deep")])
        try Nest.find(1).update { $0.outer.inner.depth = 4 }.execute(db)
        #expect(try Nest.find(1).select(\.outer.inner.depth).fetchAll(db) == [4])
    }
}
