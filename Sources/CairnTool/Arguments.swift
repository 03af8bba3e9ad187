/// What a subcommand accepts: its positional arguments and its `--options`.
struct CommandSpec: Sendable {
    /// One `--name` option; `value` names its argument, nil for a flag.
    struct Option: Sendable {
        let name: String
        let value: String?
        let help: String

        /// `--model PATH`, which every command that reads entities accepts.
        static let model = Option(
            name: "model", value: "PATH", help: "an .xcdatamodeld/.xcdatamodel (or its contents file) for Apple stores")
        /// `--types key=type,…`, for stores that do not record dates and Bools.
        static let types = Option(
            name: "types", value: "key=type,…", help: "read attributes as these types (startedAt=date,isFavorite=bool)")
    }

    let name: String
    let positionals: [String]
    let summary: String
    let options: [Option]
    /// Lines shown after the options in `--help`: examples and notes.
    let details: String

    var usage: String {
        var text = "usage: cairn \(name) " + positionals.joined(separator: " ")
        if !options.isEmpty { text += " [options]" }
        text += "\n\n\(summary)\n"
        if !options.isEmpty {
            text += "\noptions:\n"
            let labels = options.map { "--\($0.name)" + ($0.value.map { " \($0)" } ?? "") }
            let width = (labels.map(\.count).max() ?? 0) + 2
            for (label, option) in zip(labels, options) {
                text += "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help + "\n"
            }
            text += "  " + "--help".padding(toLength: width, withPad: " ", startingAt: 0) + "show this help\n"
        }
        if !details.isEmpty { text += "\n" + details + "\n" }
        return text
    }
}

/// A command line split by a ``CommandSpec``: positional arguments in order, option values by
/// name, flags present.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var wantsHelp = false

    /// Splits `arguments` (after the subcommand). `--name value` and `--name=value` both work;
    /// `--` ends the options, so a positional may start with a dash.
    init(_ arguments: [String], spec: CommandSpec) throws(ToolError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            var name = String(argument.drop(while: { $0 == "-" }))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                let valid = (spec.options.map { "--" + $0.name } + ["--help"]).joined(separator: ", ")
                throw ToolError.usage("unknown option '\(argument)' for 'cairn \(spec.name)'; valid options: \(valid)")
            }
            if let valueName = option.value {
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.count {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw ToolError.usage("--\(name) needs a value (\(valueName))")
                }
            } else {
                guard inlineValue == nil else { throw ToolError.usage("--\(name) takes no value") }
                flags.insert(name)
            }
        }
        guard !wantsHelp else { return }
        let required = spec.positionals.filter { !$0.hasPrefix("[") }
        if positionals.count < required.count {
            let missing = required[positionals.count...].joined(separator: " ")
            throw ToolError.usage("'cairn \(spec.name)' needs \(missing)\n\n" + spec.usage)
        }
        if positionals.count > spec.positionals.count {
            let extra = positionals[spec.positionals.count...].map { "'\($0)'" }.joined(separator: ", ")
            throw ToolError.usage("'cairn \(spec.name)' takes \(spec.positionals.count) arguments; unexpected \(extra)")
        }
    }

    /// The integer value of `--name`, or nil when absent.
    func integer(_ name: String) throws(ToolError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw ToolError.usage("--\(name) needs a whole number of 0 or more, not '\(text)'")
        }
        return value
    }
}

/// A failure the tool reports on standard error: `usage` ones also exit with status 2.
struct ToolError: Error, CustomStringConvertible {
    let message: String
    let isUsage: Bool

    static func usage(_ message: String) -> ToolError { ToolError(message: message, isUsage: true) }
    static func failure(_ message: String) -> ToolError { ToolError(message: message, isUsage: false) }

    var description: String { message }
}
