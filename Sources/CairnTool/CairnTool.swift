import Foundation

/// The `cairn` command: looks inside Cairn stores, Core Data and SwiftData stores written on
/// Apple platforms, and plain SQLite files.
public enum CairnTool {
    static let commands: [(spec: CommandSpec, run: @Sendable (ParsedArguments, Console) throws -> Void)] = [
        (InfoCommand.spec, InfoCommand.run),
        (QueryCommand.spec, QueryCommand.run),
        (ExportCommand.spec, ExportCommand.run),
        (SQLCommand.spec, SQLCommand.run),
        (ImportCommand.spec, ImportCommand.run),
    ]

    static var usage: String {
        var text = """
            usage: cairn <command> [arguments] [options]

            Reads Cairn stores, Core Data and SwiftData stores (opened read-only) and SQLite files.

            commands:

            """
        let width = (commands.map(\.spec.name.count).max() ?? 0) + 2
        for (spec, _) in commands {
            text += "  " + spec.name.padding(toLength: width, withPad: " ", startingAt: 0) + spec.summary + "\n"
        }
        text += "\n'cairn <command> --help' shows a command's arguments and options.\n"
        return text
    }

    /// Runs the tool with `arguments` (without the program name) on this process's standard
    /// output and error, and returns the exit status: 0 done, 1 failed, 2 bad usage.
    public static func main(_ arguments: [String]) -> Int32 {
        let console = Console.standard()
        defer { console.flush() }
        return run(arguments, console: console)
    }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            console.out(usage)
            return arguments.isEmpty ? 2 : 0
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            console.error("cairn: unknown command '\(name)'; commands: \(commands.map(\.spec.name).joined(separator: ", "))\n")
            return 2
        }
        do {
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: command.spec)
            if parsed.wantsHelp {
                console.out(command.spec.usage)
                return 0
            }
            try command.run(parsed, console)
            console.flush()
            return 0
        } catch let error as ToolError {
            console.error("cairn \(name): \(error.message)\n")
            return error.isUsage ? 2 : 1
        } catch {
            console.error("cairn \(name): \(error)\n")
            return 1
        }
    }
}
