import Foundation

// Sequences, collections, ranges and strings.
//
// - A captured array or set: `x IN (SELECT value FROM json_each(?))`, the elements bound as
//   one JSON array, so the SQL text does not depend on how many there are.
// - A captured range: `x BETWEEN ? AND ?` (closed) or `x >= ? AND x < ?` (half-open).
// - A to-many relationship: `EXISTS`/`NOT EXISTS`/`COUNT(*)` subqueries on the related rows.
// - Strings: `contains`, `starts(with:)` and `count` run Swift's own code in registered
//   functions (`cairn_contains`, `cairn_starts_with`, `cairn_count`), so they compare
//   Characters exactly as `evaluate` does.

extension PredicateCompiler {
    /// The rows of a to-many relationship: `SELECT columns FROM "Dest" AS "tN" … WHERE <link>`.
    func toManySelect(_ reference: ToManyReference, columns: [SQLExpression]) -> SQLSelect {
        let destination = reference.destination
        let alias = reference.alias
        let destinationKey = SQLExpression.column(destination.primaryKeyColumn, table: alias)
        var select = SQLSelect(columns, from: .table(destination.tableName, as: alias))
        switch TableLayout.storage(of: reference.relationship, in: reference.owner.entity) {
        case .inverseForeignKey(let column):
            select = select.where(SQLExpression.column(column, table: alias).equals(reference.owner.primaryKey))
        case .joinTable(let name, let reversed):
            let link = alias + "_link"
            let (mine, theirs) = reversed ? ("target", "source") : ("source", "target")
            select = select.join(
                .inner, .table(name, as: link),
                on: SQLExpression.column(theirs, table: link).equals(destinationKey)
                    .and(SQLExpression.column(mine, table: link).equals(reference.owner.primaryKey)))
        }
        for condition in reference.conditions { select = select.where(condition) }
        return select
    }

    /// Binds `variable` to each element of `sequence` and compiles `test` for it. Returns the
    /// rows (as a select of `columns` or a raw `EXISTS` body) and the test's SQL.
    mutating func elementTest<Test: SQLPredicateExpression>(
        sequence: CompiledExpression, elementType: any Any.Type, variable: PredicateExpressions.VariableID, test: Test,
        construct: String
    ) throws -> (rows: ElementRows, test: SQLExpression, mayRaise: Bool) {
        switch sequence.form {
        case .toMany(let reference):
            let element = ModelReference(
                entity: reference.destination,
                primaryKey: .column(reference.destination.primaryKeyColumn, table: reference.alias), alias: reference.alias)
            variables[variable] = CompiledExpression(form: .model(element), type: elementType)
            let compiled = try compile(test)
            return (.toMany(reference), try condition(compiled), compiled.mayRaise)
        case .constant(let index):
            let alias = makeAlias()
            let elements = bind(.constantElements(index))
            variables[variable] = .scalar(try jsonElementValue(alias: alias, elementType: elementType, construct: construct), elementType)
            let compiled = try compile(test)
            return (.json(elements: elements, alias: alias), try condition(compiled), compiled.mayRaise)
        case .scalar(let sql) where sequence.type is any _ArrayMarker.Type:
            let alias = makeAlias()
            variables[variable] = .scalar(try jsonElementValue(alias: alias, elementType: elementType, construct: construct), elementType)
            let compiled = try compile(test)
            return (.json(elements: sql, alias: alias), try condition(compiled), compiled.mayRaise)
        default:
            throw PredicateSQLError.unsupported("\(construct) on a \(typeName(sequence.type)) value")
        }
    }

    /// `EXISTS (…)` over the rows, with `condition`.
    func exists(_ rows: ElementRows, where condition: SQLExpression?, negated: Bool = false) -> SQLExpression {
        switch rows {
        case .toMany(let reference):
            var select = toManySelect(reference, columns: [.true])
            if let condition { select = select.where(condition) }
            return negated ? .notExists(select) : .exists(select)
        case .json(let elements, let alias):
            let source = jsonElementRows(elements, alias: alias)
            let body: SQLFragment = if let condition {
                "SELECT 1 FROM \(source) WHERE \(condition)"
            } else {
                "SELECT 1 FROM \(source)"
            }
            return .raw((negated ? "NOT EXISTS (" : "EXISTS (") + body + ")")
        }
    }

