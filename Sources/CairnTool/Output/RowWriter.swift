/// How rows print.
enum OutputFormat: String, CaseIterable {
    /// Aligned columns with a header, for reading.
    case table
    /// A JSON array with one object per row, keyed by the model's names.
    case json
    /// A header line, then one RFC 4180 line per row.
    case csv

    init(option: String?) throws(ToolError) {
        guard let option else {
            self = .table
            return
        }
        guard let format = OutputFormat(rawValue: option.lowercased()) else {
            throw ToolError.usage("unknown --format '\(option)'; use one of: " + OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = format
    }
}

/// Writes rows of cells in one format. JSON and CSV stream; a table waits for every row, to
/// size its columns.
struct RowWriter {
    let format: OutputFormat
    let columns: [String]
    let console: Console
    private var pending: [[Cell]] = []
    private var rowCount = 0
    /// A table cell wider than this is cut with "…".
    static let maximumWidth = 48

    init(format: OutputFormat, columns: [String], console: Console) {
        self.format = format
        self.columns = columns
        self.console = console
        if format == .csv { console.out(columns.map(Cell.csvField).joined(separator: ",") + "\r\n") }
        if format == .json { console.out("[") }
    }

    mutating func write(_ row: [Cell]) {
        defer { rowCount += 1 }
        switch format {
        case .table:
            pending.append(row)
        case .csv:
            console.out(row.map { Cell.csvField($0.plain) }.joined(separator: ",") + "\r\n")
        case .json:
            var object = rowCount == 0 ? "\n  {" : ",\n  {"
            for (index, (name, cell)) in zip(columns, row).enumerated() {
                object += (index == 0 ? "" : ", ") + Cell.jsonString(name) + ": " + cell.json
            }
            console.out(object + "}")
        }
    }

    /// Ends the output (the table's rows, the JSON array's bracket).
    mutating func finish() {
        switch format {
        case .csv:
            break
        case .json:
            console.out(rowCount == 0 ? "]\n" : "\n]\n")
        case .table:
            let texts = pending.map { row in row.map { Self.clip($0.plain ?? "nil") } }
            var widths = columns.map(\.count)
            for row in texts {
                for (index, text) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], text.count) }
            }
            func line(_ fields: [String]) -> String {
                let padded = zip(fields, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                    .joined(separator: "  ")
                return String(padded.reversed().drop { $0 == " " }.reversed())
            }
            var text = line(columns) + "\n" + line(widths.map { String(repeating: "-", count: $0) }) + "\n"
            for row in texts { text += line(row) + "\n" }
            text += "(\(rowCount) \(rowCount == 1 ? "row" : "rows"))\n"
            console.out(text)
        }
    }

    static func clip(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: "⏎")
        return flat.count > maximumWidth ? String(flat.prefix(maximumWidth - 1)) + "…" : flat
    }
}
