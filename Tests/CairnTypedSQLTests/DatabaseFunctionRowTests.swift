import Cairn
import CairnTestSupport
import Testing

// `@DatabaseFunction`s that take whole `@Table` rows, as StructuredQueries' tests write them:
// SQL passes a row as its columns, and the function receives the decoded row.

@DatabaseFunction
func isUrgent(_ reminder: Reminder) -> Bool {
    reminder.isFlagged && reminder.priority == .high && !reminder.isCompleted
}

@DatabaseFunction
func isValid(_ reminder: Reminder, _ override: Bool = false) -> Bool {
    !reminder.title.isEmpty || override
}

@DatabaseFunction
func isLinked(_ link: ReminderTag?) -> Bool {
    link != nil
}

enum ShortTag: AliasName {}

@DatabaseFunction(as: ((TableAlias<Tag, ShortTag>) -> Bool).self)
func isShort(_ tag: Tag) -> Bool {
    tag.title.count <= 4
}

@DatabaseFunction
func tagged(_ tags: some Sequence<Tag>) -> String {
    tags.map { "#\($0.title)" }.joined(separator: " ")
}

@Suite("Typed SQL: @DatabaseFunction with row arguments")
struct DatabaseFunctionRowTests {
    let db: Database

    init() throws {
        db = try RemindersDatabase.make()
        db.add(function: $isUrgent)
        db.add(function: $isValid)
        db.add(function: $isLinked)
        db.add(function: $isShort)
        db.add(function: $tagged)
    }

    static let reminderColumns = #""reminders"."id", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."position", "reminders"."priority", "reminders"."remindersListID", "reminders"."status", "reminders"."title""#

    @Test func aRowIsPassedAsItsColumnsInWhereAndSelect() throws {
        let urgent = Reminder.where { $isUrgent($0) }.select(\.title)
        try assertQuery(
            urgent,
            sql: #"SELECT "reminders"."title" FROM "reminders" WHERE "isUrgent"("# + Self.reminderColumns + ")",
            rows: { try urgent.fetchAll(db) }, ["Groceries"])
        let flags = Reminder.order(by: \.id).select { $isUrgent($0) }
        #expect(try flags.fetchAll(db) == [true, false, false, false, false, false])
        #expect($isUrgent.databaseFunction.argumentCount == 10)
    }

    @Test func aRowBesideAValue() throws {
        let query = Reminder.order(by: \.id).limit(1).select { $isValid($0, true) }
        try assertQuery(
            query,
            sql: #"SELECT "isValid"("# + Self.reminderColumns + #", ?) FROM "reminders" ORDER BY "reminders"."id" ASC LIMIT ?"#,
            rows: { try query.fetchAll(db) }, [true])
        #expect($isValid.databaseFunction.argumentCount == 11)
        try Reminder.where { $0.id.eq(2) }.update { $0.title = "" }.execute(db)
        #expect(try Reminder.order(by: \.id).limit(2).select { $isValid($0) }.fetchAll(db) == [true, false])
    }

    @Test func anOptionalRowIsNilWhereTheOuterJoinFoundNone() throws {
        let query = Tag.order(by: \.id)
            .leftJoin(ReminderTag.all) { $0.id.eq($1.tagID) }
            .select { ($0.title, $isLinked($1)) }
        #expect(try query.render().sql.hasPrefix(
            #"SELECT "tags"."title", "isLinked"("reminderTags"."reminderID", "reminderTags"."tagID") FROM "tags""#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["car", "kids", "Personal", "Personal", "Personal", "Work", "someday"])
        #expect(rows.map(\.1) == [true, true, true, true, true, false, false])
    }

    @Test func aRowUnderAnAlias() throws {
        let query = Tag.as(ShortTag.self).where { $isShort($0) }.select(\.title)
        try assertQuery(
            query,
            sql: #"SELECT "shortTags"."title" FROM "tags" AS "shortTags" WHERE "isShort"("shortTags"."id", "shortTags"."title")"#,
            rows: { try query.fetchAll(db) }, ["car", "kids", "Work"])
    }

    @Test func anAggregateOfRows() throws {
        let query = Tag.select { $tagged($0) }
        try assertQuery(
            query, sql: #"SELECT "tagged"("tags"."id", "tags"."title") FROM "tags""#,
            rows: { try query.fetchAll(db) }, ["#car #kids #Personal #Work #someday"])
        let filtered = Tag.select { $tagged($0, filter: $0.id.lte(2)) }
        try assertQuery(
            filtered, sql: #"SELECT "tagged"("tags"."id", "tags"."title") FILTER (WHERE "tags"."id" <= ?) FROM "tags""#,
            rows: { try filtered.fetchAll(db) }, ["#car #kids"])
        // `ORDER BY` inside the call (SQLite 3.44 or later) follows the row's columns.
        #expect(try Tag.select { $tagged($0, order: $0.title.desc()) }.render().sql
            == #"SELECT "tagged"("tags"."id", "tags"."title" ORDER BY "tags"."title" DESC) FROM "tags""#)
    }

    @Test func aColumnThatDoesNotDecodeFailsTheStatementNamingFunctionParameterAndColumn() throws {
        #expect {
            try #sql(#"SELECT "isUrgent"(1, NULL, 0, 1, '', 0, 3, 1, 0, NULL)"#, as: Bool.self).fetchAll(db)
        } throws: { error in
            "\(error)".contains(
                #"argument 1 (reminder) of isUrgent(…) is a Reminder row in SQL arguments 1–10, and its column "title" is NULL, which does not decode as String"#)
        }
        #expect {
            try #sql(#"SELECT "isUrgent"(1, NULL, 0, 1, '', 0, 7, 1, 0, 'Milk')"#, as: Bool.self).fetchAll(db)
        } throws: { error in
            "\(error)".contains(#"its column "priority" is 7, which does not decode as Optional<Priority>"#)
        }
        #expect {
            try #sql(#"SELECT "isValid"(1, NULL, 0, 1, '', 0, 3, 1, 0, 'Milk', NULL)"#, as: Bool.self).fetchAll(db)
        } throws: { error in
            "\(error)".contains("argument 2 (override) of isValid(…) is NULL, which does not decode as Bool")
        }
        #expect {
            try #sql(#"SELECT "tagged"('one', 'car') FROM "tags""#, as: String.self).fetchAll(db)
        } throws: { error in
            "\(error)".contains(#"argument 1 (tags) of tagged(…) is a Tag row in SQL arguments 1–2, and its column "id" is 'one', which does not decode as Int"#)
        }
    }
}
