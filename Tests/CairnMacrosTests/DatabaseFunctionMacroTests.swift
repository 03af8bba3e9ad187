@testable import CairnMacros
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

            var $exclaim: Cairn.ScalarDatabaseFunction<String, String> {
                Cairn.ScalarDatabaseFunction("exclaim", isDeterministic: false) { (p0: String) in
                    exclaim(p0)
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
                "public static var $clamp: Cairn.ScalarDatabaseFunction<Int, Int?, Int> {",
                #"Cairn.ScalarDatabaseFunction("cairn_clamp", isDeterministic: true) { (p0: Int, p1: Int?) in"#,
                "try clamp(value: p0, to: p1)",
            ])
    }

    @Test func noParameters() {
        assertExpansionContains(
            "@DatabaseFunction func answer() -> Int { 42 }",
            [#"var $answer: Cairn.ScalarDatabaseFunction<Int> {"#, "{ () in", "answer()"])
    }

    @Test func aFunctionReturningNothingHasAVoidResult() {
        assertExpansionContains(
            "@DatabaseFunction func log(_ text: String) { }",
            ["var $log: Cairn.ScalarDatabaseFunction<String, Cairn.DatabaseVoid> {", "{ (p0: String) in", "log(p0)"])
        assertExpansionContains(
            "@DatabaseFunction func ping() -> Void { }", ["var $ping: Cairn.ScalarDatabaseFunction<Cairn.DatabaseVoid> {"])
    }

    @Test func diagnostics() {
        assertExpansionContains(
            "@DatabaseFunction var x = 1", [],
            diagnostics: ["1:1: @DatabaseFunction can only be applied to a function"])
    }
}
