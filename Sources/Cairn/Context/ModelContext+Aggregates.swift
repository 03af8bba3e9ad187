import Foundation

// Aggregates computed in SQL, beside `fetch` (SwiftData has none; the seed computes them by
// hand). Each takes the same FetchDescriptor: its predicate filters the rows; with unsaved
// changes of the model type included, or a limit or offset, the answer is computed from
// `fetch(_:)`'s models instead, so it always equals what Swift would compute from them.

extension ModelContext {
    /// The sum of an attribute over the models a descriptor describes.
    ///
    /// ```swift
    /// let total = try context.fetchSum(FetchDescriptor<Workout>(), of: \.calories)
    /// // SELECT TOTAL("t0"."calories") FROM "Workout" AS "t0"
    /// ```
    public func fetchSum<T: PersistentModel, Value: Numeric>(_ descriptor: FetchDescriptor<T>, of keyPath: KeyPath<T, Value>)
        throws -> Value
    {
        let kind = SQLValueKind.of(Value.self)
        // SQL sums INTEGER and REAL columns; a Decimal is stored as text, which SQL would sum
        // as doubles and round, so it is summed exactly in Swift.
        if needsMemoryAggregate(descriptor) || !(kind == .integer || kind == .real) {
            return try memorySum(descriptor, keyPath)
        }
        let attribute = try aggregateAttribute(T.self, keyPath)
        let value: DatabaseValue
        do {
            value = try aggregateValue(
                descriptor, .aggregate(function: kind == .real ? "TOTAL" : "SUM", column: attribute.columnName, collation: nil))
        } catch let error as DatabaseError where error.message == "integer overflow" {
            // SQLite's SUM stops at 64 bits; a UInt64 may still hold the total, and otherwise the
            // sum in Swift throws the same error it throws for unsaved models.
            return try memorySum(descriptor, keyPath)
        }
        if value.isNull {
            // TOTAL answers 0.0 when no row matches, so NULL is its answer for NaN (SQLite has
            // no NaN: +inf and -inf together sum to NULL); Swift's `reduce(+)` gives NaN.
            if kind == .real, let floatingType = Value.self as? any FloatingPoint.Type,
               let nan = floatingType.nan as? Value { return nan }
            return .zero
        }
        if case .integer(let total) = value, let integerType = Value.self as? any FixedWidthInteger.Type,
           !Self.fits(total, integerType)
        {
            throw Self.sumOverflow(of: attribute.name, in: Schema.Entity.of(T.self).name, Value.self)
        }
        return try decode(value, as: Value.self, attribute: attribute, of: T.self, aggregate: "sum")
    }

    private func memorySum<T: PersistentModel, Value: Numeric>(_ descriptor: FetchDescriptor<T>, _ keyPath: KeyPath<T, Value>)
        throws -> Value
    {
        let values = try fetch(descriptor).map { $0[keyPath: keyPath] }
        if Value.self == Float.self, let total = Float(values.reduce(0.0) { $0 + Double(($1 as? Float) ?? 0) }) as? Value {
            return total  // added as doubles and rounded once, as SQL's TOTAL does
        }
        guard let integerType = Value.self as? any FixedWidthInteger.Type else { return values.reduce(.zero, +) }
        let entity = Schema.Entity.of(T.self)
        return try Self.checkedSum(values, as: integerType, of: entity.attribute(for: keyPath)?.name, in: entity.name)
    }

    private static func fits<Integer: FixedWidthInteger>(_ value: Int64, _ type: Integer.Type) -> Bool {
        Integer(exactly: value) != nil
    }

    /// The sum of integers in memory, or the error SQL's `SUM` gives when it does not fit (a
    /// `+` that overflows would stop the process).
    private static func checkedSum<Value, Integer: FixedWidthInteger>(
        _ values: [Value], as integerType: Integer.Type, of attribute: String?, in entity: String
    ) throws -> Value {
        var total = Integer.zero
        for value in values {
            guard let integer = value as? Integer else { throw sumOverflow(of: attribute ?? "?", in: entity, Value.self) }
            let (sum, overflow) = total.addingReportingOverflow(integer)
            if overflow { throw sumOverflow(of: attribute ?? "?", in: entity, Value.self) }
            total = sum
        }
        guard let result = total as? Value else { throw sumOverflow(of: attribute ?? "?", in: entity, Value.self) }
        return result
    }

