import Cairn
import CairnTestSupport
import Foundation
import Testing

// `@DatabaseFunction` forms from StructuredQueries' documentation and tests: default
// arguments, `as:` representations, computed properties, static and instance members.

@DatabaseFunction
func concat(first: String = "", second: String = "") -> String {
    first + second
}

@DatabaseFunction
func describe(_ text: String? = nil) -> String {
    text ?? "none"
}

@DatabaseFunction(as: ((Date.UnixTimeRepresentation) -> Date.UnixTimeRepresentation).self)
func nextDay(_ date: Date) -> Date {
    date.addingTimeInterval(86_400)
}

@DatabaseFunction(as: (([String].JSONRepresentation, Int) -> [String].JSONRepresentation).self)
func jsonDropFirst(_ strings: [String], _ k: Int = 1) -> [String] {
    Array(strings.dropFirst(k))
}

@DatabaseFunction(as: ((any Sequence<[String].JSONRepresentation>) -> [String].JSONRepresentation).self)
func jsonJoined(_ arrays: some Sequence<[String]>) -> [String] {
    arrays.flatMap(\.self)
}

@DatabaseFunction
var epoch: Date {
    Date(timeIntervalSince1970: 0)
}

@DatabaseFunction("epochSeconds", as: Date.UnixTimeRepresentation.self)
var seconds: Date {
    Date(timeIntervalSince1970: 60)
}

@DatabaseFunction
var unavailable: Int {
    get throws { throw FunctionFailure() }
}

enum Scoring {
    @DatabaseFunction(isDeterministic: true)
    static func `default`() -> Int { 42 }
}

struct Greeter: Sendable {
    let greeting: String

    @DatabaseFunction
    func greet(_ name: String) -> String { greeting + ", " + name }
}

final class Audit: Sendable {
    let prefix: String
    init(prefix: String) { self.prefix = prefix }

    @DatabaseFunction
    func tagged(_ titles: some Sequence<String>) -> String { prefix + titles.joined(separator: "+") }
}

@Suite("Typed SQL: @DatabaseFunction forms")
struct DatabaseFunctionFormsTests {
    let db: Database
    let greeter = Greeter(greeting: "Hello")

    init() throws {
        db = try RemindersDatabase.make()
        db.add(function: $concat)
        db.add(function: $describe)
        db.add(function: $nextDay)
        db.add(function: $jsonDropFirst)
        db.add(function: $jsonJoined)
        db.add(function: $epoch)
        db.add(function: $seconds)
        db.add(function: $unavailable)
        db.add(function: Scoring.$default)
        db.add(function: greeter.$greet)
    }

    @Test func defaultArguments() throws {
        let both = Values($concat(first: "foo", second: "bar"))
        #expect(try both.render().sql == #"SELECT "concat"(?, ?)"#)
        #expect(try both.fetchAll(db) == ["foobar"])
        #expect(try Values($concat(second: "bar")).fetchAll(db) == ["bar"])
        #expect(try Values($concat()).fetchAll(db) == [""])
        #expect(try Values($describe()).fetchAll(db) == ["none"])
        #expect(try Values($describe(Optional("it"))).fetchAll(db) == ["it"])
    }

    @Test func representationsDecodeArgumentsAndEncodeResults() throws {
        let query = Values($nextDay(#bind(Date(timeIntervalSince1970: 0), as: Date.UnixTimeRepresentation.self)))
        let rendered = try query.render()
        #expect(rendered.sql == #"SELECT "nextDay"(?)"#)
        #expect(rendered.arguments == [.real(0)])
        #expect(try query.fetchAll(db) == [Date(timeIntervalSince1970: 86_400)])
        // SQL sees the representation: seconds since 1970.
        #expect(try #sql("SELECT \"nextDay\"(0)", as: Int.self).fetchAll(db) == [86_400])

        let dropped = Values($jsonDropFirst(#bind(["hello", "world", "moon"], as: [String].JSONRepresentation.self), 2))
        #expect(try dropped.fetchAll(db) == [["moon"]])
        let defaulted = Values($jsonDropFirst(#bind(["hello", "world"], as: [String].JSONRepresentation.self)))
        #expect(try defaulted.fetchAll(db) == [["world"]])
    }

    @Test func aggregateRepresentations() throws {
        let query = Reminder.where { $0.id.lte(2) }.select {
            $jsonJoined(#sql("json_array(\($0.title), \($0.notes))", as: [String].JSONRepresentation.self))
        }
        #expect(try query.render().sql.hasPrefix(#"SELECT "jsonJoined"(json_array("reminders"."title", "reminders"."notes"))"#))
        #expect(try query.fetchAll(db) == [["Groceries", "Milk, eggs", "Haircut", ""]])
    }

    @Test func computedPropertiesAreExpressions() throws {
        #expect(try Values($epoch).render().sql == #"SELECT "epoch"()"#)
        #expect(try Values($epoch).fetchAll(db) == [Date(timeIntervalSince1970: 0)])
        #expect(try Values($seconds).render().sql == #"SELECT "epochSeconds"()"#)
        #expect(try #sql("SELECT \"epochSeconds\"()", as: Int.self).fetchAll(db) == [60])
        #expect {
            try Values($unavailable).fetchAll(db)
        } throws: { error in
            "\(error)".contains("unavailable: no reminders on Sundays")
        }
    }

    @Test func staticAndInstanceMembers() throws {
        #expect(try Values(Scoring.$default()).render().sql == #"SELECT "default"()"#)
        #expect(try Values(Scoring.$default()).fetchAll(db) == [42])
        #expect(Scoring.$default.isDeterministic)
        let query = Reminder.where { $0.id.eq(1) }.select { greeter.$greet($0.title) }
        #expect(try query.fetchAll(db) == ["Hello, Groceries"])
    }

    @Test func aClassInstanceIsHeldWeakly() throws {
        var audit: Audit? = Audit(prefix: "#")
        weak let released = audit
        guard let function = audit?.$tagged else { return }
        db.add(function: function)
        let query = Reminder.where { $0.id.lte(2) }.select { function($0.title) }
        #expect(try query.fetchAll(db) == ["#Groceries+Haircut"])
        audit = nil
        #expect(released == nil)
        #expect {
            try query.fetchAll(db)
        } throws: { error in
            "\(error)".contains("tagged(…) was called after the instance it belongs to was released")
        }
    }
}
