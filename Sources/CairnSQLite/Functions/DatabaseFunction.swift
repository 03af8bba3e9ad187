import CSQLite
import Foundation

/// A SQL function implemented in Swift, scalar or aggregate, registered on a connection with
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
/// A thrown error becomes an SQL error whose message is the function's name and the error's
/// description.
public struct DatabaseFunction: DatabaseFunctionConvertible {
    /// The SQL name.
    public let name: String
    /// The number of arguments, or nil for any number.
    public let argumentCount: Int?
    /// Whether the result depends only on the arguments (`SQLITE_DETERMINISTIC`; lets SQLite
    /// use it in indexes and factor calls out).
    public let isDeterministic: Bool
    /// Whether the function has no side effects and reads nothing, so that SQLite lets a
    /// schema (a `DEFAULT`, a trigger, a view) call it with `trusted_schema` off
    /// (`SQLITE_INNOCUOUS`). Only Cairn's own functions claim it.
    var isInnocuous = false
    let kind: Kind

    enum Kind: Sendable {
        /// Called once per row with the row's arguments.
        case scalar(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        /// Makes the accumulator of one group.
        case aggregate(@Sendable () -> any DatabaseAggregate)
    }

    /// Creates a scalar function. Return nil for SQL `NULL`.
    public init(
        _ name: String,
        argumentCount: Int? = nil,
        isDeterministic: Bool = true,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?
    ) {
        self.name = name
        self.argumentCount = argumentCount
        self.isDeterministic = isDeterministic
        self.kind = .scalar(function)
    }

    /// Creates an aggregate function: SQLite makes one accumulator per group with `aggregate`,
    /// feeds it each row of the group, then asks it for the group's result.
    ///
    /// ```swift
    /// struct Longest: DatabaseAggregate {
    ///     var longest: String?
    ///     mutating func step(_ arguments: [DatabaseValue]) throws {
    ///         guard case .text(let text) = arguments[0] else { return }
    ///         if text.count > longest?.count ?? -1 { longest = text }
    ///     }
    ///     func finalize() throws -> (any DatabaseValueConvertible)? { longest }
    /// }
    /// db.add(function: DatabaseFunction("longest", argumentCount: 1, aggregate: { Longest() }))
    /// // SELECT longest(title) FROM workout GROUP BY kind
    /// ```
    public init<Aggregate: DatabaseAggregate>(
        _ name: String,
        argumentCount: Int? = nil,
        isDeterministic: Bool = true,
        aggregate: @escaping @Sendable () -> Aggregate
    ) {
        self.name = name
        self.argumentCount = argumentCount
        self.isDeterministic = isDeterministic
        self.kind = .aggregate(aggregate)
    }

    /// The function itself.
    public var databaseFunction: DatabaseFunction { self }
}

/// The accumulator of an aggregate ``DatabaseFunction`` for one group of rows.
///
/// SQLite calls ``step(_:)`` once per row of the group, then ``finalize()`` once, also for an
/// empty group and when the statement stops early (then the result is unused).
public protocol DatabaseAggregate {
    /// Takes in one row's arguments; a thrown error fails the statement.
    mutating func step(_ arguments: [DatabaseValue]) throws
    /// The group's result; nil for SQL `NULL`. A thrown error fails the statement.
    func finalize() throws -> (any DatabaseValueConvertible)?
}

/// A value that can be registered as a SQL function: ``DatabaseFunction`` itself, or a typed
/// function such as the `$name` that `@DatabaseFunction` generates.
public protocol DatabaseFunctionConvertible: Sendable {
    /// The engine's function.
    var databaseFunction: DatabaseFunction { get }
}

/// The function handed to SQLite as user data; released by SQLite's destructor callback.
private final class FunctionBox {
    let function: DatabaseFunction
    init(_ function: DatabaseFunction) { self.function = function }
}

/// One group's accumulator, kept alive by the pointer stored in SQLite's aggregate context
/// from the first row until `xFinal` (which SQLite also calls when a statement is reset or
/// fails mid-group).
private final class AggregateState {
    var aggregate: any DatabaseAggregate
    /// Set once a row failed: later rows of the group are skipped.
    var failed = false
    init(_ aggregate: any DatabaseAggregate) { self.aggregate = aggregate }
}

extension Database {
    func registerFunctionsAndCollations() throws {
        for function in DatabaseFunction.uuidFunctions { try register(function) }
        for function in configuration.functions { try register(function.databaseFunction) }
        for collation in configuration.collations { try add(collation: collation) }
    }

    /// Registers (or replaces) a SQL function on this connection: a ``DatabaseFunction`` or a
    /// typed function such as `@DatabaseFunction`'s `$name`.
    ///
    /// ```swift
    /// db.add(function: $exclaim)
    /// ```
    ///
    /// It does not throw, as in StructuredQueries and GRDB. A registration SQLite refuses (a name
    /// longer than 255 UTF-8 bytes, more arguments than `SQLITE_MAX_FUNCTION_ARG`, a closed
    /// connection) is kept on the connection
    /// and thrown, naming the function, by the next statement the connection prepares: a query
    /// that would call the function fails instead of running without it.
    public func add(function: some DatabaseFunctionConvertible) {
        let function = function.databaseFunction
        do {
            try register(function)
        } catch {
            refusedRegistration = refusedRegistration ?? DatabaseError(
                resultCode: (error as? DatabaseError)?.resultCode ?? .SQLITE_MISUSE,
                message: "the SQL function \(function.name) was not registered: \(Self.reason(of: error)); "
                    + "give it a name of at most 255 UTF-8 bytes and no more arguments than SQLite's "
                    + "SQLITE_MAX_FUNCTION_ARG")
        }
    }

