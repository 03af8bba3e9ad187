import Foundation

// Leaves (variables, captured values, nil), optionals and key paths.

extension PredicateExpressions.Variable: SQLPredicateExpression {
    static var isVariableFree: Bool { false }
    static var mayTrap: Bool { false }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.use(key)
    }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        guard let bound = compiler.variables[key] else {
            throw PredicateSQLError.unsupported("a variable that is not the predicate's input or a closure's element")
        }
        return bound
    }
}

extension PredicateExpressions.Value: SQLPredicateExpression {
    // A captured value: always folded into a constant by the walks, never compiled itself.
    static var isVariableFree: Bool { true }
    static var mayTrap: Bool { false }
    func collectShape(_ shape: inout PredicateShape) throws {}
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        throw PredicateSQLError.internalInconsistency("a captured value was not folded")
    }
}

extension PredicateExpressions.NilLiteral: SQLPredicateExpression {
    static var isVariableFree: Bool { true }
    static var mayTrap: Bool { false }
    func collectShape(_ shape: inout PredicateShape) throws {}
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        throw PredicateSQLError.internalInconsistency("nil was not folded")
    }
}

// MARK: - Optionals

extension PredicateExpressions.ForcedUnwrap: SQLPredicateExpression where Inner: SQLPredicateExpression {
    static var isVariableFree: Bool { Inner.isVariableFree }
    static var mayTrap: Bool { Inner.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.visit(inner)
    }

    /// `x!` → `cairn_unwrap(x)`, which raises "Unexpectedly found nil" as Swift's `evaluate`
    /// throws; an optional to-one relationship stays a reference (its missing row matches no
    /// comparison).
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let wrapped = try compiler.compile(inner)
        if case .model(let reference) = wrapped.form {
            return CompiledExpression(form: .model(reference), type: Output.self, mayRaise: wrapped.mayRaise)
        }
        let sql = SQLExpression.function(PredicateFunctions.unwrapName, try compiler.sql(wrapped))
        return .scalar(sql, Output.self, mayRaise: true)
    }
}

extension PredicateExpressions.NilCoalesce: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lhs, rhs) }

    /// `a ?? b` → `COALESCE(a, b)` (`CASE` when `b` can raise, so it stays lazy).
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let left = try compiler.compile(lhs)
        let right = try compiler.compile(rhs)
        let leftSQL = try compiler.sql(left)
        let rightSQL = try compiler.sql(right)
        let sql: SQLExpression = right.mayRaise
            ? .case(when: [(leftSQL.isNotNull(), leftSQL)], else: rightSQL)
            : .function("COALESCE", leftSQL, rightSQL)
        return .scalar(sql, Output.self, mayRaise: left.mayRaise || right.mayRaise)
    }
}

extension PredicateExpressions.OptionalFlatMap: SQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    static var isVariableFree: Bool { LHS.isVariableFree && RHS.isVariableFree }
    static var mayTrap: Bool { LHS.mayTrap || RHS.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.visit(wrapped)
        shape.declare(variable.key)
        try shape.visit(transform)
    }

    /// `x.flatMap { t($0) }` (and `if let`, optional chaining) →
    /// `CASE WHEN x IS NULL THEN NULL ELSE t(x) END`.
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let input = try compiler.compile(wrapped)
        let guardSQL: SQLExpression
        switch input.form {
        case .model(let reference):
            guardSQL = reference.primaryKey
            compiler.variables[variable.key] = CompiledExpression(
                form: .model(reference), type: Wrapped.self, mayRaise: input.mayRaise)
        default:
            let sql = try compiler.sql(input)
            guardSQL = sql
            compiler.variables[variable.key] = .scalar(sql, Wrapped.self, mayRaise: input.mayRaise)
        }
        let output = try compiler.compile(transform)
        let mayRaise = input.mayRaise || output.mayRaise
        if case .model(let reference) = output.form {
            let key = SQLExpression.case(when: [(guardSQL.isNull(), .null)], else: reference.primaryKey)
            let result = ModelReference(entity: reference.entity, primaryKey: key, alias: nil)
            return CompiledExpression(form: .model(result), type: Output.self, mayRaise: mayRaise)
        }
        let sql = SQLExpression.case(when: [(guardSQL.isNull(), .null)], else: try compiler.sql(output))
        return .scalar(sql, Output.self, mayRaise: mayRaise)
    }
}

// MARK: - Key paths

extension PredicateExpressions.KeyPath: SQLPredicateExpression where Root: SQLPredicateExpression {
    static var isVariableFree: Bool { Root.isVariableFree }
    static var mayTrap: Bool { Root.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.visit(root)
        shape.token(.keyPath(keyPath))
    }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let base = try compiler.compile(root)
        return try compiler.member(of: base, keyPath: keyPath, kind: cairnKind, outputType: Output.self)
    }
}

