/// An IR value that cannot become valid SQL. The description says what and where.
///
/// ```swift
/// do { _ = try SQLExpression.function("drop table", .star).render() }
/// catch let error as SQLRenderError { print(error) }
/// // Invalid function name 'drop table': use letters, digits and '_' only, not starting with a digit.
/// ```
public struct SQLRenderError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Reason: Sendable, Hashable {
        case invalidName(kind: String, name: String, allowed: String)
        case invalidIdentifier(String)
        case noRows(table: String)
        case rowWidth(table: String, row: Int, expected: Int, actual: Int)
        case noAssignments(table: String)
        case missingParameter(index: Int, given: Int, sql: String)
        case noUpsertAssignments(table: String)
        case notInlinable(String)
        case unbindable(String)
        case parameterNotInlinable(index: Int)
        case unsupported(construct: String, dialect: String, instead: String)
        case joinWithoutFrom
    }

    let reason: Reason

    /// A construct `dialect` has no form for that answers as SQLite's does, and what to
    /// write instead: what a dialect's hooks throw.
    public static func unsupported(_ construct: String, dialect: String, instead: String) -> SQLRenderError {
        SQLRenderError(reason: .unsupported(construct: construct, dialect: dialect, instead: instead))
    }

    /// The dialect that has no form for the construct, when that is the error (a database
    /// that cannot answer as SQLite does, rather than an invalid statement).
    public var unsupportedDialect: String? {
        if case .unsupported(_, let dialect, _) = reason { return dialect }
        return nil
    }

    /// What is wrong and where, in one sentence.
    public var description: String {
        switch reason {
        case let .invalidName(kind, name, allowed):
            "Invalid \(kind) name '\(name)': use \(allowed)."
        case .invalidIdentifier(let name):
            "Invalid identifier '\(name.replacingOccurrences(of: "\0", with: "\\0"))': "
                + "identifiers cannot contain a NUL character."
        case .noRows(let table):
            "INSERT INTO \"\(table)\" has no rows to insert: give at least one row, or use DEFAULT VALUES."
        case let .rowWidth(table, row, expected, actual):
            "INSERT INTO \"\(table)\": row \(row) has \(actual) values but \(expected) were expected."
        case .noAssignments(let table):
            "UPDATE \"\(table)\" has no SET assignments: give at least one column to change."
        case .noUpsertAssignments(let table):
            "INSERT INTO \"\(table)\" … ON CONFLICT DO UPDATE has no SET assignments: "
                + "give at least one, or use DO NOTHING."
        case let .missingParameter(index, given, sql):
            "No value for parameter \(index) (\(given) given) of: \(sql)"
        case .notInlinable(let what):
            "\(what) cannot be written as an SQL literal, and a trigger or view cannot bind values."
        case .unbindable(let reason):
            "A value in the statement cannot be bound: \(reason). Store it in a type the database holds "
                + "(a UInt64 above Int64.max as text or Data, for example), or leave it out of the statement."
        case .parameterNotInlinable(let index):
            "Parameter \(index) has no value to write: a trigger or view cannot bind values."
        case let .unsupported(construct, dialect, instead):
            "\(construct) has no \(dialect) form that answers the same: \(instead)."
        case .joinWithoutFrom:
            "A SELECT without FROM (such as `Values(…)`) has no table to join to: "
                + "start the query from a table (`Tag.join(…)`, or `Tag.select { … }`)."
        }
    }
}