    private static func sumOverflow<Value>(of attribute: String, in entity: String, _ type: Value.Type) -> ModelError {
        ModelError(.valueDecodingFailed, entityName: entity, propertyName: attribute,
                   message: "The sum of '\(attribute)' over the matching \(entity) models does not fit in \(Value.self); "
                    + "sum a wider type (fetch the values and add them as Double or Decimal), or narrow the predicate")
    }

    /// The average of a numeric attribute, or `nil` when no model matches.
    ///
    /// ```swift
    /// try context.fetchAverage(FetchDescriptor<Workout>(), of: \.minutes)
    /// // SELECT AVG("t0"."minutes") FROM "Workout" AS "t0"
    /// ```
    public func fetchAverage<T: PersistentModel, Value: Numeric>(
        _ descriptor: FetchDescriptor<T>, of keyPath: KeyPath<T, Value>
    ) throws -> Double? {
        if needsMemoryAggregate(descriptor) || Value.self == Decimal.self {
            let values = try fetch(descriptor).map { $0[keyPath: keyPath] }
            if values.isEmpty { return nil }
            if let decimals = values as? [Decimal] {
                // Exact in Decimal, rounded once to the Double the method returns (by parsing its
                // digits: `NSDecimalNumber.doubleValue` is off by a few units in the last place).
                let average = decimals.reduce(0, +) / Decimal(decimals.count)
                return Double(average.description) ?? NSDecimalNumber(decimal: average).doubleValue
            }
            return try values.map(Self.double).reduce(0, +) / Double(values.count)
        }
        let attribute = try aggregateAttribute(T.self, keyPath)
        switch try aggregateValue(descriptor, .aggregate(function: "AVG", column: attribute.columnName, collation: nil)) {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        case .null:
            // AVG is NULL when no row matches, and also when the average is NaN (+inf and -inf
            // among the values), which SQLite cannot represent.
            return try fetchCount(descriptor) > 0 ? .nan : nil
        case let other:
            throw undecodable(other, as: Double.self, attribute: attribute, of: T.self, aggregate: "average")
        }
    }

    /// The smallest value of an attribute (Swift's `<`), or `nil` when no model matches.
    ///
    /// ```swift
    /// try context.fetchMinimum(FetchDescriptor<Workout>(), of: \.startedAt)
    /// // SELECT MIN("t0"."startedAt") FROM "Workout" AS "t0"
    /// ```
    public func fetchMinimum<T: PersistentModel, Value: Comparable>(_ descriptor: FetchDescriptor<T>, of keyPath: KeyPath<T, Value>)
        throws -> Value?
    {
        try extremum(descriptor, keyPath, function: "MIN") { $0.min() }
    }

    /// The largest value of an attribute (Swift's `<`), or `nil` when no model matches.
    ///
    /// ```swift
    /// try context.fetchMaximum(FetchDescriptor<Workout>(), of: \.minutes)
    /// // SELECT MAX("t0"."minutes") FROM "Workout" AS "t0"
    /// ```
    public func fetchMaximum<T: PersistentModel, Value: Comparable>(_ descriptor: FetchDescriptor<T>, of keyPath: KeyPath<T, Value>)
        throws -> Value?
    {
        try extremum(descriptor, keyPath, function: "MAX") { $0.max() }
    }

