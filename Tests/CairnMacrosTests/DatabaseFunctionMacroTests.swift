@testable import CairnMacros
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import Testing

@Suite("@DatabaseFunction expansions")
struct DatabaseFunctionMacroTests {
    @Test func unlabeledParameter() {
        assertMacroExpansion(
            """
            @DatabaseFunction
            func exclaim(_ text: String) -> String {
                text + "!"
            }
            """,
            expandedSource: """
            func exclaim(_ text: String) -> String {
                text + "!"
            }

            func __macro_local_21exclaimIsolationProbefMu_() {
            }

            nonisolated var $exclaim: __macro_local_7exclaimfMu_ {
                #_DatabaseFunctionIsolationCheck(__macro_local_21exclaimIsolationProbefMu_)
                return __macro_local_7exclaimfMu_(base: Cairn.ScalarDatabaseFunction<String, String>("exclaim", isDeterministic: false, parameterNames: ["text"]) { (p0: String) in
                    exclaim(p0)
                })
            }

            nonisolated struct __macro_local_7exclaimfMu_: Cairn.DatabaseFunctionWrapper {
                let base: Cairn.ScalarDatabaseFunction<String, String>
                func callAsFunction(_ p0: some Cairn.QueryExpression<String>) -> Cairn.SQLQueryExpression<String> {
                    base(p0)
                }
            }
            """)
    }

    @Test func nameLabelsThrowsAndDeterminism() {
        assertExpansionContains(
            """
            @DatabaseFunction("cairn_clamp", isDeterministic: true)
            public static func clamp(value: Int, to limit: Int?) throws -> Int { 0 }
            """,
            [
                "public static nonisolated var $clamp: __macro_local_5clampfMu_ {",
                #"Cairn.ScalarDatabaseFunction<Int, Int?, Int>("cairn_clamp", isDeterministic: true, parameterNames: ["value", "limit"]) { (p0: Int, p1: Int?) in"#,
                "try clamp(value: p0, to: p1)",
                "public nonisolated struct __macro_local_5clampfMu_: Cairn.DatabaseFunctionWrapper {",
                "public func callAsFunction(value p0: some Cairn.QueryExpression<Int>, to p1: some Cairn.QueryExpression<Int?>) -> Cairn.SQLQueryExpression<Int> {",
            ])
    }

    @Test func defaultArgumentsCarryOverAndNilBecomesTheTypesNone() {
        assertExpansionContains(
            #"@DatabaseFunction func dateTime(_ format: String? = nil, offset: Int = 1) -> Date? { nil }"#,
            [
                "func callAsFunction(_ p0: some Cairn.QueryExpression<String?> = String?.none, offset p1: some Cairn.QueryExpression<Int> = 1) -> Cairn.SQLQueryExpression<Date?> {",
                "dateTime(p0, offset: p1)",
            ])
    }

    @Test func noParameters() {
        assertExpansionContains(
            "@DatabaseFunction func answer() -> Int { 42 }",
            ["Cairn.ScalarDatabaseFunction<Int>(", "{ () in", "answer()", "func callAsFunction() -> Cairn.SQLQueryExpression<Int> {"])
    }

    @Test func aFunctionReturningNothingHasAVoidResult() {
        assertExpansionContains(
            "@DatabaseFunction func log(_ text: String) { }",
            ["Cairn.ScalarDatabaseFunction<String, Cairn.DatabaseVoid>(", "{ (p0: String) in", "log(p0)"])
        assertExpansionContains(
            "@DatabaseFunction func ping() -> Void { }", ["Cairn.ScalarDatabaseFunction<Cairn.DatabaseVoid>("])
    }

