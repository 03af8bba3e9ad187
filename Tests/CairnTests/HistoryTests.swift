@testable import Cairn
import Foundation
import Testing

@Model
final class Visit {
    @Attribute(.preserveValueOnDeletion) var place: String
    var notes: String
    @Attribute(.unique) var code: Int

    init(place: String, notes: String = "", code: Int) {
        self.place = place
        self.notes = notes
        self.code = code
    }
}

/// SwiftData's history: each save records a transaction with its inserts, updates and deletes;
/// `fetchHistory` filters them by token, author or time; `deleteHistory` removes them, and a
/// later fetch that asks for removed history throws `historyTokenExpired`.
@Suite struct HistoryTests {
    typealias Transaction = DefaultHistoryTransaction

    func saved(_ context: ModelContext, author: String? = nil, _ body: () throws -> Void) throws {
        context.author = author
        try body()
        try context.save()
    }

    func history(_ context: ModelContext, _ predicate: Predicate<Transaction>? = nil) throws -> [Transaction] {
        try context.fetchHistory(HistoryDescriptor<Transaction>(predicate: predicate))
    }

    @Test func eachSaveRecordsItsChangesInOrder() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        let paris = Visit(place: "Paris \"centre\"\n\u{1}é", code: 1)
        let rome = Visit(place: "Rome", code: 2)
        try saved(context, author: "importer") {
            context.insert(paris)
            context.insert(rome)
        }
        try saved(context, author: "editor") {
            rome.notes = "pasta"
            rome.place = "Roma"
        }
        try saved(context) { context.delete(paris) }

        let transactions = try history(context)
        #expect(transactions.map(\.author) == ["importer", "editor", nil])
        #expect(transactions.map(\.token.id) == transactions.map { Int($0.transactionIdentifier) })
        #expect(transactions.map(\.token) == transactions.map(\.token).sorted())
        #expect(transactions.allSatisfy { $0.storeIdentifier == "default" && $0.processIdentifier == String(ProcessInfo.processInfo.processIdentifier) })

        let inserts = transactions[0].changes.compactMap { change -> PersistentIdentifier? in
            if case .insert(let insert as DefaultHistoryInsert<Visit>) = change { insert.changedPersistentIdentifier } else { nil }
        }
        #expect(inserts == [paris.persistentModelID, rome.persistentModelID])

