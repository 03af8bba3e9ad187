import Cairn
import Testing

@Suite("Typed SQL: select builder")
struct SelectBuilderTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func whereCallsAreJoinedWithAnd() throws {
        let query = Reminder.where { $0.isFlagged }.where { $0.priority.eq(.high) }.select(\.id)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."isFlagged" AND "reminders"."priority" = ?"#,
            arguments: [.integer(3)], rows: { try query.fetchAll(db) }, [1, 5])
    }

    @Test func andOrMethodsAndOperators() throws {
        let methods = Reminder.where { $0.isCompleted.or($0.priority.eq(.medium)).and($0.isFlagged) }.select(\.id)
        try assertQuery(
            methods,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE ("reminders"."isCompleted" OR "reminders"."priority" = ?) AND "reminders"."isFlagged""#,
            rows: { try methods.fetchAll(db) }, [3, 5])
        let operators = Reminder.where { $0.isCompleted || $0.priority.eq(.medium) && !$0.isFlagged }.select(\.id)
        #expect(try operators.fetchAll(db) == [2, 5])
        let negated = Reminder.where { $0.isFlagged.not() }.select(\.id)
        #expect(try negated.fetchAll(db) == [2, 4, 6])
    }

    @Test func keyPathWhere() throws {
        let query = Reminder.where(\.isFlagged).select(\.title)
        try assertQuery(
            query, sql: #"SELECT "reminders"."title" FROM "reminders" WHERE "reminders"."isFlagged""#,
            rows: { try query.fetchAll(db) }, ["Groceries", "Doctor appointment", "Buy concert tickets"])
    }

    @Test(arguments: [
        (NullOrdering.first, #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."dueDate" ASC NULLS FIRST, "reminders"."id" ASC"#, [2, 4, 5, 1, 6, 3]),
        (NullOrdering.last, #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."dueDate" ASC NULLS LAST, "reminders"."id" ASC"#, [5, 1, 6, 3, 2, 4]),
    ])
    func ascendingWithNulls(nulls: NullOrdering, sql: String, ids: [Int]) throws {
        let query = Reminder.order { ($0.dueDate.asc(nulls: nulls), $0.id) }.select(\.id)
        try assertQuery(query, sql: sql, rows: { try query.fetchAll(db) }, ids)
    }

    @Test func descendingWithNullsFirst() throws {
        let query = Reminder.order { $0.dueDate.desc(nulls: .first) }.order(by: \.id).select(\.id)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."dueDate" DESC NULLS FIRST, "reminders"."id" ASC"#,
            rows: { try query.fetchAll(db) }, [2, 4, 3, 6, 1, 5])
    }

    enum Ordering { case dueDate, priority, none }

    @Test(arguments: [
        (Ordering.dueDate, #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."dueDate" ASC NULLS LAST, "reminders"."id" ASC"#, [5, 1, 6, 3, 2, 4]),
        (Ordering.priority, #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."priority" DESC, "reminders"."isFlagged" DESC, "reminders"."id" ASC"#, [1, 5, 3, 2, 6, 4]),
        (Ordering.none, #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."id" ASC"#, [1, 2, 3, 4, 5, 6]),
    ])
    func orderChosenBySwitchAndIf(ordering: Ordering, sql: String, ids: [Int]) throws {
        // The Reminders example's shape: cases of different types. Before, such a closure
        // returned `()` and the query had no ORDER BY at all.
        let tieBreak = true
        let query = Reminder.order {
            switch ordering {
            case .dueDate: $0.dueDate.asc(nulls: .last)
            case .priority: ($0.priority.desc(), $0.isFlagged.desc())
            case .none: ()
            }
        }
        .order { if tieBreak { $0.id } }
        .select(\.id)
        try assertQuery(query, sql: sql, rows: { try query.fetchAll(db) }, ids)
    }

    @Test func joinedOrderChosenByIf() throws {
        for byList in [true, false] {
            let query = RemindersList.join(Reminder.all) { $0.id.eq($1.remindersListID) }
                .order { list, reminder in
                    if byList { (list.title.desc(), reminder.id) } else { reminder.id.desc() }
                }
                .select { $1.id }
            let expected = byList
                ? #"ORDER BY "remindersLists"."title" DESC, "reminders"."id" ASC"#
                : #"ORDER BY "reminders"."id" DESC"#
            #expect(try query.render().sql.hasSuffix(expected))
            #expect(try query.fetchAll(db).count == 6)
        }
    }

    @Test func groupByTupleAndHaving() throws {
        let query = Reminder
            .group { ($0.remindersListID, $0.isCompleted) }
            .having { $0.count().gte(2) }
            .select { ($0.remindersListID, $0.isCompleted, $0.count()) }
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."remindersListID", "reminders"."isCompleted", COUNT("reminders"."id") FROM "reminders" GROUP BY "reminders"."remindersListID", "reminders"."isCompleted" HAVING COUNT("reminders"."id") >= ?"#,
            rows: { try query.fetchAll(db).map { "\($0.0) \($0.1) \($0.2)" } }, ["1 false 2", "2 false 2"])
    }

    @Test func limitOffsetAndDistinct() throws {
        let page = Reminder.order(by: \.id).limit(2, offset: 1).select(\.id)
        try assertQuery(
            page, sql: #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."id" ASC LIMIT ? OFFSET ?"#,
            arguments: [.integer(2), .integer(1)], rows: { try page.fetchAll(db) }, [2, 3])
        let skipped = Reminder.order(by: \.id).offset(4).select(\.id)
        #expect(try skipped.fetchAll(db) == [5, 6])
        let lists = Reminder.distinct().order(by: \.remindersListID).select(\.remindersListID)
        try assertQuery(
            lists,
            sql: #"SELECT DISTINCT "reminders"."remindersListID" FROM "reminders" ORDER BY "reminders"."remindersListID" ASC"#,
            rows: { try lists.fetchAll(db) }, [1, 2])
    }

    @Test func selectTuplesAndValues() throws {
        let pairs = Reminder.where { $0.id.lte(2) }.select { ($0.title, $0.dueDate, $0.priority) }
        let rows = try pairs.fetchAll(db)
        #expect(rows.map(\.0) == ["Groceries", "Haircut"])
        #expect(rows.map(\.1) == [today.addingTimeInterval(3_600), nil])
        #expect(rows.map(\.2) == [.high, .low])
    }

    @Test func findByKeyAndKeys() throws {
        let several = Reminder.find([6, 2, 99]).order(by: \.id).select(\.title)
        try assertQuery(
            several,
            sql: #"SELECT "reminders"."title" FROM "reminders" WHERE "reminders"."id" IN (?, ?, ?) ORDER BY "reminders"."id" ASC"#,
            rows: { try several.fetchAll(db) }, ["Haircut", "Pick up kids"])
        #expect(try Reminder.find(99).fetchOne(db) == nil)
        #expect(try Reminder.find(4).fetchOne(db)?.title == "Take a walk")
    }

    @Test func existsAndSubqueries() throws {
        let withFlags = RemindersList.where {
            $0.id.in(Reminder.where { $0.isFlagged && !$0.isCompleted }.select(\.remindersListID))
        }
        try assertQuery(
            withFlags.select(\.title),
            sql: #"SELECT "remindersLists"."title" FROM "remindersLists" WHERE "remindersLists"."id" IN (SELECT "reminders"."remindersListID" FROM "reminders" WHERE "reminders"."isFlagged" AND NOT "reminders"."isCompleted")"#,
            rows: { try withFlags.select(\.title).fetchAll(db) }, ["Personal"])
        let empty = RemindersList.where { $0.id.notIn(Reminder.select(\.remindersListID)) }
        #expect(try empty.fetchAll(db).map(\.title) == ["Business"])
        let anyOverdue = Fact.where { _ in Reminder.where { $0.dueDate.lt(today) }.exists() }
        #expect(try anyOverdue.fetchCount(db) == 3)
        let noneNamed = Fact.where { _ in !Reminder.where { $0.title.eq("Nothing") }.exists() }
        #expect(try noneNamed.fetchCount(db) == 3)
        #expect(try Fact.where { _ in Tag.exists() }.fetchCount(db) == 3)
    }

    @Test func compoundSelects() throws {
        let flagged = Reminder.where(\.isFlagged).select(\.id)
        let completed = Reminder.where(\.isCompleted).select(\.id)
        let union = flagged.union(completed)
        try assertQuery(
            union,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."isFlagged" UNION SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."isCompleted""#,
            rows: { try union.fetchAll(db).sorted() }, [1, 2, 3, 5])
        #expect(try flagged.union(all: true, completed).fetchAll(db).count == 5)
        #expect(try flagged.intersect(completed).fetchAll(db) == [5])
        #expect(try flagged.except(completed).fetchAll(db).sorted() == [1, 3])
    }

    @Test func innerJoin() throws {
        let query = Reminder
            .join(RemindersList.all) { $0.remindersListID.eq($1.id) }
            .where { $1.title.eq("Family") }
            .order { reminder, _ in reminder.position }
            .select { ($0.title, $1.title) }
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."title", "remindersLists"."title" FROM "reminders" JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id" WHERE "remindersLists"."title" = ? ORDER BY "reminders"."position" ASC"#,
            rows: { try query.fetchAll(db).map(\.0) }, ["Take a walk", "Buy concert tickets", "Pick up kids"])
    }

    @Test func joinMergesTheJoinedStatementsClauses() throws {
        let query = RemindersList
            .join(Reminder.where(\.isFlagged)) { $0.id.eq($1.remindersListID) }
            .select { ($0.title, $1.title) }
        try assertQuery(
            query,
            sql: #"SELECT "remindersLists"."title", "reminders"."title" FROM "remindersLists" JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" WHERE "reminders"."isFlagged""#,
            rows: { try query.fetchAll(db).map(\.1) }, ["Groceries", "Doctor appointment", "Buy concert tickets"])
    }

    /// The merge holds for a left join too, as in StructuredQueries: the joined statement's
    /// WHERE filters the joined rows in the outer WHERE, so a list without a flagged reminder
    /// drops out. The same condition in the ON closure keeps it, with no reminder.
    @Test func aLeftJoinedStatementsWhereFiltersTheOuterRows() throws {
        let merged = RemindersList
            .leftJoin(Reminder.where(\.isFlagged)) { $0.id.eq($1.remindersListID) }
            .select { ($0.title, $1.title) }
        #expect(try merged.render().sql == #"SELECT "remindersLists"."title", "reminders"."title" FROM "remindersLists" LEFT JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" WHERE "reminders"."isFlagged""#)
        let mergedRows = try merged.fetchAll(db).map { "\($0.0) \($0.1 ?? "nil")" }.sorted()
        #expect(mergedRows == ["Family Buy concert tickets", "Personal Doctor appointment", "Personal Groceries"])

        let inOn = RemindersList
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) && $1.isFlagged }
            .select { ($0.title, $1.title) }
        #expect(try inOn.render().sql == #"SELECT "remindersLists"."title", "reminders"."title" FROM "remindersLists" LEFT JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" AND "reminders"."isFlagged""#)
        let inOnRows = try inOn.fetchAll(db).map { "\($0.0) \($0.1 ?? "nil")" }.sorted()
        #expect(inOnRows == ["Business nil", "Family Buy concert tickets", "Personal Doctor appointment", "Personal Groceries"])
    }

    @Test func rightAndFullJoinsMakeTheOtherSideOptional() throws {
        let right = Reminder
            .rightJoin(RemindersList.all) { $0.remindersListID.eq($1.id) }
            .where { reminder, _ in reminder.id.is(nil) }
        let rows = try right.fetchAll(db)
        #expect(try right.render().sql.contains(#"RIGHT JOIN "remindersLists" ON"#))
        #expect(rows.count == 1)
        #expect(rows.first?.0 == nil)
        #expect(rows.first?.1.title == "Business")

        let full = Tag
            .fullJoin(ReminderTag.all) { $0.id.eq($1.tagID) }
            .select { ($0.title, $1.reminderID) }
        #expect(try full.render().sql.contains(#"FULL JOIN "reminderTags" ON"#))
        let titles = try full.fetchAll(db).filter { $0.1 == nil }.compactMap(\.0).sorted()
        #expect(titles == ["Work", "someday"])
    }

    @Test func cursorsAndCounts() throws {
        let cursor = try Reminder.order(by: \.id).fetchCursor(db)
        var ids: [Int] = []
        while let reminder = try cursor.next() { ids.append(reminder.id) }
        #expect(ids == [1, 2, 3, 4, 5, 6])
        let titles = try Tag.order(by: \.id).select(\.title).fetchCursor(db)
        #expect(try titles.next() == "car")
        titles.close()
        #expect(try Reminder.where(\.isFlagged).fetchCount(db) == 3)
        #expect(try RemindersList.group(by: \.id).leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }.fetchCount(db) == 3)
    }

    /// The loop cairn-bench's W6 runs: one array, emptied and refilled from a new cursor over
    /// the same cached statement each time; every refill holds what `fetchAll` returns.
    @Test func cursorRefillsAKeptArray() throws {
        let query = Reminder.order(by: \.id)
        var kept: [Reminder] = []
        for _ in 0..<3 {
            kept.removeAll(keepingCapacity: true)
            let cursor = try query.fetchCursor(db)
            while let reminder = try cursor.next() { kept.append(reminder) }
            #expect(try cursor.next() == nil)
            #expect(kept.map(\.id) == [1, 2, 3, 4, 5, 6])
            #expect(kept.map(\.title) == (try query.fetchAll(db)).map(\.title))
        }
    }

    @Test func sameShapeSameSQLText() throws {
        let first = try Reminder.where { $0.title.eq("Groceries") }.render()
        let second = try Reminder.where { $0.title.eq("Haircut") }.render()
        #expect(first.sql == second.sql)
        #expect(first.arguments != second.arguments)
    }
}
