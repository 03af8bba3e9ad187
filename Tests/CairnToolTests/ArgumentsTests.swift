import Testing

@testable import CairnTool

@Suite("cairn's command line")
struct ArgumentsTests {
    let spec = CommandSpec(
        name: "query", positionals: ["STORE", "ENTITY"], summary: "rows",
        options: [.init(name: "where", value: "FORMAT", help: "a filter"), .init(name: "explain", value: nil, help: "plan")],
        details: "")

    @Test("positionals, --name value, --name=value, flags and -- are read in order")
    func parse() throws {
        let parsed = try ParsedArguments(["a.sqlite", "--where=x > 1", "--explain", "--", "-Odd"], spec: spec)
        #expect(parsed.positionals == ["a.sqlite", "-Odd"])
        #expect(parsed.values == ["where": "x > 1"])
        #expect(parsed.flags == ["explain"])
        #expect(try ParsedArguments(["a", "B", "--where", "y"], spec: spec).values["where"] == "y")
    }

    @Test("each mistake is an error that says what to do", arguments: [
        (["a", "B", "--wher", "x"], "unknown option '--wher' for 'cairn query'; valid options: --where, --explain, --help"),
        (["a", "B", "--where"], "--where needs a value (FORMAT)"),
        (["a", "B", "--explain=yes"], "--explain takes no value"),
        (["a", "B", "C"], "'cairn query' takes 2 arguments; unexpected 'C'"),
    ])
    func mistakes(arguments: [String], message: String) {
        #expect(throws: ToolError.self) { _ = try ParsedArguments(arguments, spec: spec) }
        do {
            _ = try ParsedArguments(arguments, spec: spec)
        } catch {
            #expect(error.message == message)
            #expect(error.isUsage)
        }
    }

    @Test("a missing argument shows the command's usage")
    func missing() {
        do {
            _ = try ParsedArguments(["a"], spec: spec)
            Issue.record("no error")
        } catch {
            #expect(error.message.hasPrefix("'cairn query' needs ENTITY\n\nusage: cairn query STORE ENTITY [options]\n"))
        }
    }

    @Test("--help shows the usage; an unknown command lists the commands")
    func help() throws {
        let help = try Binary.cairn("query", "--help")
        #expect(help.status == 0)
        #expect(help.out.hasPrefix("usage: cairn query STORE ENTITY [options]\n"))
        #expect(help.out.contains("  --where FORMAT"))
        let top = try Binary.cairn("--help")
        #expect(top.out.contains("  import  add rows from a .csv or .json file"))
        let unknown = try Binary.cairn("show")
        #expect(unknown.status == 2)
        #expect(unknown.err == "cairn: unknown command 'show'; commands: info, query, export, sql, import\n")
    }
}