    @Test func aSequenceParameterMakesAnAggregate() {
        assertExpansionContains(
            "@DatabaseFunction func sum(of values: some Sequence<Int>) -> Int { 0 }",
            [
                #"Cairn.AggregateDatabaseFunction<Int, Int>("sum", isDeterministic: false, parameterNames: ["values"]) { (rows: [Int]) in"#,
                "sum(of: rows)",
                "func callAsFunction(of p0: some Cairn.QueryExpression<Int>, distinct: Swift.Bool = false, order: (any Cairn.QueryOrderingTerm)? = nil, filter: (any Cairn.QueryExpression<Swift.Bool>)? = nil) -> Cairn.SQLQueryExpression<Int> {",
                "base(p0, distinct: distinct, order: order, filter: filter)",
                // StructuredQueries' unlabeled one-argument spellings with `distinct:` and `order:`.
                "func callAsFunction(_ p0: some Cairn.QueryExpression<Int>, distinct: Swift.Bool, order: (any Cairn.QueryOrderingTerm)? = nil, filter:",
                "func callAsFunction(_ p0: some Cairn.QueryExpression<Int>, order: any Cairn.QueryOrderingTerm, filter:",
                "base(p0, order: order, filter: filter)",
            ])
        assertExpansionContains(
            "@DatabaseFunction func joined(_ titles: any Sequence<String>) throws -> String { \"\" }",
            [#"Cairn.AggregateDatabaseFunction<String, String>("joined""#, "try joined(rows)"])
    }

    @Test func anAggregateOfTuplesTakesOneArgumentPerElement() {
        assertExpansionContains(
            "@DatabaseFunction func joined(_ rows: some Sequence<(String, separator: String)>) -> String? { nil }",
            [
                #"Cairn.AggregateDatabaseFunction<String, String, String?>("joined", isDeterministic: false, parameterNames: ["", "separator"])"#,
                "{ (rows: [(String, String)]) in",
                "joined(rows.map { row -> (String, separator: String) in row })",
                "func callAsFunction(_ p0: some Cairn.QueryExpression<String>, separator p1: some Cairn.QueryExpression<String>, distinct: Swift.Bool = false, order: (any Cairn.QueryOrderingTerm)? = nil,",
            ])
    }

    @Test func aRowParameterIsATypedInputLikeAnyOther() {
        // StructuredQueries' `isValid(_:_:)`: SQL passes the row as its columns, which the
        // typed function's `Reminder` input reads.
        assertMacroExpansion(
            """
            @DatabaseFunction
            func isValid(_ reminder: Reminder, _ override: Bool = false) -> Bool {
                !reminder.title.isEmpty || override
            }
            """,
            expandedSource: """
            func isValid(_ reminder: Reminder, _ override: Bool = false) -> Bool {
                !reminder.title.isEmpty || override
            }

            func __macro_local_21isValidIsolationProbefMu_() {
            }

            nonisolated var $isValid: __macro_local_7isValidfMu_ {
                #_DatabaseFunctionIsolationCheck(__macro_local_21isValidIsolationProbefMu_)
                return __macro_local_7isValidfMu_(base: Cairn.ScalarDatabaseFunction<Reminder, Bool, Bool>("isValid", isDeterministic: false, parameterNames: ["reminder", "override"]) { (p0: Reminder, p1: Bool) in
                    isValid(p0, p1)
                })
            }

            nonisolated struct __macro_local_7isValidfMu_: Cairn.DatabaseFunctionWrapper {
                let base: Cairn.ScalarDatabaseFunction<Reminder, Bool, Bool>
                func callAsFunction(_ p0: some Cairn.QueryExpression<Reminder>, _ p1: some Cairn.QueryExpression<Bool> = false) -> Cairn.SQLQueryExpression<Bool> {
                    base(p0, p1)
                }
            }
            """)
        assertExpansionContains(
            "@DatabaseFunction func tagged(_ tags: some Sequence<Tag>) -> String { \"\" }",
            [
                #"Cairn.AggregateDatabaseFunction<Tag, String>("tagged", isDeterministic: false, parameterNames: ["tags"]) { (rows: [Tag]) in"#,
                "func callAsFunction(_ p0: some Cairn.QueryExpression<Tag>, distinct: Swift.Bool = false,",
            ])
    }

    @Test func representationsReplaceTheSQLTypes() {
        assertExpansionContains(
            """
            @DatabaseFunction(as: (([String].JSONRepresentation, Int) -> [String].JSONRepresentation).self)
            func dropFirst(_ strings: [String], _ k: Int = 1) -> [String] { [] }
            """,
            [
                "Cairn.ScalarDatabaseFunction<[String].JSONRepresentation, Int, [String].JSONRepresentation>(",
                "{ (p0: [String], p1: Int) in",
                "func callAsFunction(_ p0: some Cairn.QueryExpression<[String].JSONRepresentation>, _ p1: some Cairn.QueryExpression<Int> = 1) -> Cairn.SQLQueryExpression<[String].JSONRepresentation> {",
            ])
        assertExpansionContains(
            """
            @DatabaseFunction(as: ((any Sequence<[String].JSONRepresentation>) -> [String].JSONRepresentation).self)
            func jsonJoined(_ arrays: some Sequence<[String]>) -> [String] { [] }
            """,
            ["Cairn.AggregateDatabaseFunction<[String].JSONRepresentation, [String].JSONRepresentation>(", "{ (rows: [[String]]) in"])
    }

    @Test func aComputedPropertyIsAnExpression() {
        assertExpansionContains(
            """
            @DatabaseFunction("epoch", as: Date.UnixTimeRepresentation.self)
            var seconds: Date { Date() }
            """,
            [
                "nonisolated var $seconds: __macro_local_7secondsfMu_ {",
                #"Cairn.ScalarDatabaseFunction<Date.UnixTimeRepresentation>("epoch", isDeterministic: false) { () in"#,
                "nonisolated struct __macro_local_7secondsfMu_: Cairn.DatabaseFunctionWrapper, Cairn.QueryExpression {",
                "typealias QueryValue = Date.UnixTimeRepresentation",
                "var sqlExpression: Cairn.SQLExpression { base().sqlExpression }",
            ])
        assertExpansionContains(
            "@DatabaseFunction var failing: Int { get throws { 0 } }", ["{ () in try failing }"])
    }

    @Test func instanceMembersCallThroughSelf() {
        assertExpansionContains(
            """
            struct Logger: Sendable {
                @DatabaseFunction func log(_ message: String) {}
            }
            """,
            ["var $log: __macro_local_3logfMu_ {", "self.log(p0)"])
    }

    @Test func classInstancesAreHeldWeakly() {
        assertExpansionContains(
            """
            final class Audit: Sendable {
                @DatabaseFunction func record(_ title: String) -> Int { 0 }
            }
            """,
            [
                "{ [weak self] (p0: String) in",
                #"guard let self else { throw Cairn.DatabaseFunctionOwnerReleased(function: "record") }"#,
                "return self.record(p0)",
            ])
    }

    @Test func theIsolationProbeHasTheFunctionsIsolation() {
        // Under default main-actor isolation a plain probe is main-actor isolated, as the
        // function is; `nonisolated` and `@MainActor` carry over.
        assertExpansionContains(
            "@DatabaseFunction nonisolated func shout(_ text: String) -> String { text }",
            ["nonisolated func __macro_local_19shoutIsolationProbefMu_() {", "#_DatabaseFunctionIsolationCheck(__macro_local_19shoutIsolationProbefMu_)"])
        assertExpansionContains(
            "@MainActor @DatabaseFunction static func shout(_ text: String) -> String { text }",
            ["@MainActor static func __macro_local_19shoutIsolationProbefMu_() {", "static nonisolated var $shout:"])
    }

    @Test func aMainActorProbeFailsTheBuildNamingTheFix() throws {
        let file = Parser.parse(source: "#_DatabaseFunctionIsolationCheck(probe)")
        let node = try #require(file.statements.first?.item.as(MacroExpansionExprSyntax.self))
        let context = BasicMacroExpansionContext()
        #expect(try MainActorDatabaseFunctionCheckMacro.expansion(of: node, in: context).isEmpty)
        #expect(context.diagnostics.map(\.message) == [
            "a @DatabaseFunction must be 'nonisolated': SQLite calls it on the thread that runs the statement, "
                + "not on the main actor (under default main-actor isolation, write 'nonisolated func')",
        ])
        #expect(try DatabaseFunctionIsolationCheckMacro.expansion(of: node, in: BasicMacroExpansionContext()).isEmpty)
    }

    @Test func diagnostics() {
        assertExpansionContains(
            "@DatabaseFunction var x = 1", [],
            diagnostics: ["1:1: @DatabaseFunction can only be applied to a function or a computed property"])
        assertExpansionContains(
            "@DatabaseFunction(as: ((Int, Int) -> Int).self) func f(_ x: Int) -> Int { x }", [],
            diagnostics: ["1:1: 'as:' must list one representation for each of the function's 1 arguments"])
    }
}
