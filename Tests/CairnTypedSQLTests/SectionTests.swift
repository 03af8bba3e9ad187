import Cairn
import Testing

extension Reminder.TableColumns {
    /// The priority as text, NULL without one.
    var priorityName: SQLQueryExpression<String?> {
        #sql("CASE \(priority) WHEN 3 THEN 'high' WHEN 2 THEN 'medium' WHEN 1 THEN 'low' END", as: String?.self)
    }
}

@Suite("Typed SQL: sectioned fetches")
struct SectionTests {
    @Test func fetchAllSectionBy() throws {
        let db = try RemindersDatabase.make()
        let sections = try Reminder.order(by: \.id).fetchAll(db, sectionBy: \.priorityName)
        #expect(sections.sectionTitles == [nil, "high", "low", "medium"])
        #expect(sections[sectionTitle: "high"]?.map(\.id) == [1, 5])
        #expect(sections[sectionTitle: "low"]?.map(\.id) == [2, 6])
        #expect(sections.contains(sectionTitle: "medium"))
        #expect(!sections.contains(sectionTitle: "urgent"))
        #expect(sections.index(ofSectionTitled: nil) == 0)
        #expect(sections.first?.map(\.title) == ["Take a walk"])
    }

    @Test func fetchAllWrapperSections() async throws {
        let pool = try makeReminderPool()
        let reminders = FetchAll(Reminder.order(by: \.id), sectionBy: \.priorityName, database: pool)
        #expect(reminders.sections.sectionTitles == [nil, "high", "low", "medium"])
        #expect(reminders.wrappedValue.map(\.id) == [4, 1, 5, 2, 6, 3])
        try await pool.write { db in try Reminder.find(4).update { $0.priority = Optional(Priority.high) }.execute(db) }
        await waitUntil { reminders.sections.sectionTitles == ["high", "low", "medium"] }
        #expect(reminders.sections[sectionTitle: "high"]?.map(\.id) == [1, 4, 5])
    }

    /// StructuredQueries' docs section by a plain text column: `sectionBy: \.title`.
    @Test func fetchAllWrapperSectionsByANonOptionalColumn() throws {
        let pool = try makeReminderPool()
        let lists = FetchAll(RemindersList.order(by: \.id), sectionBy: \.title, database: pool)
        #expect(lists.sections.sectionTitles == ["Business", "Family", "Personal"])
        for title in ["Business", "Family", "Personal"] {
            #expect(lists.sections[sectionTitle: title]?.map(\.title) == [title])
        }
        #expect(lists.loadError == nil)
    }
}
