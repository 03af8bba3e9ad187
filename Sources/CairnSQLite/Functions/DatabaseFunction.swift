import CSQLite
import Foundation

/// A scalar SQL function implemented in Swift, registered on a connection with
/// `Database/add(function:)` or on every connection through ``Configuration/functions``.
///
/// ```swift
/// let fold = DatabaseFunction("fold", argumentCount: 1) { arguments in
///     guard case .text(let text) = arguments[0] else { return nil }   // NULL in, NULL out
///     return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
/// }
/// configuration.functions.append(fold)
/// // SELECT * FROM workout WHERE fold(title) = fold(?)
/// ```
///
/// A thrown error becomes an SQL error whose message is the error's description.
public struct DatabaseFunction: Sendable {
    /// The SQL name.
    public let name: String
    /// The number of arguments, or nil for any number.
    public let argumentCount: Int?
    /// Whether the result depends only on the arguments (`SQLITE_DETERMINISTIC`; lets SQLite
    /// use it in indexes and factor calls out).
    public let isDeterministic: Bool
    let function: @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?

    /// Creates a function. Return nil for SQL `NULL`.
    public init(
        _ name: String,
        argumentCount: Int? = nil,
        isDeterministic: Bool = true,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?
    ) {
        self.name = name
        self.argumentCount = argumentCount
        self.isDeterministic = isDeterministic
        self.function = function
    }
}

/// A text collation implemented in Swift, for `ORDER BY x COLLATE name` and column
/// definitions; registered with ``Database/add(collation:)`` or ``Configuration/collations``.
///
/// ```swift
/// let localized = DatabaseCollation("cairn_localized") { $0.localizedStandardCompare($1) }
/// // SELECT * FROM workout ORDER BY title COLLATE cairn_localized
/// ```
public struct DatabaseCollation: Sendable {
    /// The SQL name.
    public let name: String
    let compare: @Sendable (String, String) -> ComparisonResult

    /// Creates a collation from a comparison of two strings.
    public init(_ name: String, compare: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.compare = compare
    }
}

/// Reference boxes handed to SQLite as user data; released by SQLite's destructor callback.
private final class FunctionBox {
    let function: DatabaseFunction
    init(_ function: DatabaseFunction) { self.function = function }
}

private final class CollationBox {
    let collation: DatabaseCollation
    init(_ collation: DatabaseCollation) { self.collation = collation }
}

extension Database {
    func registerFunctionsAndCollations() throws {
        for function in configuration.functions { try add(function: function) }
        for collation in configuration.collations { try add(collation: collation) }
    }

    /// Registers (or replaces) a SQL function on this connection.
    ///
    /// - Throws: ``DatabaseError`` when SQLite rejects it (bad name or argument count).
    public func add(function: DatabaseFunction) throws {
        let handle = try connection()
        let box = Unmanaged.passRetained(FunctionBox(function)).toOpaque()
        var flags = SQLITE_UTF8
        if function.isDeterministic { flags |= SQLITE_DETERMINISTIC }
        let code = sqlite3_create_function_v2(
            handle, function.name, Int32(function.argumentCount ?? -1), flags, box,
            { context, count, values in
                guard let context else { return }
                let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                var arguments: [DatabaseValue] = []
                arguments.reserveCapacity(Int(count))
                for index in 0..<Int(count) {
                    arguments.append(values?[index].map { DatabaseValue(sqliteValue: $0) } ?? .null)
                }
                do {
                    let result = try box.function.function(arguments)
                    let value = try result?.databaseValueForBinding() ?? .null
                    value.setResult(of: context)
                } catch {
                    sqlite3_result_error(context, "\(box.function.name): \(error)", -1)
                }
            }, nil, nil,
            { box in
                if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
            })
        guard code == SQLITE_OK else {
            throw DatabaseError(connection: handle, code: code, sql: nil, arguments: nil, public: false)
        }
    }

    /// Registers (or replaces) a collation on this connection.
    public func add(collation: DatabaseCollation) throws {
        let handle = try connection()
        let box = Unmanaged.passRetained(CollationBox(collation)).toOpaque()
        let code = sqlite3_create_collation_v2(
            handle, collation.name, SQLITE_UTF8, box,
            { box, leftCount, left, rightCount, right in
                guard let box else { return 0 }
                let collation = Unmanaged<CollationBox>.fromOpaque(box).takeUnretainedValue().collation
                let lhs = left.map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(leftCount)), as: UTF8.self)
                } ?? ""
                let rhs = right.map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(rightCount)), as: UTF8.self)
                } ?? ""
                switch collation.compare(lhs, rhs) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            },
            { box in
                if let box { Unmanaged<CollationBox>.fromOpaque(box).release() }
            })
        guard code == SQLITE_OK else {
            throw DatabaseError(connection: handle, code: code, sql: nil, arguments: nil, public: false)
        }
    }
}

extension DatabaseValue {
    /// Sets this value as a function's result.
    func setResult(of context: OpaquePointer) {
        switch self {
        case .null:
            sqlite3_result_null(context)
        case .integer(let value):
            sqlite3_result_int64(context, value)
        case .real(let value):
            sqlite3_result_double(context, value)
        case .text(let text):
            var text = text
            text.withUTF8 { buffer in
                guard let base = buffer.baseAddress else {
                    sqlite3_result_text(context, "", 0, CAIRN_SQLITE_TRANSIENT)
                    return
                }
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_result_text64(context, $0, sqlite3_uint64(buffer.count), CAIRN_SQLITE_TRANSIENT,
                                          UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { buffer in
                if let base = buffer.baseAddress {
                    sqlite3_result_blob64(context, base, sqlite3_uint64(buffer.count), CAIRN_SQLITE_TRANSIENT)
                } else {
                    sqlite3_result_zeroblob(context, 0)
                }
            }
        }
    }
}
