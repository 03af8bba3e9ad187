import CSQLite

/// The values bound to a statement's `?` parameters, in order.
///
/// Write them as an array literal of any ``DatabaseValueConvertible`` values (`nil` binds
/// `NULL`), or build them from the `[DatabaseValue]` the query IR renders:
///
/// ```swift
/// try db.execute(sql: "INSERT INTO workout (title, minutes, finishedAt) VALUES (?, ?, ?)",
///                arguments: ["Run", 30, nil])
/// // ?1 = 'Run', ?2 = 30, ?3 = NULL
/// let arguments = StatementArguments(renderedValues)   // [DatabaseValue]
/// ```
///
/// A value with no faithful SQLite representation (`UInt64.max`) is recorded and thrown when
/// the arguments are bound, since an array literal cannot throw.
public struct StatementArguments: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The values, in parameter order.
    public private(set) var values: [DatabaseValue]
    /// The first value that could not be converted (`"argument 2: …"`), or nil. Engines throw
    /// it when they bind the arguments, since an array literal cannot throw.
    public internal(set) var encodingFailure: String?

    /// Arguments from already-converted values.
    public init(_ values: [DatabaseValue] = []) {
        self.values = values
    }

    /// Arguments from Swift values (`nil` binds `NULL`).
    public init(_ values: [(any DatabaseValueConvertible)?]) {
        self.values = []
        self.values.reserveCapacity(values.count)
        for value in values {
            guard let value else {
                self.values.append(.null)
                continue
            }
            do {
                self.values.append(try value.databaseValueForBinding())
            } catch {
                self.values.append(.null)
                if encodingFailure == nil {
                    encodingFailure = "argument \(self.values.count): \(error)"
                }
            }
        }
    }

    /// Arguments from an array literal, bound in order.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }

    /// Appends one value.
    public mutating func append(_ value: (any DatabaseValueConvertible)?) {
        self += StatementArguments([value])
    }

    /// Concatenates arguments (for SQL built from fragments).
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result += rhs
        return result
    }

    /// Appends arguments.
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        if lhs.encodingFailure == nil, let failure = rhs.encodingFailure {
            lhs.encodingFailure = failure
        }
        lhs.values += rhs.values
    }

    /// The number of values.
    public var count: Int { values.count }
    /// Whether there are no values.
    public var isEmpty: Bool { values.isEmpty }

    /// `[1, 'Run', NULL]`: literal-like, for diagnostics only.
    public var description: String {
        "[" + values.map(\.description).joined(separator: ", ") + "]"
    }
}