        guard case .update(let update as DefaultHistoryUpdate<Visit>) = try #require(transactions[1].changes.first) else {
            Issue.record("expected an update, got \(transactions[1].changes)")
            return
        }
        #expect(update.changedPersistentIdentifier == rome.persistentModelID)
        // Declaration order, whatever order the properties were set in.
        #expect(update.updatedAttributes.map { $0 as AnyKeyPath } == [\Visit.place, \Visit.notes])

        guard case .delete(let delete as DefaultHistoryDelete<Visit>) = try #require(transactions[2].changes.first) else {
            Issue.record("expected a delete, got \(transactions[2].changes)")
            return
        }
        #expect(delete.changedPersistentIdentifier == paris.persistentModelID)
        #expect(delete.tombstone[\Visit.place] as? String == "Paris \"centre\"\n\u{1}é")  // preserved, as it was
        #expect(delete.tombstone[\Visit.notes] == nil)                  // not preserved
        #expect(delete.tombstone.map { $0 as? String } == ["Paris \"centre\"\n\u{1}é"])

        // Change identifiers are unique and increase through the history.
        let ids = transactions.flatMap(\.changes).map { change -> Int64 in
            switch change {
            case .insert(let insert as DefaultHistoryInsert<Visit>): insert.changeIdentifier
            case .update(let update as DefaultHistoryUpdate<Visit>): update.changeIdentifier
            case .delete(let delete as DefaultHistoryDelete<Visit>): delete.changeIdentifier
            default: -1
            }
        }
        #expect(ids == ids.sorted() && Set(ids).count == 4 && !ids.contains(-1))
    }

    @Test func predicatesFilterByTokenAuthorAndTime_sortAndLimitApply() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        for (index, author) in ["app", "widget", "app", "widget"].enumerated() {
            try saved(context, author: author) { context.insert(Visit(place: "P\(index)", code: index)) }
        }
        let all = try history(context)
        #expect(all.count == 4)
        let second = all[1].token
        #expect(try history(context, #Predicate { $0.token > second }).map(\.token.id) == all.suffix(2).map(\.token.id))
        #expect(try history(context, #Predicate { $0.author == "widget" }).count == 2)
        let start = all[2].timestamp
        #expect(try history(context, #Predicate { $0.timestamp >= start }).count >= 2)

        var newestTwo = HistoryDescriptor<Transaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        newestTwo.fetchLimit = 2
        #expect(try context.fetchHistory(newestTwo).map(\.token.id) == all.reversed().prefix(2).map(\.token.id))
    }

    @Test func deletedHistoryIsGoneAndAskingForItThrows() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        for index in 0..<4 {
            try saved(context, author: "app") { context.insert(Visit(place: "P\(index)", code: index)) }
        }
        let all = try history(context)
        let processed = all[2].token
        try context.deleteHistory(HistoryDescriptor<Transaction>(predicate: #Predicate { $0.token <= processed }))
        #expect(try history(context).map(\.token.id) == [all[3].token.id])
        // Since the token processed last: fine.
        #expect(try history(context, #Predicate { $0.token > processed }).count == 1)
        // Since an older token: part of that is gone.
        let older = all[0].token
        #expect(throws: SwiftDataError.historyTokenExpired) {
            _ = try history(context, #Predicate { $0.token > older })
        }
        // A predicate that does not ask "since when" is not about removed history.
        #expect(try history(context, #Predicate { $0.author == "app" }).count == 1)
    }

    @Test func aFailedSaveRecordsNothing() throws {
        let context = ModelContext(try memoryContainer(for: Trip.self, Item.self, Tag.self))
        let trip = Trip(name: "t")
        context.insert(trip)
        try context.save()
        let before = try history(context).count
        // A save that fails inside its SQL transaction (the history row would be written last).
        try context.container.store(for: "Trip").write { connection in
            try connection.sqliteDatabase(for: "the test").execute(sql: #"CREATE TRIGGER "refuse" BEFORE UPDATE ON "Trip" BEGIN SELECT RAISE(ABORT, 'refused'); END"#)
        }
        trip.name = "renamed"
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try history(context).count == before)
    }

    @Test func historyOutlivesTheContainerOnDisk() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        do {
            let container = try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store.url))
            let context = ModelContext(container)
            try saved(context, author: "first run") { context.insert(Visit(place: "Oslo", code: 1)) }
        }
        let reopened = ModelContext(try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store.url)))
        let transactions = try history(reopened)
        #expect(transactions.map(\.author) == ["first run"])
        #expect(transactions.first?.changes.count == 1)
    }

    @Test func tokensCompareAndRoundTripThroughCodable() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        try saved(context) { context.insert(Visit(place: "A", code: 1)) }
        try saved(context) { context.insert(Visit(place: "B", code: 2)) }
        let tokens = try history(context).map(\.token)
        #expect(tokens[0] < tokens[1])
        let decoded = try JSONDecoder().decode(DefaultHistoryToken.self, from: JSONEncoder().encode(tokens[1]))
        #expect(decoded == tokens[1])
        #expect(decoded.tokenValue == ["default": tokens[1].id])
    }

    @Test func deleteAllDataRemovesHistoryToo() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        try saved(context) { context.insert(Visit(place: "A", code: 1)) }
        context.container.deleteAllData()
        #expect(try history(context).isEmpty)
    }

    @Test func runsOfKeysAndGapsKeepEachChangeWithItsModel() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        let visits = (1...6).map { Visit(place: "P\($0)", code: $0) }
        try saved(context) { for visit in visits { context.insert(visit) } }
        // Rows 1, 3, 4, 5 and 6 change (a gap, then a run), each in its own properties: row 5
        // in the same ones as row 4, row 6 in those of row 1 after others.
        try saved(context) {
            visits[0].notes = "one"
            visits[2].place = "three"
            visits[3].place = "four"
            visits[3].notes = "four"
            visits[4].notes = "five"
            visits[4].place = "five"
            visits[5].notes = "six"
        }
        let updates = try #require(history(context).last).changes.compactMap { change -> (PersistentIdentifier, [AnyKeyPath])? in
            guard case .update(let update as DefaultHistoryUpdate<Visit>) = change else { return nil }
            return (update.changedPersistentIdentifier, update.updatedAttributes.map { $0 as AnyKeyPath })
        }
        #expect(updates.map(\.0) == [visits[0], visits[2], visits[3], visits[4], visits[5]].map(\.persistentModelID))
        #expect(updates.map(\.1) == [
            [\Visit.notes], [\Visit.place], [\Visit.place, \Visit.notes], [\Visit.place, \Visit.notes], [\Visit.notes],
        ])
        let inserted = try history(context)[0].changes.map(\.changedPersistentIdentifier)
        #expect(inserted == visits.map(\.persistentModelID))
    }

    @Test func aDamagedHistoryRowIsAnErrorNotAnEmptyTransaction() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        try saved(context) { context.insert(Visit(place: "A", code: 1)) }
        try context.container.store(for: "Visit").write { connection in
            try connection.sqliteDatabase(for: "the test").execute(sql: #"UPDATE "_CairnHistoryTransaction" SET "changes" = '{"not": "a list"}'"#)
        }
        let error = try #require(throws: ModelError.self) { _ = try history(context) }
        #expect(error.kind == .valueDecodingFailed)
        #expect("\(error)".contains("history transaction"))
    }

    @Test func onlySelectedTransactionsHaveTheirChangesDecoded() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        try saved(context) { context.insert(Visit(place: "A", code: 1)) }
        try saved(context) { context.insert(Visit(place: "B", code: 2)); context.insert(Visit(place: "C", code: 3)) }
        let first = try #require(try history(context).first).token
        // Damage the first transaction's document: a fetch that does not select it never reads it.
        try context.container.store(for: "Visit").write { connection in
            try connection.sqliteDatabase(for: "the test").execute(
                sql: #"UPDATE "_CairnHistoryTransaction" SET "changes" = 'garbage' WHERE "id" = ?"#,
                arguments: [Int64(first.id)])
        }
        let since = try history(context, #Predicate { $0.token > first })
        #expect(since.map(\.changes.count) == [2])
        #expect(throws: ModelError.self) { _ = try history(context) }
        // deleteHistory reads no document at all.
        try context.deleteHistory(HistoryDescriptor<Transaction>(predicate: #Predicate { $0.token <= first }))
        #expect(try history(context).map(\.changes.count) == [2])
    }

    @Test func aPredicateThatReadsChangesSeesThem() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        try saved(context) { context.insert(Visit(place: "A", code: 1)) }
        try saved(context) { context.insert(Visit(place: "B", code: 2)); context.insert(Visit(place: "C", code: 3)) }
        let two = #Predicate<Transaction> { $0.changes.count == 2 }
        #expect(HistoryPredicateReads.changes(two))
        #expect(try history(context, two).map(\.changes.count) == [2])
        let token = try #require(try history(context).first).token
        #expect(!HistoryPredicateReads.changes(#Predicate<Transaction> { $0.token > token && $0.author != "x" }))
        let past = Date.distantPast
        #expect(!HistoryPredicateReads.changes(#Predicate<Transaction> { $0.timestamp > past }))
    }

    struct OtherTransaction: HistoryTransaction {
        var id: Int
        var author: String? { nil }
        var changes: [HistoryChange] { [] }
        var storeIdentifier: String { "" }
        var timestamp: Date { .distantPast }
        var token: DefaultHistoryToken { DefaultHistoryToken(id: id, storeIdentifier: "") }
        var transactionIdentifier: Int { id }
    }

    @Test func onlyDefaultTransactionsCanBeFetched() throws {
        let context = ModelContext(try memoryContainer(for: Visit.self))
        #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            _ = try context.fetchHistory(HistoryDescriptor<OtherTransaction>())
        }
    }
}
