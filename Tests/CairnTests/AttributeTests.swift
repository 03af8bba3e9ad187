import Cairn
import Testing

@Suite("Attribute types and constraints")
struct AttributeTests {
    @Test("every attribute type round-trips through save and reopen")
    func roundTrip() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let original = Sample()
        do {
            let context = ModelContext(try store.container(for: Sample.self))
            context.insert(original)
            try context.save()
        }
        let context = ModelContext(try store.container(for: Sample.self))
        let fetched = try #require(try context.fetch(FetchDescriptor<Sample>()).first)
        #expect(fetched !== original)
        #expect(fetched.int == original.int)
        #expect(fetched.int8 == original.int8)
        #expect(fetched.int16 == original.int16)
        #expect(fetched.int32 == original.int32)
        #expect(fetched.int64 == original.int64)
        #expect(fetched.uint == original.uint)
        #expect(fetched.uint8 == original.uint8)
        #expect(fetched.uint16 == original.uint16)
        #expect(fetched.uint32 == original.uint32)
        #expect(fetched.uint64 == original.uint64)
        #expect(fetched.double == original.double)
        #expect(fetched.float == original.float)
        #expect(fetched.bool == original.bool)
        #expect(fetched.string == original.string)
        #expect(fetched.date == original.date)
        #expect(fetched.data == original.data)
        #expect(fetched.uuid == original.uuid)
        #expect(fetched.url == original.url)
        #expect(fetched.decimal == original.decimal)
        #expect(fetched.mood == original.mood)
        #expect(fetched.level == original.level)
        #expect(fetched.location == original.location)
        #expect(fetched.shape == original.shape)
        #expect(fetched.tags == original.tags)
        #expect(fetched.dates == original.dates)
        #expect(fetched.moods == original.moods)
        #expect(fetched.scores == original.scores)
        #expect(fetched.optionalInt == nil)
        #expect(fetched.optionalString == nil)
        #expect(fetched.optionalDate == nil)
        #expect(fetched.optionalLocation == original.optionalLocation)
        #expect(fetched.optionalMood == .calm)
        #expect(fetched.optionalTags == nil)
    }

    @Test("values are stored as documented, readable with sqlite3")
    func storedRepresentation() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let context = ModelContext(try store.container(for: Sample.self))
        context.insert(Sample())
        try context.save()
        let database = try Database(path: store.url.path)
        defer { try? database.close() }
        let columns = ["bool", "date", "uuid", "url", "decimal", "mood", "level", "location", "tags", "optionalInt", "data"]
        let sql = "SELECT " + columns.map { "\"\($0)\"" }.joined(separator: ", ") + " FROM \"Sample\""
        let row = try database.fetchAll(sql: sql) { row in columns.indices.map { row.databaseValue(at: $0) } }.first
        #expect(row == [
            .integer(1),
            .real(123_456.789),
            .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"),
            .text("https://example.com/a?b=c"),
            .text("12345.678901234567890123"),
            .text("tense"),
            .integer(2),
            .text(#"{"latitude":48.85,"longitude":2.35}"#),
            .text(#"["a","b"]"#),
            .null,
            .blob(Data([0, 1, 2, 255])),
        ])
    }

    /// SQLite stores a whole-number value of a REAL column as an integer, which has no sign, so
    /// `-0.0` comes back as `0.0`, as it does from a Core Data store (whose Double columns are
    /// REAL too). The two are equal in Swift, so predicates and sorts treat them alike.
    @Test("-0.0 reads back as 0.0, equal to it, as SQLite stores REAL columns")
    func negativeZero() throws {
        let context = ModelContext(try memoryContainer(for: Workout.self))
        context.insert(Workout(title: "zero", startedAt: .now, minutes: 0, calories: -0.0))
        try context.save()
        let fresh = ModelContext(context.container)
        let calories = try #require(try fresh.fetch(FetchDescriptor<Workout>()).first?.calories)
        #expect(calories == -0.0)
        #expect(calories.sign == .plus)
        #expect(try fresh.fetchCount(FetchDescriptor<Workout>(predicate: #Predicate { $0.calories == -0.0 })) == 1)
    }

    @Test("each Swift type gets its column type", arguments: [
        ("int", "INTEGER"), ("uint64", "INTEGER"), ("double", "REAL"), ("float", "REAL"), ("bool", "INTEGER"),
        ("string", "TEXT"), ("date", "REAL"), ("data", "BLOB"), ("uuid", "TEXT"), ("url", "TEXT"),
        ("decimal", "TEXT"), ("mood", "TEXT"), ("level", "INTEGER"), ("location", "TEXT"), ("tags", "TEXT"),
        ("optionalInt", "INTEGER"),
    ])
    func columnTypes(name: String, type: String) throws {
        let attribute = try #require(Schema.Entity.of(Sample.self).attributesByName[name])
        #expect(attribute.columnType == type)
        #expect(attribute.isOptional == name.hasPrefix("optional"))
    }

    @Test("a UInt64 above Int64.max is a save error naming the property, not a crash")
    func uint64Overflow() throws {
        let context = ModelContext(try memoryContainer(for: Sample.self))
        let sample = Sample()
        sample.uint64 = .max
        context.insert(sample)
        let error = try #require(throws: ModelError.self) { try context.save() }
        #expect(error.kind == .valueEncodingFailed)
        #expect(error.entityName == "Sample")
        #expect(error.propertyName == "uint64")
        #expect(error.column == #""Sample"."uint64""#)
    }

    @Test("inserting a model whose .unique value exists updates that row (upsert)")
    func uniqueUpsert() throws {
        let container = try memoryContainer(for: Account.self)
        let context = ModelContext(container)
        let first = Account(email: "a@example.com", handle: "ann", name: "Ann")
        context.insert(first)
        try context.save()
        let second = Account(email: "a@example.com", handle: "annie", name: "Annie")
        context.insert(second)
        try context.save()
        #expect(second.persistentModelID == first.persistentModelID, "the insert took the existing row")
        #expect(first.name == "Annie", "the registered instance sees the new values")
        let rows = try ModelContext(container).fetch(FetchDescriptor<Account>())
        #expect(rows.count == 1)
        #expect(rows.map(\.name) == ["Annie"])
        #expect(rows.map(\.handle) == ["annie"])
    }

    @Test("a save that breaks a constraint throws naming entity, property, column and value, and writes nothing")
    func constraintViolation() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let container = try store.container(for: Account.self)
        let context = ModelContext(container)
        context.insert(Account(email: "a@example.com", handle: "ann", name: "Ann"))
        try context.save()
        let before = store.contents()

        let fine = Account(email: "b@example.com", handle: "bob", name: "Bob")
        let clash = Account(email: "c@example.com", handle: "ann", name: "Other Ann")
        context.insert(fine)
        context.insert(clash)
        let error = try #require(throws: ModelError.self) { try context.save() }
        #expect(error.kind == .constraintViolation)
        #expect(error.entityName == "Account")
        #expect(error.propertyName == "handle")
        #expect(error.column == #""Account"."handle""#)
        #expect(error.value == "'ann'")
        #expect(error.description.contains("UNIQUE constraint failed"))
        #expect(SwiftDataError.modelValidationFailure ~= error)

        #expect(store.contents() == before, "nothing of the failed save is on disk")
        #expect(try ModelContext(container).fetch(FetchDescriptor<Account>()).map(\.handle) == ["ann"])
        #expect(context.hasChanges, "the context keeps the unsaved changes")
        #expect(fine.persistentModelID.isTemporary)
    }

    @Test("#Unique, .unique and #Index create real indexes")
    func indexes() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        _ = try store.container(for: Account.self)
        let database = try Database(path: store.url.path)
        defer { try? database.close() }
        let indexes = try database.fetchAll(
            sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Account' ORDER BY name"
        ) { $0.databaseValue(at: 0) }
        #expect(indexes == [
            .text(#"CREATE UNIQUE INDEX "Account_email_unique" ON "Account" ("email")"#),
            .text(#"CREATE UNIQUE INDEX "Account_handle_unique" ON "Account" ("handle")"#),
            .text(#"CREATE INDEX "Account_name" ON "Account" ("name")"#),
            .text(#"CREATE INDEX "Account_name_handle" ON "Account" ("name", "handle")"#),
        ])
    }
}

@Suite("A model with its own id")
struct OwnIDTests {
    @Test("its id is the Identifiable id, stored in column \"id\", with the primary key in \"rowid\"")
    func ownID() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let uuid = UUID()
        do {
            let context = ModelContext(try store.container(for: Bookmark.self))
            let bookmark = Bookmark(id: uuid, title: "Cairn")
            #expect(bookmark.id == uuid)
            context.insert(bookmark)
            try context.save()
            #expect(bookmark.persistentModelID.primaryKey == 1)
        }
        let context = ModelContext(try store.container(for: Bookmark.self))
        #expect(try context.fetch(FetchDescriptor<Bookmark>()).map(\.id) == [uuid])
        let database = try Database(path: store.url.path)
        defer { try? database.close() }
        let sql = try database.fetchAll(sql: "SELECT sql FROM sqlite_master WHERE name = 'Bookmark'") { $0.databaseValue(at: 0) }
        #expect(sql == [.text(#"CREATE TABLE "Bookmark" ("rowid" INTEGER PRIMARY KEY, "id" TEXT NOT NULL, "title" TEXT NOT NULL)"#)])
    }
}
