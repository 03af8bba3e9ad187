import Cairn
import Testing

@Suite("Typed SQL: where { } with if, switch and for")
struct ConditionBuilderTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    enum Filter { case flagged, completed, all }

    func search(listID: Int?, words: [String], filter: Filter) -> SelectOf<Reminder> {
        Reminder.where {
            if let listID { $0.remindersListID.eq(listID) }
            for word in words { $0.title.like("%\(word)%") }
            switch filter {
            case .flagged: $0.isFlagged
            case .completed: $0.isCompleted
            case .all: #sql("1")
            }
        }
    }

    @Test func listedConditionsAreJoinedWithAnd() throws {
        let query = search(listID: 1, words: ["o", "r"], filter: .flagged).order(by: \.id).select(\.id)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."remindersListID" = ? AND "reminders"."title" LIKE ? AND "reminders"."title" LIKE ? AND "reminders"."isFlagged" ORDER BY "reminders"."id" ASC"#,
            arguments: [.integer(1), .text("%o%"), .text("%r%")],
            rows: { try query.fetchAll(db) }, [1, 3])
        #expect(try search(listID: nil, words: [], filter: .completed).order(by: \.id).select(\.id).fetchAll(db) == [2, 5])
        #expect(try search(listID: 2, words: ["k"], filter: .all).order(by: \.id).select(\.id).fetchAll(db) == [4, 5, 6])
    }

    @Test func noConditionAddsNoWhere() throws {
        let keep = false
        let query = Reminder.where { if keep { $0.isFlagged } }.select(\.id)
        #expect(try query.render().sql == #"SELECT "reminders"."id" FROM "reminders""#)
        #expect(try query.fetchAll(db).count == 6)
    }

    @Test func joinedUpdatedAndDeletedStatementsTakeTheBuilderToo() throws {
        let onlyFamily = true
        let joined = Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }
            .where { reminder, list in
                if onlyFamily { list.title.eq("Family") }
                reminder.isFlagged
            }
            .select { reminder, _ in reminder.title }
        #expect(try joined.fetchAll(db) == ["Buy concert tickets"])
        try Reminder.update { $0.notes = "x" }.where { if onlyFamily { $0.remindersListID.eq(2) } }.execute(db)
        #expect(try Reminder.where { $0.notes.eq("x") }.fetchCount(db) == 3)
        // An update whose builder lists nothing has no WHERE: it reaches every row, as SQL does.
        let everyRow = Reminder.update { $0.notes = "y" }.where { if !onlyFamily { $0.id.eq(1) } }
        #expect(try everyRow.render().sql == #"UPDATE "reminders" SET "notes" = ?"#)
        try Reminder.delete().where { for id in [1, 2] { $0.id.neq(id) } }.execute(db)
        #expect(try Reminder.order(by: \.id).select(\.id).fetchAll(db) == [1, 2])
    }

    @Test func aClosureThatReturnsItsConditionStillWorks() throws {
        let query = Reminder.where { columns in
            let title = columns.title
            return title.eq("Haircut")
        }
        #expect(try query.select(\.id).fetchAll(db) == [2])
    }
}
