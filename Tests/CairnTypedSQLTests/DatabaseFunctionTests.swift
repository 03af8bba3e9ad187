import Cairn
import CairnTestSupport
import Testing

@DatabaseFunction
func exclaim(_ text: String) -> String {
    text + "!"
}

@DatabaseFunction("cairn_initials", isDeterministic: true)
func initials(of text: String, limit: Int?) -> String? {
    let letters = text.split(separator: " ").compactMap(\.first).map(String.init)
    guard !letters.isEmpty else { return nil }
    return letters.prefix(limit ?? letters.count).joined()
}

struct FunctionFailure: Error, CustomStringConvertible {
    var description: String { "no reminders on Sundays" }
}

@DatabaseFunction
func refuse(_ id: Int) throws -> Int {
    throw FunctionFailure()
}

/// The titles `noteTitleChange` was called with.
let changedTitles = Collected<String>()

@DatabaseFunction
func noteTitleChange(_ title: String) {
    changedTitles.append(title)
}

@Suite("Typed SQL: @DatabaseFunction")
struct DatabaseFunctionTests {
    let db: Database

    init() throws {
        db = try RemindersDatabase.make()
        db.add(function: $exclaim)
        db.add(function: $initials)
        db.add(function: $refuse)
        db.add(function: $noteTitleChange)
    }

    @Test func aFunctionReturningNothingRunsForItsEffectFromATrigger() throws {
        // SQLiteData's Reminders example calls Swift from a trigger with `Values($function())`.
        let trigger = Reminder.createTemporaryTrigger(
            "note_titles", after: .update { $0.title } forEachRow: { _, new in Values($noteTitleChange(new.title)) })
        #expect(try trigger.render().sql.hasSuffix(#"BEGIN SELECT "noteTitleChange"("new"."title"); END"#))
        try trigger.execute(db)
        let before = changedTitles.values.count
        try Reminder.where { $0.id.lte(2) }.update { $0.title += "?" }.execute(db)
        #expect(changedTitles.values.dropFirst(before).sorted() == ["Groceries?", "Haircut?"])
        // Selected directly, it reads as `()` (SQL NULL).
        let results: [Void] = try Values($noteTitleChange("direct")).fetchAll(db)
        #expect(results.count == 1)
        #expect(changedTitles.values.last == "direct")
    }

    @Test func calledInSelectAndWhere() throws {
        let query = Reminder.where { $exclaim($0.title).eq("Haircut!") }.select { $exclaim($0.title) }
        try assertQuery(
            query,
            sql: #"SELECT "exclaim"("reminders"."title") FROM "reminders" WHERE "exclaim"("reminders"."title") = ?"#,
            rows: { try query.fetchAll(db) }, ["Haircut!"])
        #expect($exclaim.name == "exclaim")
        #expect(!$exclaim.isDeterministic)
    }

    @Test func namedOptionalAndBoundArguments() throws {
        let query = Reminder.order(by: \.id).limit(2).select { $initials(of: $0.title, limit: Optional(1)) }
        try assertQuery(
            query,
            sql: #"SELECT "cairn_initials"("reminders"."title", ?) FROM "reminders" ORDER BY "reminders"."id" ASC LIMIT ?"#,
            rows: { try query.fetchAll(db) }, ["G", "H"])
        let all = Reminder.where { $0.id.eq(3) }.select { $initials(of: $0.title, limit: Int?.none) }
        #expect(try all.fetchAll(db) == ["Da"])
        #expect($initials.isDeterministic)
    }

    @Test func thrownErrorsAndUndecodableArgumentsFailTheStatement() throws {
        #expect {
            try Reminder.select { $refuse($0.id) }.fetchAll(db)
        } throws: { error in
            "\(error)".contains("no reminders on Sundays")
        }
        #expect {
            try #sql("SELECT exclaim(NULL)", as: String.self).fetchAll(db)
        } throws: { error in
            "\(error)".contains("argument 1 (text) of exclaim(…) is NULL, which does not decode as String")
        }
    }
}