    /// The rows of a JSON array (a captured sequence bound as JSON, or an array attribute's
    /// stored JSON), one per element in a column `value`: SQLite's `json_each`, or
    /// PostgreSQL's `json_array_elements_text`, which gives each element's text.
    func jsonElementRows(_ elements: SQLExpression, alias: String) -> SQLFragment {
        dialect == .postgres
            ? "json_array_elements_text(CAST(\(elements) AS JSON)) AS \(identifier: alias)(\(identifier: "value"))"
            : "json_each(\(elements)) AS \(identifier: alias)"
    }

    /// An element of ``jsonElementRows(_:alias:)`` as a value to compare: SQLite's `json_each`
    /// gives it typed; on PostgreSQL its text is cast to the type a column of the element's
    /// kind has, since PostgreSQL compares typed values. A UUID element is compared in lower
    /// case, as a UUID column stores it: an array attribute's JSON holds `JSONEncoder`'s
    /// uppercase `uuidString`.
    func jsonElementValue(alias: String, elementType: any Any.Type, construct: String) throws -> SQLExpression {
        var value = SQLExpression.column("value", table: alias)
        if dialect == .postgres {
            guard let type = SQLValueKind.postgresElementType(of: elementType) else {
                throw SQLRenderError.unsupported(
                    "\(construct) over elements of \(typeName(elementType))", dialect: "PostgreSQL",
                    instead: "compare elements of numbers, dates, Booleans, text, UUIDs or URLs")
            }
            value = .raw("CAST(\(value) AS \(raw: type))")
        }
        return SQLValueKind.of(unwrappedType(elementType).base) == .uuid ? .function("lower", value) : value
    }
}

/// The rows a sequence operation ranges over.
enum ElementRows {
    case toMany(ToManyReference)
    /// `json_each(elements) AS alias`, for captured sequences and array attributes.
    case json(elements: SQLExpression, alias: String)
}

// MARK: - contains(_:)

extension PredicateExpressions.SequenceContains: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (sequence, element) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let rows = try compiler.compile(sequence)
        let value = try compiler.compile(element)
        let (base, isOptional) = unwrappedType(RHS.Output.self)
        let kind = SQLValueKind.of(base)
        let mayRaise = rows.mayRaise || value.mayRaise
        // A captured range is also a sequence: `(1...5).contains(x)`.
        if case .constant(let index) = rows.form, let range = LHS.Output.self as? any _AnyRangeBounds.Type {
            return .scalar(
                try compiler.rangeContains(index: index, shape: range._boundShape, element: value, kind: kind),
                Bool.self, mayRaise: mayRaise)
        }
        switch rows.form {
        case .constant(let index):
            guard kind.equatesLikeSwift, kind != .data else {
                throw PredicateSQLError.unsupported("contains on a captured sequence of \(typeName(RHS.Output.self))")
            }
            var elementSQL = try compiler.sql(value)
            if let collation = kind.collation { elementSQL = elementSQL.collate(collation) }
            let elements = compiler.bind(.constantElements(index))
            var sql: SQLExpression
            if compiler.dialect == .postgres {
                guard let type = SQLValueKind.postgresElementType(of: base) else {
                    throw SQLRenderError.unsupported(
                        "contains on a captured sequence of \(typeName(RHS.Output.self))", dialect: "PostgreSQL",
                        instead: "capture numbers, dates, Booleans, text, UUIDs or URLs")
                }
                // The elements' text, cast back to the column's type: PostgreSQL compares typed values.
                sql = .raw("\(elementSQL) IN (SELECT CAST(value AS \(raw: type)) FROM json_array_elements_text(CAST(\(elements) AS JSON)))")
            } else {
                sql = .raw("\(elementSQL) IN (SELECT value FROM json_each(\(elements)))")
            }
            if isOptional {
                // `NULL IN (…)` is NULL in SQL; Swift's `contains(nil)` is true or false.
                sql = .case(when: [(elementSQL.isNull(), compiler.bind(.constantContainsNil(index)))], else: sql)
            }
            return .scalar(sql, Bool.self, mayRaise: mayRaise)
        case .toMany(let reference):
            let key = SQLExpression.column(reference.destination.primaryKeyColumn, table: reference.alias)
            let sql = compiler.exists(.toMany(reference), where: key.equals(try compiler.sql(value)))
            return .scalar(sql, Bool.self, mayRaise: mayRaise)
        case .scalar(let sql) where SQLValueKind.of(LHS.Output.self) == .text:
            // `title.contains("x")` with a Character.
            let call = SQLExpression.function(PredicateFunctions.containsName, sql, try compiler.sql(value))
            return .scalar(call, Bool.self, mayRaise: mayRaise)
        case .scalar(let sql) where LHS.Output.self is any _ArrayMarker.Type:
            guard kind.equatesLikeSwift, kind != .data else {
                throw PredicateSQLError.unsupported("contains on an array of \(typeName(RHS.Output.self))")
            }
            let alias = compiler.makeAlias()
            var item = try compiler.jsonElementValue(alias: alias, elementType: base, construct: "contains on an array attribute")
            if let collation = kind.collation { item = item.collate(collation) }
            let test = isOptional ? item.is(try compiler.sql(value)) : item.equals(try compiler.sql(value))
            return .scalar(compiler.exists(.json(elements: sql, alias: alias), where: test), Bool.self, mayRaise: mayRaise)
        default:
            throw PredicateSQLError.unsupported("contains on a \(typeName(LHS.Output.self)) value")
        }
    }
}