extension PredicateCompiler {
    /// `base.keyPath`: a column, a to-one relationship, a to-many relationship, the model's
    /// identifier, or a known property of a value (`String.count`, `isEmpty`, …).
    mutating func member(
        of base: CompiledExpression, keyPath: AnyKeyPath, kind: CommonKeyPathKindValue?, outputType: any Any.Type
    ) throws -> CompiledExpression {
        switch base.form {
        case .model(let reference):
            return try modelMember(reference, keyPath: keyPath, outputType: outputType, mayRaise: base.mayRaise)
        case .toMany(let reference):
            switch kind {
            case .collectionCount:
                return .scalar(.subquery(toManySelect(reference, columns: [.countAll])), outputType)
            case .collectionIsEmpty:
                return .scalar(.notExists(toManySelect(reference, columns: [.true])), outputType)
            default:
                throw PredicateSQLError.unsupportedKeyPath(
                    "The key path \(keyPathName(keyPath)) on the to-many relationship '\(reference.relationship.name)' "
                        + "cannot be translated to SQL: use count, isEmpty, contains, contains(where:), allSatisfy or filter")
            }
        case .scalar, .constant:
            let sql = try self.sql(base)
            let valueKind = SQLValueKind.of(unwrappedType(base.type).base)
            switch (kind, valueKind) {
            case (.collectionCount?, .text):
                return .scalar(.function(PredicateFunctions.characterCountName, sql), outputType, mayRaise: base.mayRaise)
            case (.collectionIsEmpty?, .text):
                return .scalar(sql.equals(bind(.literal(.text("")))), outputType, mayRaise: base.mayRaise)
            case (.collectionCount?, .other) where base.type is any _ArrayMarker.Type:
                return .scalar(.function("json_array_length", sql), outputType, mayRaise: base.mayRaise)
            case (.collectionIsEmpty?, .other) where base.type is any _ArrayMarker.Type:
                return .scalar(.function("json_array_length", sql).equals(bind(.literal(.integer(0)))), outputType, mayRaise: base.mayRaise)
            default:
                break
            }
            if keyPath == \Date.timeIntervalSinceReferenceDate {
                return .scalar(sql, outputType, mayRaise: base.mayRaise)
            }
            if keyPath == \Date.timeIntervalSince1970 {
                return .scalar(sql.plus(bind(.literal(.real(Date.timeIntervalBetween1970AndReferenceDate)))), outputType, mayRaise: base.mayRaise)
            }
            throw PredicateSQLError.unsupportedKeyPath(
                "The key path \(keyPathName(keyPath)) on a \(typeName(base.type)) value cannot be translated to SQL "
                    + "(supported: String.count, String.isEmpty, Array.count, Array.isEmpty, Date.timeIntervalSinceReferenceDate, "
                    + "Date.timeIntervalSince1970)")
        case .range:
            throw PredicateSQLError.unsupportedKeyPath("The key path \(keyPathName(keyPath)) on a range cannot be translated to SQL")
        }
    }

    private mutating func modelMember(
        _ reference: ModelReference, keyPath: AnyKeyPath, outputType: any Any.Type, mayRaise: Bool
    ) throws -> CompiledExpression {
        let entity = reference.entity
        if let property = entity.property(for: keyPath) {
            if let attribute = property as? Schema.Attribute {
                guard !attribute.isTransient else {
                    throw PredicateSQLError.unsupportedKeyPath(
                        "\(entity.name).\(attribute.name) is ephemeral (not stored), so a predicate cannot filter on it in SQL")
                }
                return .scalar(reference.column(attribute.columnName), outputType, mayRaise: mayRaise)
            }
            if let relationship = property as? Schema.Relationship, let destinationType = relationship.destinationType {
                let destination = Schema.Entity.cached(for: destinationType)
                if relationship.isToOneRelationship {
                    let target = ModelReference(
                        entity: destination, primaryKey: reference.column(relationship.name), alias: nil)
                    return CompiledExpression(form: .model(target), type: outputType, mayRaise: mayRaise)
                }
                let toMany = ToManyReference(
                    owner: reference, relationship: relationship, destination: destination, alias: makeAlias())
                return CompiledExpression(form: .toMany(toMany), type: outputType, mayRaise: mayRaise)
            }
        }
        if keyPath == identifierKeyPath(entity.modelType) || keyPath == idKeyPath(entity.modelType) {
            return .scalar(reference.primaryKey, outputType, mayRaise: mayRaise)
        }
        throw PredicateSQLError.unsupportedKeyPath(
            "The key path \(keyPathName(keyPath)) does not name a stored property of \(entity.name); a predicate can use its "
                + "attributes, relationships and persistentModelID. To filter on a computed value, store it in a "
                + "property, or filter the fetched models in Swift")
    }
}

private func identifierKeyPath<M: PersistentModel>(_ type: M.Type) -> AnyKeyPath { \M.persistentModelID }
private func idKeyPath<M: PersistentModel>(_ type: M.Type) -> AnyKeyPath { \M.id }

/// `PredicateExpressions.KeyPath.CommonKeyPathKind`, without the generic parameters.
enum CommonKeyPathKindValue {
    case collectionCount, collectionIsEmpty, collectionFirst, bidirectionalCollectionLast
}

extension PredicateExpressions.KeyPath {
    var cairnKind: CommonKeyPathKindValue? {
        switch kind {
        case .collectionCount?: .collectionCount
        case .collectionIsEmpty?: .collectionIsEmpty
        case .collectionFirst?: .collectionFirst
        case .bidirectionalCollectionLast?: .bidirectionalCollectionLast
        case nil: nil
        @unknown default: nil
        }
    }
}
