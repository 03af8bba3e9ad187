// How a typed SQL function reads its arguments: each parameter from as many SQL arguments as
// its type has columns (one for a value, one per column for a `@Table` row), through the same
// `decode(from:)` that reads the type from a result row.

/// The SQL arguments a typed function's parameters read, worked out once when the function is
/// made: one name per SQL argument (a row parameter's column names, else the parameter's name),
/// for error messages and the decoder's row.
struct FunctionArgumentLayout: Sendable {
    /// The function's SQL name.
    let function: String
    /// The Swift parameters' names, in order (empty when not given).
    let parameterNames: [String]
    /// One name per SQL argument.
    let columnNames: [String]
    /// The first SQL argument (0-based) of each parameter, and one past the last.
    let starts: [Int]

    init<each Input: QueryRepresentable>(
        function: String, parameterNames: [String], _ inputs: repeat (each Input).Type
    ) {
        self.function = function
        self.parameterNames = parameterNames
        var columnNames: [String] = []
        var starts: [Int] = [0]
        for input in repeat each inputs {
            let position = starts.count - 1
            let name = position < parameterNames.count ? parameterNames[position] : ""
            columnNames += Self.columnNames(of: input, parameter: name.isEmpty ? "argument \(position + 1)" : name)
            starts.append(columnNames.count)
        }
        self.columnNames = columnNames
        self.starts = starts
    }

    /// The number of SQL arguments: every parameter's column width, summed.
    var argumentCount: Int { columnNames.count }

    /// A row's column names (its column groups' columns in place), or the parameter's name
    /// for a value.
    private static func columnNames<Value: QueryRepresentable>(of type: Value.Type, parameter: String) -> [String] {
        let width = Value.columnWidth
        if let table = type as? any Table.Type {
            let names = table.columns.allColumns.flatMap { column in
                column._groupedColumns(writable: false)?.map(\.name) ?? [column.name]
            }
            if names.count == width { return names }
        }
        return width == 1 ? [parameter] : (0..<width).map { "\(parameter) column \($0 + 1)" }
    }

    /// `argument 2 (title)`, or `argument 2` when the parameter's name is unknown.
    func parameterDescription(_ position: Int) -> String {
        let name = position < parameterNames.count ? parameterNames[position] : ""
        return name.isEmpty ? "argument \(position + 1)" : "argument \(position + 1) (\(name))"
    }
}

/// Decodes one call's arguments, parameter after parameter, as their declared types.
struct FunctionArguments {
    let layout: FunctionArgumentLayout
    /// The call's arguments as a row whose columns are named by the layout; nil for a function
    /// without arguments.
    let row: Row?
    /// The next parameter.
    var position = 0

    /// Runs `body` with the arguments of one call, `values` as SQLite passed them.
    static func with<Result>(
        _ values: [DatabaseValue], _ layout: FunctionArgumentLayout, _ body: (inout FunctionArguments) throws -> Result
    ) throws -> Result {
        guard layout.argumentCount > 0 else {
            var arguments = FunctionArguments(layout: layout, row: nil)
            return try body(&arguments)
        }
        guard values.count == layout.argumentCount else {
            throw TypedSQLError(
                message: "\(layout.function)(…) was called with \(values.count) SQL arguments and takes "
                    + "\(layout.argumentCount) (a row argument takes one per column: pass the row's columns, as `$name($0)` does)",
                sql: "")
        }
        var result: Result?
        try BufferedRows(columnNames: layout.columnNames, sql: "", values: values).forEach { row in
            var arguments = FunctionArguments(layout: layout, row: row)
            result = .some(try body(&arguments))
        }
        // `forEach` ran once: `values` holds exactly one row.
        guard let result else { throw TypedSQLError(message: "\(layout.function)(…) received no arguments", sql: "") }
        return result
    }

    /// The next parameter's value: read from its columns by `Value.decode(from:)`, as a
    /// result row would be. A value that does not decode throws an error naming the function,
    /// the parameter and the column.
    mutating func next<Value: QueryRepresentable>(_: Value.Type) throws -> Value.QueryOutput {
        let position = self.position
        self.position += 1
        guard let row, position + 1 < layout.starts.count else {
            throw TypedSQLError(
                message: "\(layout.function)(…) has no \(layout.parameterDescription(position)) to decode as \(Value.self)",
                sql: "")
        }
        var decoder = QueryDecoder(row: row)
        decoder.index = layout.starts[position]
        do {
            return try Value.decode(from: &decoder)
        } catch {
            throw decodingError(error, position: position, type: Value.self)
        }
    }

    /// Says which parameter of which function did not decode, and why.
    private func decodingError<Value>(_ error: any Error, position: Int, type: Value.Type) -> TypedSQLError {
        let start = layout.starts[position], end = layout.starts[position + 1]
        let parameter = "\(layout.parameterDescription(position)) of \(layout.function)(…)"
        guard let error = error as? RowDecodingError, let index = error.columnIndex,
              let value = row?.databaseValue(at: index)
        else {
            return TypedSQLError(message: "\(parameter) does not decode as \(Value.self): \(error)", sql: "")
        }
        if end - start == 1 {
            return TypedSQLError(message: "\(parameter) is \(value), which does not decode as \(Value.self)", sql: "")
        }
        return TypedSQLError(
            message: "\(parameter) is a \(Value.self) row in SQL arguments \(start + 1)–\(end), and its column "
                + "\(layout.columnNames[index].quotedForMessage) is \(value), which does not decode as \(error.typeName)",
            sql: "")
    }
}

extension String {
    /// The name in double quotes, as SQL writes an identifier.
    fileprivate var quotedForMessage: String { "\"\(self)\"" }
}