extension PredicateCompiler {
    /// `lower <= x AND x < upper` (or `BETWEEN`) for a captured range; a missing bound is
    /// left out.
    mutating func rangeContains(
        index: Int, shape: (hasLower: Bool, hasUpper: Bool, closed: Bool), element: CompiledExpression,
        kind: SQLValueKind
    ) throws -> SQLExpression {
        guard kind.ordersLikeSwift else {
            throw PredicateSQLError.unsupported("a range of \(typeName(element.type))")
        }
        var value = try sql(element)
        if let collation = kind.collation { value = value.collate(collation) }
        let lower = shape.hasLower ? bind(.constantLowerBound(index)) : nil
        let upper = shape.hasUpper ? bind(.constantUpperBound(index)) : nil
        return rangeCondition(value, lower: lower, upper: upper, closed: shape.closed)
    }

    func rangeCondition(_ value: SQLExpression, lower: SQLExpression?, upper: SQLExpression?, closed: Bool) -> SQLExpression {
        switch (lower, upper) {
        case let (lower?, upper?) where closed: return value.between(lower, and: upper)
        case let (lower?, upper?): return value.greaterThanOrEqual(lower).and(value.lessThan(upper))
        case let (lower?, nil): return value.greaterThanOrEqual(lower)
        case let (nil, upper?): return closed ? value.lessThanOrEqual(upper) : value.lessThan(upper)
        case (nil, nil): return .true
        }
    }
}

// MARK: - Ranges

extension PredicateExpressions.Range: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lower, upper) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let low = try compiler.sql(try compiler.compile(lower))
        let high = try compiler.sql(try compiler.compile(upper))
        return CompiledExpression(form: .range(lower: low, upper: high, closed: false), type: Output.self)
    }
}

extension PredicateExpressions.ClosedRange: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lower, upper) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let low = try compiler.sql(try compiler.compile(lower))
        let high = try compiler.sql(try compiler.compile(upper))
        return CompiledExpression(form: .range(lower: low, upper: high, closed: true), type: Output.self)
    }
}

extension PredicateExpressions.RangeExpressionContains: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where RangeExpression: SQLPredicateExpression, Element: SQLPredicateExpression {
    var operands: (RangeExpression, Element) { (range, element) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let bounds = try compiler.compile(range)
        let value = try compiler.compile(element)
        let kind = SQLValueKind.of(Element.Output.self)
        switch bounds.form {
        case .constant(let index):
            guard let shape = (RangeExpression.Output.self as? any _AnyRangeBounds.Type)?._boundShape else {
                throw PredicateSQLError.unsupported("contains on a range of type \(typeName(RangeExpression.Output.self))")
            }
            let sql = try compiler.rangeContains(index: index, shape: shape, element: value, kind: kind)
            return .scalar(sql, Bool.self, mayRaise: value.mayRaise)
        case .range(let lower, let upper, let closed):
            guard kind.ordersLikeSwift else {
                throw PredicateSQLError.unsupported("a range of \(typeName(Element.Output.self))")
            }
            var sql = try compiler.sql(value)
            if let collation = kind.collation { sql = sql.collate(collation) }
            return .scalar(
                compiler.rangeCondition(sql, lower: lower, upper: upper, closed: closed), Bool.self,
                mayRaise: bounds.mayRaise || value.mayRaise)
        default:
            throw PredicateSQLError.unsupported("contains on a \(typeName(RangeExpression.Output.self)) value")
        }
    }
}

