import Cairn
import Foundation
import Testing

@Model final class UUIDTicket {
    var token: UUID
    var owner: UUID?
    var related: [UUID]

    init(token: UUID, owner: UUID? = nil, related: [UUID] = []) {
        self.token = token
        self.owner = owner
        self.related = related
    }
}

/// A `UUID` attribute is stored as its lowercase text, the text StructuredQueries and SQLiteData
/// bind, so a predicate, a typed query and raw SQL all compare with what is stored; a store
/// whose UUIDs are in upper case is rewritten once as it opens.
@Suite("UUID attributes: lowercase text in every comparison")
struct UUIDStorageTests {
    static let tokens = [
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "0B8F4C2A-7D1E-4F3B-9A6C-5E2D1F0A9B8C",
        "F0E1D2C3-B4A5-4968-8776-655443322110", "A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D",
    ].compactMap(UUID.init(uuidString:))

    static func seed(_ context: ModelContext) throws {
        for (index, token) in tokens.enumerated() {
            context.insert(UUIDTicket(
                token: token, owner: index.isMultiple(of: 2) ? token : nil, related: [tokens[(index + 1) % tokens.count]]))
        }
        try context.save()
    }

    @Test("predicates, sorts and typed SQL find what a save stored")
    func comparisonsMatchTheStoredText() throws {
        let container = try memoryContainer(for: UUIDTicket.self)
        let context = ModelContext(container)
        try Self.seed(context)
        let key = Self.tokens[2]

        let stored = try container.read(for: UUIDTicket.self) { db in
            try db.fetchValues(String.self, sql: #"SELECT "token" FROM "UUIDTicket" ORDER BY rowid"#)
        }
        #expect(stored == Self.tokens.map { $0.uuidString.lowercased() })

        #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<UUIDTicket> { $0.token == key })).map(\.token) == [key])
        #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<UUIDTicket> { $0.owner == key })).map(\.token) == [key])
        let keys = [Self.tokens[0], Self.tokens[3]]
        #expect(try context.fetchCount(FetchDescriptor(predicate: #Predicate<UUIDTicket> { keys.contains($0.token) })) == 2)
        // An array attribute is JSON, which holds `JSONEncoder`'s uppercase text.
        let relatedToKey = try context.fetch(FetchDescriptor(predicate: #Predicate<UUIDTicket> { $0.related.contains(key) }))
        #expect(relatedToKey.map(\.token) == [Self.tokens[1]])

        // The text's order is the UUIDs' own.
        let sorted = try context.fetch(FetchDescriptor(sortBy: [SortDescriptor(\UUIDTicket.token)])).map(\.token)
        #expect(sorted == Self.tokens.sorted())
        #expect(sorted.map(\.uuidString) == Self.tokens.map(\.uuidString).sorted())

        let typed = try container.read(for: UUIDTicket.self) { db in
            try UUIDTicket.where { $0.token.eq(key) }.select(\.token).fetchAll(db)
        }
        #expect(typed == [key])
    }

    @Test("a store whose UUIDs are uppercase is rewritten once as it opens")
    func uppercaseStoresAreRewrittenOnce() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        do {
            try Self.seed(ModelContext(try store.container(for: UUIDTicket.self)))
        }
        // What a store holds when its UUIDs were written as `uuidString`.
        do {
            let database = try Database(path: store.url.path)
            defer { try? database.close() }
            try database.execute(sql: #"UPDATE "UUIDTicket" SET "token" = upper("token"), "owner" = upper("owner")"#)
            try database.execute(sql: #"DELETE FROM "_CairnMetadata" WHERE "key" = 'uuidText.UUIDTicket'"#)
        }
        let key = Self.tokens[0]
        do {
            let container = try store.container(for: UUIDTicket.self)
            let context = ModelContext(container)
            #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<UUIDTicket> { $0.token == key })).count == 1)
            #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<UUIDTicket> { $0.owner == key })).count == 1)
            let (tokens, owners) = try container.read(for: UUIDTicket.self) { db in
                (try db.fetchValues(String.self, sql: #"SELECT "token" FROM "UUIDTicket" ORDER BY rowid"#),
                 try db.fetchAll(sql: #"SELECT "owner" FROM "UUIDTicket" ORDER BY rowid"#) { try $0.decode(String?.self, at: 0) })
            }
            #expect(tokens == Self.tokens.map { $0.uuidString.lowercased() })
            #expect(owners == [tokens[0], nil, tokens[2], nil])
        }
        // Done once: text written in upper case after that is left as it is.
        do {
            let database = try Database(path: store.url.path)
            defer { try? database.close() }
            try database.execute(sql: #"UPDATE "UUIDTicket" SET "token" = upper("token") WHERE rowid = 1"#)
        }
        let container = try store.container(for: UUIDTicket.self)
        let first = try container.read(for: UUIDTicket.self) { db in
            try db.fetchValue(String.self, sql: #"SELECT "token" FROM "UUIDTicket" WHERE rowid = 1"#)
        }
        #expect(first == key.uuidString)
    }
}
