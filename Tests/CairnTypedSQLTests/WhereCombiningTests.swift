import Cairn
import Testing

// Filters combined as values, counting with a filter, and limits that may be absent, in
// StructuredQueries' spellings.
@Suite("Typed SQL: combining filters, counts and limits")
struct WhereCombiningTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    func checkCount(
        _ query: Select<Int, Reminder, ()>, _ sql: String, _ count: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try assertQuery(query, sql: sql, rows: { try query.fetchAll(db) }, [count], sourceLocation: sourceLocation)
    }

    @Test func and() throws {
        let both = #"SELECT COUNT(*) FROM "reminders" WHERE "reminders"."isCompleted" AND "reminders"."isFlagged""#
        try checkCount(Reminder.where(\.isCompleted).and(Reminder.where(\.isFlagged)).count(), both, 1)
        try checkCount((Reminder.where(\.isCompleted) && Reminder.where(\.isFlagged)).count(), both, 1)
        let flagged = #"SELECT COUNT(*) FROM "reminders" WHERE "reminders"."isFlagged""#
        try checkCount(Reminder.all.and(Reminder.where(\.isFlagged)).count(), flagged, 3)
        try checkCount(Reminder.where(\.isFlagged).and(Reminder.all).count(), flagged, 3)
    }

    @Test func or() throws {
        let either = #"SELECT COUNT(*) FROM "reminders" WHERE "reminders"."isCompleted" OR "reminders"."isFlagged""#
        try checkCount(Reminder.where(\.isCompleted).or(Reminder.where(\.isFlagged)).count(), either, 4)
        try checkCount((Reminder.where(\.isCompleted) || Reminder.where(\.isFlagged)).count(), either, 4)
        // A statement without a condition leaves the other's as it is.
        let flagged = #"SELECT COUNT(*) FROM "reminders" WHERE "reminders"."isFlagged""#
        try checkCount(Reminder.all.or(Reminder.where(\.isFlagged)).count(), flagged, 3)
        try checkCount(Reminder.where(\.isFlagged).or(Reminder.all).count(), flagged, 3)
    }

    @Test func not() throws {
        let notCompleted = #"SELECT COUNT(*) FROM "reminders" WHERE NOT "reminders"."isCompleted""#
        try checkCount(Reminder.where(\.isCompleted).not().count(), notCompleted, 4)
        try checkCount((!Reminder.where(\.isCompleted)).count(), notCompleted, 4)
        try checkCount(Reminder.all.not().count(), #"SELECT COUNT(*) FROM "reminders" WHERE NOT ?"#, 0)
    }

    /// Precedence survives combination: `(a AND b) OR c`, `NOT (a OR b)`.
    @Test func combinedConditionsKeepTheirGrouping() throws {
        let flaggedToday = Reminder.where { $0.isFlagged && $0.position.eq(0) }
        let query = flaggedToday.or(Reminder.where { $0.priority.is(nil) }).order(by: \.id).select(\.id)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."isFlagged" AND "reminders"."position" = ? OR "reminders"."priority" IS NULL ORDER BY "reminders"."id" ASC"#,
            rows: { try query.fetchAll(db) }, [1, 4])
        let either = Reminder.where(\.isCompleted).or(Reminder.where(\.isFlagged))
        let second = either.and(Reminder.where { $0.position.eq(1) }).order(by: \.id).select(\.id)
        try assertQuery(
            second,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE ("reminders"."isCompleted" OR "reminders"."isFlagged") AND "reminders"."position" = ? ORDER BY "reminders"."id" ASC"#,
            rows: { try second.fetchAll(db) }, [2, 5])
        let neither = (!(Reminder.where(\.isCompleted) || Reminder.where(\.isFlagged))).select(\.id)
        #expect(try neither.fetchAll(db) == [4, 6])
    }

    @Test func whereClosureGivingNil() throws {
        let all = RemindersList.where { _ in nil }.select(\.id)
        try assertQuery(all, sql: #"SELECT "remindersLists"."id" FROM "remindersLists""#, rows: { try all.fetchAll(db) }, [1, 2, 3])
        let listID: Int? = nil
        let chosen = Reminder.where {
            if let listID { $0.remindersListID.eq(listID) } else { nil }
        }.count()
        try checkCount(chosen, #"SELECT COUNT(*) FROM "reminders""#, 6)
    }

    @Test func countWithFilter() throws {
        try checkCount(
            Reminder.count { $0.isCompleted },
            #"SELECT COUNT(*) FILTER (WHERE "reminders"."isCompleted") FROM "reminders""#, 2)
        try checkCount(
            Reminder.where(\.isFlagged).count(filter: { $0.priority.is(.high) }),
            #"SELECT COUNT(*) FILTER (WHERE "reminders"."priority" IS ?) FROM "reminders" WHERE "reminders"."isFlagged""#, 2)
        try checkCount(Reminder.where(\.isFlagged).count(), #"SELECT COUNT(*) FROM "reminders" WHERE "reminders"."isFlagged""#, 3)
    }

    @Test func limitAndOffsetThatMayBeAbsent() throws {
        let base = Reminder.order(by: \.id)
        let limited = base.limit(2).limit(nil).offset(nil).select(\.id)
        try assertQuery(
            limited, sql: #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."id" ASC LIMIT ?"#,
            arguments: [.integer(2)], rows: { try limited.fetchAll(db) }, [1, 2])
        let unlimited = base.limit(nil).select(\.id)
        try assertQuery(
            unlimited, sql: #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."id" ASC"#,
            rows: { try unlimited.fetchAll(db) }, [1, 2, 3, 4, 5, 6])
        for isExpanded in [false, true] {
            let page = base.limit(isExpanded ? nil : 2).offset(3).select(\.id)
            #expect(try page.fetchAll(db) == (isExpanded ? [4, 5, 6] : [4, 5]))
            #expect(try page.render().arguments == (isExpanded ? [.integer(-1), .integer(3)] : [.integer(2), .integer(3)]))
        }
        let skipped = Reminder.offset(4).order(by: \.id).select(\.id)
        try assertQuery(
            skipped, sql: #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."id" ASC LIMIT ? OFFSET ?"#,
            arguments: [.integer(-1), .integer(4)], rows: { try skipped.fetchAll(db) }, [5, 6])
        #expect(try Reminder.limit(nil).fetchAll(db).count == 6)
    }

    @Test func limitAndOffsetClosures() throws {
        enum PerPage { case all, page }
        for (perPage, expected) in [(PerPage.page, [1, 2]), (.all, [1, 2, 3, 4, 5, 6])] {
            let offset: Int? = nil
            let query = Reminder
                .order(by: \.id)
                .limit { _ in
                    switch perPage {
                    case .all: nil
                    case .page: 2
                    }
                }
                .offset { _ in
                    if let offset { offset }
                }
                .select(\.id)
            #expect(try query.fetchAll(db) == expected)
            #expect(try query.render().sql.hasSuffix(perPage == .page ? "ASC LIMIT ?" : "ASC"))
        }
        let byColumns = Reminder.limit { _ in 1 }.offset { _ in 2 }.order(by: \.id).select(\.id)
        try assertQuery(
            byColumns, sql: #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."id" ASC LIMIT ? OFFSET ?"#,
            arguments: [.integer(1), .integer(2)], rows: { try byColumns.fetchAll(db) }, [3])
        let joined = RemindersList.join(Reminder.all) { $0.id.eq($1.remindersListID) }
            .limit { _, _ in 2 }
            .select { ($0.id, $1.id) }
        #expect(try joined.fetchAll(db).count == 2)
    }
}
