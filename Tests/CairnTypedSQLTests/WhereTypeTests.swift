import Cairn
import Testing

extension Reminder {
    /// Filters declared once by their type, as StructuredQueries' `Where<Reminder>`.
    static let incomplete: Where<Reminder> = Reminder.where { !$0.isCompleted }
    static func titled(_ text: String) -> Where<Reminder> { Self.where { $0.title.contains(text) } }
}

/// `Where<T>` names what `T.where { … }` returns: a filter stored, passed and then used as any
/// statement of the table.
@Suite("Typed SQL: Where<T>")
struct WhereTypeTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    private func titles(_ filter: Where<Reminder>) throws -> [String] {
        try filter.order(by: \.title).select(\.title).fetchAll(db)
    }

    @Test func aStoredFilterSelectsOrdersAndCounts() throws {
        let open = Reminder.incomplete
        let query = open.order(by: \.title).select(\.title)
        let all = try Reminder.order(by: \.title).fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted" ORDER BY "reminders"."title" ASC"#,
            rows: { try query.fetchAll(db) }, all.filter { !$0.isCompleted }.map(\.title))
        #expect(try open.count().fetchOne(db) == all.filter { !$0.isCompleted }.count)
        #expect(try open.fetchCount(db) == all.filter { !$0.isCompleted }.count)
        #expect(try open.fetchAll(db).allSatisfy { !$0.isCompleted })
        #expect(try titles(open.where(\.isFlagged)) == all.filter { !$0.isCompleted && $0.isFlagged }.map(\.title))
    }

    @Test func filtersCombineWithPlusOnceEach() throws {
        let both = Reminder.incomplete + Reminder.where(\.isFlagged) + Reminder.incomplete
        #expect(try both.render().sql.hasSuffix(#"WHERE NOT "reminders"."isCompleted" AND "reminders"."isFlagged""#))
        #expect(try (Reminder.all + Reminder.incomplete).render().sql == (try Reminder.incomplete.render().sql))
        #expect(try (Reminder.incomplete + Reminder.all).render().sql == (try Reminder.incomplete.render().sql))
        let all = try Reminder.all.fetchAll(db)
        #expect(try titles(both).sorted() == all.filter { !$0.isCompleted && $0.isFlagged }.map(\.title).sorted())
        #expect(try titles(Reminder.titled("a") && !Reminder.incomplete)
            == all.filter { $0.title.contains("a") && $0.isCompleted }.map(\.title).sorted())
    }

    @Test func aStoredFilterUpdatesAndDeletes() throws {
        let open = Reminder.incomplete
        let update = open.update { $0.isFlagged = true }
        #expect(try update.render().sql == #"UPDATE "reminders" SET "isFlagged" = ? WHERE NOT "reminders"."isCompleted""#)
        try update.execute(db)
        #expect(try open.where { !$0.isFlagged }.fetchCount(db) == 0)
        let delete = open.delete()
        #expect(try delete.render().sql == #"DELETE FROM "reminders" WHERE NOT "reminders"."isCompleted""#)
        try delete.execute(db)
        #expect(try open.fetchCount(db) == 0)
        #expect(try Reminder.fetchCount(db) > 0)
    }
}