    /// How many models have each value of an attribute, in the attribute's order (`nil` first,
    /// `false` before `true`, Swift's `<` for numbers, text, dates, UUIDs and decimals), saved
    /// or not; keys of other types come in the order the models are fetched.
    ///
    /// ```swift
    /// try context.fetchCounts(FetchDescriptor<Workout>(), groupedBy: \.isFavorite)
    /// // SELECT "t0"."isFavorite", COUNT(*) FROM "Workout" AS "t0"
    /// //   GROUP BY "t0"."isFavorite" ORDER BY "t0"."isFavorite" ASC
    /// ```
    public func fetchCounts<T: PersistentModel, Key: Hashable>(_ descriptor: FetchDescriptor<T>, groupedBy keyPath: KeyPath<T, Key>)
        throws -> [(key: Key, count: Int)]
    {
        let attribute = try aggregateAttribute(T.self, keyPath)
        let kind = SQLValueKind.of(unwrappedType(Key.self).base)
        let ordered = kind.ordersLikeSwift || kind == .bool
        if needsMemoryAggregate(descriptor) || !ordered {
            var order: [Key] = []
            var counts: [Key: Int] = [:]
            for model in try fetch(descriptor) {
                let key = model[keyPath: keyPath]
                if counts[key] == nil { order.append(key) }
                counts[key, default: 0] += 1
            }
            // The order SQL's GROUP BY … ORDER BY gives when the models are saved.
            if ordered { order.sort { Self.groupKey($0, precedes: $1) } }
            return order.map { ($0, counts[$0] ?? 0) }
        }
        let store = try table(of: T.self).store
        var plain = descriptor
        plain.sortBy = []
        let rendered = try QueryCompiler.render(
            plain, selecting: .grouped(key: attribute.columnName, keyCollation: kind.collation, function: "COUNT", column: nil),
            in: store.dialect)
        let rows = try store.read { try $0.rows(PreparedStatement(rendered: rendered)) }
        return try rows.map { row in
            guard row.count == 2, case .integer(let count) = row[1] else {
                throw ModelError(.valueDecodingFailed, message: "A grouped count returned no count")
            }
            return (try decode(row[0], as: Key.self, attribute: attribute, of: T.self, aggregate: "group key"), Int(count))
        }
    }

    // MARK: - Helpers

    /// Ascending order of group keys as SQL's `ORDER BY` gives it for the kinds it orders like
    /// Swift: `nil` first, `false` before `true`, otherwise Swift's `<`.
    private static func groupKey(_ a: Any, precedes b: Any) -> Bool {
        switch (unwrapped(a), unwrapped(b)) {
        case (nil, nil), (_, nil): return false
        case (nil, _): return true
        case let (x?, y?):
            if let x = x as? Bool, let y = y as? Bool { return !x && y }
            guard let x = x as? any Comparable else { return false }
            return lessThan(x, y)
        }
    }

    /// The value inside any number of `Optional`s, or nil.
    private static func unwrapped(_ value: Any) -> Any? {
        guard let optional = value as? any _OptionalMarker else { return value }
        return optional._wrappedAny.flatMap(unwrapped)
    }

    private static func lessThan<Value: Comparable>(_ x: Value, _ y: Any) -> Bool {
        guard let y = y as? Value else { return false }
        return x < y
    }

