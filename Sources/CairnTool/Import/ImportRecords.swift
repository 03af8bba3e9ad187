import Foundation

/// The records of a CSV or JSON file: field values by name, and the line each record starts
/// on, so an error can point at it.
struct ImportRecords {
    /// One field: text from CSV, a JSON value from JSON; nil is NULL (an empty CSV field,
    /// JSON `null`).
    enum Field {
        case text(String)
        case number(NSNumber)
        case bool(Bool)
        case other(String)
    }

    struct Record {
        let line: Int
        let fields: [String: Field?]
    }

    var fieldNames: [String]
    var records: [Record]

    static func read(_ path: String) throws(ToolError) -> ImportRecords {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolError.failure("cannot read \(path): no such file, or it is not readable")
        }
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "csv": return try csv(data, path: path)
        case "json": return try json(data, path: path)
        default: throw ToolError.usage("\(path): import reads .csv or .json files (named so)")
        }
    }

    // MARK: - CSV

    /// RFC 4180: a header line, then records; quoted fields may hold commas, doubled quotes
    /// and line breaks.
    static func csv(_ data: Data, path: String) throws(ToolError) -> ImportRecords {
        guard let text = String(data: data, encoding: .utf8) else { throw ToolError.failure("\(path) is not UTF-8 text") }
        var rows: [(line: Int, fields: [String?])] = []
        var fields: [String?] = []
        var field = ""
        var quoted = false, inQuotes = false, afterQuote = false
        var line = 1, recordLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = scalars.next()
        if pending == "\u{FEFF}" { pending = scalars.next() }
        func endField() {
            fields.append(field.isEmpty && !quoted ? nil : field)
            field = ""
            quoted = false
            afterQuote = false
        }
        while let scalar = pending {
            pending = scalars.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = scalars.next()
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !quoted:
                inQuotes = true
                quoted = true
            case ",":
                endField()
            case "\r", "\n":
                if scalar == "\r", pending == "\n" { pending = scalars.next() }
                endField()
                if !(fields.count == 1 && fields[0] == nil) { rows.append((recordLine, fields)) }
                fields = []
                line += 1
                recordLine = line
            default:
                if afterQuote {
                    throw ToolError.failure("\(path) line \(line): text after a closing quote; a quote inside a quoted field is written \"\"")
                }
                field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes { throw ToolError.failure("\(path) line \(recordLine): a quoted field is never closed") }
        if !field.isEmpty || quoted || !fields.isEmpty {
            endField()
            rows.append((recordLine, fields))
        }
        guard let header = rows.first else { throw ToolError.failure("\(path) is empty: a CSV import needs a header line") }
        let names = header.fields.map { $0 ?? "" }
        if let blank = names.firstIndex(of: "") { throw ToolError.failure("\(path) line 1: column \(blank + 1) of the header has no name") }
        var records: [Record] = []
        for row in rows.dropFirst() {
            guard row.fields.count == names.count else {
                throw ToolError.failure("\(path) line \(row.line): \(row.fields.count) fields, but the header names \(names.count)")
            }
            var values: [String: Field?] = [:]
            for (name, value) in zip(names, row.fields) { values[name] = value.map(Field.text) }
            records.append(Record(line: row.line, fields: values))
        }
        return ImportRecords(fieldNames: names, records: records)
    }

    // MARK: - JSON

    /// A JSON array of objects; each record's line is where its `{` is.
    static func json(_ data: Data, path: String) throws(ToolError) -> ImportRecords {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw ToolError.failure("\(path) is not valid JSON: \(error.localizedDescription)")
        }
        guard let array = parsed as? [Any] else { throw ToolError.failure("\(path): a JSON import needs an array of objects, [{…}, …]") }
        let lines = objectLines(data)
        var names: [String] = []
        var records: [Record] = []
        for (index, element) in array.enumerated() {
            let line = index < lines.count ? lines[index] : 0
            guard let object = element as? [String: Any] else {
                throw ToolError.failure("\(path) line \(line): element \(index + 1) of the array is not an object")
            }
            var values: [String: Field?] = [:]
            for (key, value) in object {
                if !names.contains(key) { names.append(key) }
                switch value {
                case is NSNull: values[key] = .some(nil)
                case let string as String: values[key] = .text(string)
                case let number as NSNumber:
                    // JSONSerialization reads true/false as an NSNumber holding a C `char` ("c").
                    values[key] = String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number)
                default: values[key] = .other(String(describing: value))
                }
            }
            records.append(Record(line: line, fields: values))
        }
        return ImportRecords(fieldNames: names, records: records)
    }

    /// The line of each `{` directly inside the top-level array.
    static func objectLines(_ data: Data) -> [Int] {
        var lines: [Int] = []
        var line = 1, depth = 0
        var inString = false, escaped = false
        for byte in data {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if byte == UInt8(ascii: "{"), depth == 1 { lines.append(line) }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return lines
    }
}