    private static func reason(of error: any Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }

    /// Throws the registration ``add(function:)`` or ``remove(function:)`` could not make, once.
    func throwRefusedRegistration() throws {
        guard let error = refusedRegistration else { return }
        refusedRegistration = nil
        throw error
    }

    /// Registers `function`, checking up front what SQLite would refuse with a bare
    /// "bad parameter or other API misuse".
    func register(_ function: DatabaseFunction) throws {
        try Self.validate(function)
        let handle = try connection()
        let box = Unmanaged.passRetained(FunctionBox(function)).toOpaque()
        var flags = SQLITE_UTF8
        if function.isDeterministic { flags |= SQLITE_DETERMINISTIC }
        if function.isInnocuous { flags |= SQLITE_INNOCUOUS }
        let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { box in
            if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
        }
        let code: Int32
        switch function.kind {
        case .scalar:
            code = sqlite3_create_function_v2(
                handle, function.name, Int32(function.argumentCount ?? -1), flags, box,
                { context, count, values in
                    guard let context else { return }
                    let function = Database.function(of: context)
                    guard case .scalar(let body) = function.kind else { return }
                    do {
                        let result = try body(Database.arguments(count, values))
                        let value = try result?.databaseValueForBinding() ?? .null
                        value.setResult(of: context)
                    } catch {
                        sqlite3_result_error(context, "\(function.name): \(error)", -1)
                    }
                }, nil, nil, destroy)
        case .aggregate:
            code = sqlite3_create_function_v2(
                handle, function.name, Int32(function.argumentCount ?? -1), flags, box, nil,
                { context, count, values in
                    guard let context else { return }
                    guard let state = Database.aggregateState(of: context) else {
                        sqlite3_result_error_nomem(context)
                        return
                    }
                    guard !state.failed else { return }
                    do {
                        try state.aggregate.step(Database.arguments(count, values))
                    } catch {
                        state.failed = true
                        sqlite3_result_error(context, "\(Database.function(of: context).name): \(error)", -1)
                    }
                },
                { context in
                    guard let context else { return }
                    let function = Database.function(of: context)
                    // Takes back the reference xStep stored, so the group's state is freed here.
                    let state = Database.takeAggregateState(of: context)
                    guard case .aggregate(let make) = function.kind, !(state?.failed ?? false) else { return }
                    do {
                        let result = try (state?.aggregate ?? make()).finalize()
                        let value = try result?.databaseValueForBinding() ?? .null
                        value.setResult(of: context)
                    } catch {
                        sqlite3_result_error(context, "\(function.name): \(error)", -1)
                    }
                }, destroy)
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(connection: handle, code: code, sql: nil, arguments: nil, public: false)
        }
    }

    /// Unregisters a SQL function from this connection; later statements that call it fail
    /// with "no such function".
    ///
    /// ```swift
    /// db.remove(function: $exclaim)
    /// ```
    ///
    /// Like ``add(function:)``, it does not throw: a removal SQLite refuses is thrown by the next
    /// statement the connection prepares.
    public func remove(function: some DatabaseFunctionConvertible) {
        let function = function.databaseFunction
        do {
            try Self.validate(function)
            let handle = try connection()
            let code = sqlite3_create_function_v2(
                handle, function.name, Int32(function.argumentCount ?? -1), SQLITE_UTF8, nil, nil, nil, nil, nil)
            guard code == SQLITE_OK else {
                throw DatabaseError(connection: handle, code: code, sql: nil, arguments: nil, public: false)
            }
        } catch {
            refusedRegistration = refusedRegistration ?? DatabaseError(
                resultCode: (error as? DatabaseError)?.resultCode ?? .SQLITE_MISUSE,
                message: "the SQL function \(function.name) was not removed: \(Self.reason(of: error))")
        }
    }

    private static func validate(_ function: DatabaseFunction) throws {
        if function.name.utf8.count > 255 {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "its name is longer than 255 UTF-8 bytes")
        }
        if let count = function.argumentCount, count < 0 {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "it takes \(count) arguments")
        }
    }

    private static func function(of context: OpaquePointer) -> DatabaseFunction {
        Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue().function
    }

    private static func arguments(
        _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?
    ) -> [DatabaseValue] {
        var arguments: [DatabaseValue] = []
        arguments.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            arguments.append(values?[index].map { DatabaseValue(sqliteValue: $0) } ?? .null)
        }
        return arguments
    }

    /// The group's state, made on its first row; nil when SQLite cannot allocate the slot.
    private static func aggregateState(of context: OpaquePointer) -> AggregateState? {
        // SQLite zeroes the slot on first use and keeps it for the group.
        guard let slot = sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size))?
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        else { return nil }
        if let stored = slot.pointee {
            return Unmanaged<AggregateState>.fromOpaque(stored).takeUnretainedValue()
        }
        guard case .aggregate(let make) = function(of: context).kind else { return nil }
        let state = AggregateState(make())
        slot.pointee = Unmanaged.passRetained(state).toOpaque()
        return state
    }

    /// The group's state with the slot's reference handed over, or nil for a group with no row.
    private static func takeAggregateState(of context: OpaquePointer) -> AggregateState? {
        // Size 0: no allocation, nil when no row ever reached xStep.
        guard let slot = sqlite3_aggregate_context(context, 0)?
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
              let stored = slot.pointee
        else { return nil }
        slot.pointee = nil
        return Unmanaged<AggregateState>.fromOpaque(stored).takeRetainedValue()
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