    private func needsMemoryAggregate<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) -> Bool {
        mergeExternalChanges()
        return descriptor.fetchLimit != nil || descriptor.fetchOffset != nil
            || (descriptor.includePendingChanges && !pendingChanges(of: T.self).isEmpty)
            || !storeExpressesPredicate(of: descriptor)
    }

    /// Whether the store's SQL can express the descriptor's predicate. A server cannot answer
    /// Swift's localized and case-insensitive comparisons: such an aggregate runs over the
    /// fetched models, whose predicate then runs in Swift (`storedModelsPartlyInSwift`).
    private func storeExpressesPredicate<T: PersistentModel>(of descriptor: FetchDescriptor<T>) -> Bool {
        guard let store = try? table(of: T.self).store, store.dialect != .sqlite else { return true }
        var plain = descriptor
        plain.sortBy = []
        do {
            _ = try QueryCompiler.render(plain, selecting: .count, in: store.dialect)
            return true
        } catch let error as SQLRenderError where error.unsupportedDialect != nil {
            return false
        } catch {
            return true  // the SQL path reports it
        }
    }

    private func extremum<T: PersistentModel, Value: Comparable>(
        _ descriptor: FetchDescriptor<T>, _ keyPath: KeyPath<T, Value>, function: String, memory: ([Value]) -> Value?
    ) throws -> Value? {
        let kind = SQLValueKind.of(unwrappedType(Value.self).base)
        if needsMemoryAggregate(descriptor) || !kind.ordersLikeSwift {
            return memory(try fetch(descriptor).map { $0[keyPath: keyPath] })
        }
        let attribute = try aggregateAttribute(T.self, keyPath)
        let value = try aggregateValue(descriptor, .aggregate(function: function, column: attribute.columnName, collation: kind.collation))
        if value.isNull { return nil }
        return try decode(value, as: Value.self, attribute: attribute, of: T.self,
                          aggregate: function == "MIN" ? "minimum" : "maximum")
    }

    private func aggregateAttribute<T: PersistentModel>(_ type: T.Type, _ keyPath: AnyKeyPath) throws -> Schema.Attribute {
        let entity = Schema.Entity.of(T.self)
        guard let attribute = entity.attribute(for: keyPath), !attribute.isTransient else {
            throw SwiftDataError.unsupportedKeyPath.with(
                reason: "The key path \(keyPathName(keyPath)) is not a stored attribute of \(entity.name), so it cannot be aggregated in SQL")
        }
        return attribute
    }

    private func aggregateValue<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, _ selection: QuerySelection) throws
        -> DatabaseValue
    {
        let store = try table(of: T.self).store
        var plain = descriptor
        plain.sortBy = []
        let rendered = try QueryCompiler.render(plain, selecting: selection, in: store.dialect)
        let rows = try store.read { try $0.rows(PreparedStatement(rendered: rendered)) }
        return rows.first?.first ?? .null
    }

    private func decode<Value, T: PersistentModel>(
        _ value: DatabaseValue, as type: Value.Type, attribute: Schema.Attribute, of model: T.Type, aggregate: String
    ) throws -> Value {
        guard let decoded = try? attribute.value(from: value) as? Value else {
            throw undecodable(value, as: Value.self, attribute: attribute, of: T.self, aggregate: aggregate)
        }
        return decoded
    }

    /// The error for an aggregate SQL answered with a value the property's type cannot hold,
    /// which only a row written outside Cairn can cause: it names the first such row, as a
    /// fetch would, so the user can find and mend it.
    private func undecodable<Value, T: PersistentModel>(
        _ value: DatabaseValue, as type: Value.Type, attribute: Schema.Attribute, of model: T.Type, aggregate: String
    ) -> ModelError {
        let entity = Schema.Entity.of(T.self)
        let column = "\"\(entity.tableName)\".\"\(attribute.columnName)\""
        var message = "The \(aggregate) of '\(attribute.name)' over the matching \(entity.name) models is \(value), "
            + "which cannot be read as \(Value.self)"
        if let row = try? firstMistypedRow(of: entity, attribute: attribute, expected: SQLValueKind.of(unwrappedType(Value.self).base)) {
            message += ": row \(row.id) stores \(row.value) in \(column). Correct that row's value, or declare the property "
                + "with a type that holds it"
        } else {
            message += ": a row stores a value of another type in \(column)"
        }
        return ModelError(.valueDecodingFailed, entityName: entity.name, propertyName: attribute.name, column: column,
                          value: value.description, message: message)
    }

    /// The first row whose stored value in `attribute`'s column is not of the SQL type its
    /// property's values are stored as.
    private func firstMistypedRow(of entity: Schema.Entity, attribute: Schema.Attribute, expected: SQLValueKind) throws
        -> (id: Int64, value: DatabaseValue)?
    {
        let storedType: String
        switch expected {
        case .integer, .bool: storedType = "integer"
        case .real: storedType = "real"
        default: return nil
        }
        let store = try container.store(for: entity.name)
        let sql = "SELECT \"id\", \"\(attribute.columnName)\" FROM \"\(entity.tableName)\" "
            + "WHERE typeof(\"\(attribute.columnName)\") NOT IN ('\(storedType)', 'null') ORDER BY \"id\" LIMIT 1"
        let rows = try store.read { try $0.rows(RenderedSQL(sql: sql, arguments: [])) }
        guard let row = rows.first, row.count == 2, case .integer(let id) = row[0] else { return nil }
        return (id, row[1])
    }

    private static func double(_ value: Any) throws -> Double {
        switch try PredicateValues.databaseValue(value) {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: throw ModelError(.valueDecodingFailed, value: "\(value)", message: "Not a number")
        }
    }
}