// MARK: - contains(where:), allSatisfy, filter

extension PredicateExpressions.SequenceContainsWhere: SQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    static var isVariableFree: Bool { LHS.isVariableFree && RHS.isVariableFree }
    static var mayTrap: Bool { LHS.mayTrap || RHS.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.visit(sequence)
        shape.declare(variable.key)
        try shape.visit(test)
    }

    /// `seq.contains { test }` → `EXISTS (SELECT 1 FROM <rows> WHERE test)`.
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let rows = try compiler.compile(sequence)
        let (elements, condition, mayRaise) = try compiler.elementTest(
            sequence: rows, elementType: Element.self, variable: variable.key, test: test, construct: "contains(where:)")
        return .scalar(compiler.exists(elements, where: condition), Bool.self, mayRaise: mayRaise || rows.mayRaise)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: SQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    static var isVariableFree: Bool { LHS.isVariableFree && RHS.isVariableFree }
    static var mayTrap: Bool { LHS.mayTrap || RHS.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.visit(sequence)
        shape.declare(variable.key)
        try shape.visit(test)
    }

    /// `seq.allSatisfy { test }` → `NOT EXISTS (SELECT 1 FROM <rows> WHERE NOT test)`.
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let rows = try compiler.compile(sequence)
        let (elements, condition, mayRaise) = try compiler.elementTest(
            sequence: rows, elementType: Element.self, variable: variable.key, test: test, construct: "allSatisfy")
        return .scalar(
            compiler.exists(elements, where: condition.not(), negated: true), Bool.self, mayRaise: mayRaise || rows.mayRaise)
    }
}

extension PredicateExpressions.Filter: SQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    static var isVariableFree: Bool { LHS.isVariableFree && RHS.isVariableFree }
    static var mayTrap: Bool { LHS.mayTrap || RHS.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.visit(sequence)
        shape.declare(variable.key)
        try shape.visit(filter)
    }

    /// `rel.filter { test }` → the relationship's rows restricted by `test`, for a following
    /// `count`, `isEmpty`, `contains(where:)` or `allSatisfy`.
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let rows = try compiler.compile(sequence)
        guard case .toMany(var reference) = rows.form else {
            throw PredicateSQLError.unsupported("filter on a \(typeName(LHS.Output.self)) value (only on to-many relationships)")
        }
        let (_, condition, mayRaise) = try compiler.elementTest(
            sequence: rows, elementType: Element.self, variable: variable.key, test: filter, construct: "filter")
        reference.conditions.append(condition)
        return CompiledExpression(form: .toMany(reference), type: Output.self, mayRaise: mayRaise || rows.mayRaise)
    }
}

// MARK: - Strings

extension PredicateExpressions.CollectionContainsCollection: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where Base: SQLPredicateExpression, Other: SQLPredicateExpression {
    var operands: (Base, Other) { (base, other) }

    /// `title.contains(text)` → `cairn_contains("title", ?)` (Swift's Character matching).
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        guard SQLValueKind.of(Base.Output.self) == .text, SQLValueKind.of(Other.Output.self) == .text else {
            throw PredicateSQLError.unsupported("contains(_:) of a \(typeName(Other.Output.self)) in a \(typeName(Base.Output.self))")
        }
        let haystack = try compiler.compile(base)
        let needle = try compiler.compile(other)
        let sql = SQLExpression.function(PredicateFunctions.containsName, try compiler.sql(haystack), try compiler.sql(needle))
        return .scalar(sql, Bool.self, mayRaise: haystack.mayRaise || needle.mayRaise)
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where Base: SQLPredicateExpression, Prefix: SQLPredicateExpression {
    var operands: (Base, Prefix) { (base, prefix) }

    /// `title.starts(with: text)` → `cairn_starts_with("title", ?)`.
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        guard SQLValueKind.of(Base.Output.self) == .text, SQLValueKind.of(Prefix.Output.self) == .text else {
            throw PredicateSQLError.unsupported("starts(with:) on a \(typeName(Base.Output.self)) value (only on strings)")
        }
        let string = try compiler.compile(base)
        let start = try compiler.compile(prefix)
        let sql = SQLExpression.function(PredicateFunctions.startsWithName, try compiler.sql(string), try compiler.sql(start))
        return .scalar(sql, Bool.self, mayRaise: string.mayRaise || start.mayRaise)
    }
}
