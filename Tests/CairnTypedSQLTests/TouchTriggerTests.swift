import Cairn
import Foundation
import Testing

/// A row with a date column in each of Cairn's date storages.
@Table
struct Stamp: Hashable, Sendable {
    let id: Int
    var note = ""
    var touches = 0
    var at: Date?
    @Column(as: Date.TimeIntervalSinceReferenceDateRepresentation?.self) var referenceAt: Date?
    @Column(as: Date.UnixTimeRepresentation?.self) var unixAt: Date?
    @Column(as: Date.ISO8601Representation?.self) var isoAt: Date?
}

@Suite("Typed SQL: touch triggers (.insert(touch:), .update(touch:))")
struct TouchTriggerTests {
    let db: Database

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: """
            CREATE TABLE "stamps" ("id" INTEGER PRIMARY KEY, "note" TEXT NOT NULL DEFAULT '',
              "touches" INTEGER NOT NULL DEFAULT 0, "at" TEXT, "referenceAt" REAL, "unixAt" REAL,
              "isoAt" TEXT)
            """)
    }

    /// Whether `date` is the time the trigger ran: between `start` and now, to SQLite's
    /// millisecond (and a conversion's rounding).
    func isNow(_ date: Date?, since start: Date) -> Bool {
        guard let date else { return false }
        return date >= start.addingTimeInterval(-0.002) && date <= Date().addingTimeInterval(0.002)
    }

    @Test func insertTouchRunsTheUpdatesOnTheInsertedRowOnly() throws {
        let trigger = Stamp.createTemporaryTrigger("count", after: .insert(touch: { $0.touches += 1 }))
        #expect(try trigger.render().sql == #"CREATE TEMPORARY TRIGGER "count" AFTER INSERT ON "stamps" FOR EACH ROW BEGIN UPDATE "stamps" SET "touches" = "stamps"."touches" + 1 WHERE "stamps"."rowid" = "new"."rowid"; END"#)
        try trigger.execute(db)
        try Stamp.insert { Stamp(id: 1, note: "a"); Stamp(id: 2, note: "b", touches: 10) }.execute(db)
        try Stamp.insert { Stamp(id: 3, note: "c") }.execute(db)
        #expect(try Stamp.order(by: \.id).select(\.touches).fetchAll(db) == [1, 11, 1])
    }

    @Test func eachDateStorageIsStampedWithTheCurrentDate() throws {
        try Stamp.createTemporaryTrigger(after: .insert(touch: \.at)).execute(db)
        try Stamp.createTemporaryTrigger(after: .insert(touch: \.referenceAt)).execute(db)
        try Stamp.createTemporaryTrigger(after: .insert(touch: \.unixAt)).execute(db)
        try Stamp.createTemporaryTrigger(after: .insert(touch: \.isoAt)).execute(db)
        let start = Date()
        try Stamp.insert { Stamp(id: 1) }.execute(db)
        let stamp = try #require(try Stamp.find(1).fetchOne(db))
        #expect(isNow(stamp.at, since: start))
        #expect(isNow(stamp.referenceAt, since: start))
        #expect(isNow(stamp.unixAt, since: start))
        #expect(isNow(stamp.isoAt, since: start))
        // Stored as each column stores dates: text, REAL since 2001, REAL since 1970, text.
        let raw = try #require(try db.fetchOne(sql: #"""
            SELECT "at", typeof("referenceAt"), "unixAt" - "referenceAt", "isoAt" FROM "stamps"
            """#) { row in
            (try row.decode(String.self, at: 0), try row.decode(String.self, at: 1), try row.decode(Double.self, at: 2),
             try row.decode(String.self, at: 3))
        })
        #expect(raw.0.count == 23 && raw.0.dropFirst(10).hasPrefix(" ") && raw.0.dropFirst(19).hasPrefix("."))
        #expect(stamp.at.map { .text(raw.0) == $0.databaseValue } == true)
        #expect(raw.1 == "real")
        #expect(abs(raw.2 - Date.timeIntervalBetween1970AndReferenceDate) < 1)
        #expect(raw.3 == raw.0)
    }

    @Test func theDateSQLOfATouchTriggerIsTheColumnsOwn() throws {
        let sql = try Stamp.createTemporaryTrigger("t", after: .update(touch: \.referenceAt)).render().sql
        #expect(sql == #"CREATE TEMPORARY TRIGGER "t" AFTER UPDATE ON "stamps" FOR EACH ROW BEGIN UPDATE "stamps" SET "referenceAt" = ((round(julianday('now') * 86400000.0) - 211845067200000) / 1000.0) WHERE "stamps"."rowid" = "new"."rowid"; END"#)
        let text = try Stamp.createTemporaryTrigger("t", after: .update(touch: \.at)).render().sql
        #expect(text.contains(#"SET "at" = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE"#))
        let iso = try Stamp.createTemporaryTrigger("t", after: .update(touch: \.isoAt)).render().sql
        #expect(iso.contains(#"SET "isoAt" = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE"#))
        // A date given instead of the default.
        let fixed = Date(timeIntervalSinceReferenceDate: 5.25)
        try Stamp.createTemporaryTrigger("t", after: .update(touch: \.at, date: #bind(fixed))).execute(db)
        try Stamp.insert { Stamp(id: 1) }.execute(db)
        try Stamp.find(1).update { $0.note = "x" }.execute(db)
        #expect(try Stamp.find(1).fetchOne(db)?.at == fixed)
    }

    @Test func updateOfSomeColumnsWithTouchUpdatesRendersItsColumns() throws {
        let trigger = Stamp.createTemporaryTrigger(
            "of", after: .update(of: { ($0.note, $0.at) }, touch: { $0.touches += 1 }))
        #expect(try trigger.render().sql == #"CREATE TEMPORARY TRIGGER "of" AFTER UPDATE OF "note", "at" ON "stamps" FOR EACH ROW BEGIN UPDATE "stamps" SET "touches" = "stamps"."touches" + 1 WHERE "stamps"."rowid" = "new"."rowid"; END"#)
        try trigger.execute(db)
        try Stamp.insert { Stamp(id: 1) }.execute(db)
        try Stamp.find(1).update { $0.note = "a" }.execute(db)
        try Stamp.find(1).update { $0.touches = 7 }.execute(db)  // not a column it watches
        #expect(try Stamp.find(1).select(\.touches).fetchOne(db) == 7)
        try Stamp.find(1).update { $0.at = Optional(Date(timeIntervalSinceReferenceDate: 1)) }.execute(db)
        #expect(try Stamp.find(1).select(\.touches).fetchOne(db) == 8)
    }

    @Test func aTouchThatSetsNothingSaysWhy() throws {
        let trigger = Stamp.createTemporaryTrigger("nothing", after: .insert(touch: { _ in }))
        let error = #expect(throws: TypedSQLError.self) { try trigger.execute(db) }
        #expect(error?.message.contains("the touch closure sets no column of stamps") == true)
    }

    @Test func theISOStampIsTheTextTheRepresentationWrites() throws {
        try Stamp.createTemporaryTrigger(after: .insert(touch: \.isoAt)).execute(db)
        try Stamp.insert { Stamp(id: 1) }.execute(db)
        let stamped = try #require(try db.fetchOne(sql: #"SELECT "isoAt" FROM "stamps""#) { try $0.decode(String.self, at: 0) })
        let date = try #require(try Stamp.find(1).fetchOne(db)?.isoAt)
        // Written back through the representation, the date is the same text: stamps and values
        // the application writes sort together.
        let written = try Date.ISO8601Representation(queryOutput: date).databaseValueForBinding()
        #expect(written == .text(stamped))
    }

    @Test func updateTouchOfSomeColumnsStampsOnlyWhenTheyChange() throws {
        try Stamp.insert { Stamp(id: 1, note: "a"); Stamp(id: 2, note: "b") }.execute(db)
        try Stamp.createTemporaryTrigger(after: .update(of: { $0.note }, touch: \.at)).execute(db)
        try Stamp.createTemporaryTrigger(
            after: .update(touch: { $0.touches += 1 }, when: { old, new in old.note.neq(new.note) })
        ).execute(db)
        let start = Date()
        try Stamp.find(1).update { $0.note = "changed" }.execute(db)
        try Stamp.find(2).update { $0.touches = 5 }.execute(db)  // another column
        let rows = try Stamp.order(by: \.id).fetchAll(db)
        #expect(isNow(rows[0].at, since: start))
        #expect(rows[1].at == nil)
        #expect(rows.map(\.touches) == [1, 5])
    }
}
