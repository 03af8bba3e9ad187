import CSQLite

extension Statement {
    // MARK: - Binding

    /// Resets the statement and binds `arguments` to parameters `?1...?n`.
    ///
    /// - Throws: ``DatabaseError`` (`SQLITE_RANGE`) when the count differs from
    ///   ``parameterCount``, or when a value cannot be encoded.
    public func bind(_ arguments: StatementArguments) throws {
        let handle = try handle()
        try resetForBinding(handle)
        boundArguments = arguments
        if let failure = arguments.encodingFailure {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "cannot bind \(failure)", sql: sql,
                                arguments: arguments,
                                publicStatementArguments: database?.configuration.publicStatementArguments ?? false)
        }
        guard arguments.count == parameterCount else {
            throw DatabaseError(resultCode: .SQLITE_RANGE,
                                message: "wrong number of arguments: the SQL has \(parameterCount) parameters, got \(arguments.count)",
                                sql: sql, arguments: arguments,
                                publicStatementArguments: database?.configuration.publicStatementArguments ?? false)
        }
        for (offset, value) in arguments.values.enumerated() {
            let code = value.bind(to: handle, at: Int32(offset + 1))
            if code != SQLITE_OK { throw error(code: code) }
        }
    }

    /// Binds one value to parameter `index` (1-based), without building arguments: the fast
    /// path for statements run in a loop. Call ``reset()`` first if the statement has run.
    ///
    /// ```swift
    /// try insert.bind(42, at: 1)      // ?1 = 42
    /// ```
    @inlinable
    public func bind<Value: DatabaseValueConvertible>(_ value: Value, at index: Int) throws {
        let handle = try handle()
        let code = try value.bind(to: handle, at: Int32(index))
        if code != SQLITE_OK { throw bindingError(code: code, index: index) }
    }

    /// Resets the statement and binds every value in order to `?1...?n`, without boxing.
    ///
    /// ```swift
    /// try insert.bind(values: workout.id, workout.title, workout.finishedAt)
    /// try insert.execute()
    /// ```
    ///
    /// Text is copied into a buffer the statement keeps for each parameter and bound
    /// `SQLITE_STATIC` (`BoundTextBuffers`), so a loop of inserts does not make SQLite
    /// allocate and free a copy of every text it binds. Up to 12 values, the call resolves to
    /// an overload of fixed arity (Statement+BindOverloads.swift), which the compiler
    /// specializes for the values' types; it binds the same way.
    @inlinable
    public func bind<each Value: DatabaseValueConvertible>(values: repeat each Value) throws {
        let handle = try beginBinding()
        var index: Int32 = 0
        repeat try bindNext(each values, to: handle, index: &index)
        try finishBinding(count: index)
    }

    /// The handle, reset for ``bind(values:)``.
    @inlinable
    func beginBinding() throws -> SQLiteStatement {
        let handle = try handle()
        try resetForBinding(handle)
        return handle
    }

    /// Checks that ``bind(values:)`` bound every parameter.
    @inlinable
    func finishBinding(count: Int32) throws {
        guard count == parameterCount else {
            throw DatabaseError(resultCode: .SQLITE_RANGE,
                                message: "wrong number of arguments: the SQL has \(parameterCount) parameters, got \(count)",
                                sql: sql)
        }
    }

    /// Binds one element of ``bind(values:)`` to the parameter after `index`. `String` and
    /// `String?` go through the statement's text buffers; the checks of `Value` are resolved
    /// when the call is compiled for a concrete type.
    @inlinable @inline(__always)
    func bindNext<Value: DatabaseValueConvertible>(_ value: Value, to handle: SQLiteStatement, index: inout Int32) throws {
        index += 1
        let code: Int32
        if Value.self == String.self {
            code = bindStatic(unsafeBitCast(value, to: String.self), to: handle, at: index)
        } else if Value.self == String?.self {
            if let text = unsafeBitCast(value, to: String?.self) {
                code = bindStatic(text, to: handle, at: index)
            } else {
                code = sqlite3_bind_null(handle, index)
            }
        } else {
            code = try value.bind(to: handle, at: index)
        }
        if code != SQLITE_OK { throw bindingError(code: code, index: Int(index)) }
    }

    @usableFromInline
    func bindStatic(_ text: String, to handle: SQLiteStatement, at index: Int32) -> Int32 {
        let buffers: BoundTextBuffers
        if let existing = boundTextBuffers {
            buffers = existing
        } else {
            buffers = BoundTextBuffers(parameterCount: parameterCount)
            boundTextBuffers = buffers
        }
        return buffers.bind(text, to: handle, at: index)
    }

    @usableFromInline
    func resetForBinding(_ handle: SQLiteStatement) throws {
        // A statement that is not mid-way is already reset: a finished or failed step resets
        // it (`didFinish`), and a new one has never run. A second sqlite3_reset per row was
        // a measurable part of an insert loop.
        if isStepping { reset() }
        boundArguments = nil
    }

    @usableFromInline
    func bindingError(code: Int32, index: Int) -> DatabaseError {
        let base = error(code: code)
        return DatabaseError(resultCode: base.extendedResultCode, message: "binding parameter \(index): \(base.message)",
                             sql: sql)
    }

    // MARK: - Running

    /// Resets the statement so it can run again (bindings stay).
    public func reset() {
        let wasStepping = isStepping
        isStepping = false
        if let sqliteStatement { sqlite3_reset(sqliteStatement) }
        // Resetting a write mid-way completes it (and may commit in autocommit mode).
        if wasStepping { database?.statementDidComplete() }
    }

    /// Advances to the next row: true when a row is available, false when done.
    ///
    /// - Throws: ``DatabaseError`` (the statement is reset first), or `CancellationError` when
    ///   the step was interrupted by task cancellation.
    @inlinable
    public func step() throws -> Bool {
        let handle = try handle()
        let starting = !isStepping
        if starting { try willStart() }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW {
            // SQLite prepares the statement again within this step when the schema changed.
            if starting { refreshColumnsIfReprepared(handle) }
            return true
        }
        return try didFinish(code: code, handle: handle)
    }

    @usableFromInline
    func willStart() throws {
        guard let database else { return }
        if database.interruptHandle.wasCancelled, !database.isCleaningUp { throw CancellationError() }
        isStepping = true
        if !writtenTables.isEmpty { database.changeTracker.record(self) }
        if database.readTablesRecorder != nil { database.readTablesRecorder?.formUnion(readTables) }
    }

    /// Handles a step that returned something other than `SQLITE_ROW`.
    @usableFromInline
    func didFinish(code: Int32, handle: SQLiteStatement) throws -> Bool {
        isStepping = false
        if code == SQLITE_DONE {
            sqlite3_reset(handle)
            database?.statementDidComplete()
            return false
        }
        let failure = error(code: code)
        sqlite3_reset(handle)
        database?.statementDidFail()
        if failure.resultCode == .SQLITE_INTERRUPT, database?.interruptHandle.wasCancelled == true {
            throw CancellationError()
        }
        throw failure
    }

    /// Runs the statement to completion (rows, if any, are skipped).
    ///
    /// ```swift
    /// try statement.execute(arguments: ["Run", 30])
    /// ```
    public func execute(arguments: StatementArguments? = nil) throws {
        if let arguments { try bind(arguments) } else if isStepping { reset() }
        while try step() {}
    }

    // MARK: - Rows

    /// Calls `body` with each row, stepping lazily; the ``Row`` is valid only during the call.
    ///
    /// ```swift
    /// try statement.forEachRow(arguments: [30]) { row in print(try row.decode(String.self, at: 1)) }
    /// ```
    @inlinable
    public func forEachRow(arguments: StatementArguments? = nil, _ body: (Row) throws -> Void) throws {
        if let arguments { try bind(arguments) } else if isStepping { reset() }
        let row = Row(statement: self)
        do {
            while try step() { try body(row) }
        } catch {
            reset()
            throw error
        }
    }

    /// Every row, transformed: the fast path for decoding rows into structs.
    ///
    /// ```swift
    /// let workouts = try statement.fetchAll { row in
    ///     Workout(id: try row.decode(at: 0), title: try row.decode(at: 1))
    /// }
    /// ```
    @inlinable
    public func fetchAll<T>(arguments: StatementArguments? = nil, _ transform: (Row) throws -> T) throws -> [T] {
        var result: [T] = []
        result.reserveCapacity(rowCountHint)
        try forEachRow(arguments: arguments) { row in result.append(try transform(row)) }
        rowCountHint = Swift.min(result.count, 131_072)
        return result
    }

    /// The first row, transformed, or nil when there is none. The statement is reset after.
    @inlinable
    public func fetchOne<T>(arguments: StatementArguments? = nil, _ transform: (Row) throws -> T) throws -> T? {
        if let arguments { try bind(arguments) } else if isStepping { reset() }
        defer { reset() }
        guard try step() else { return nil }
        return try transform(Row(statement: self))
    }
}
