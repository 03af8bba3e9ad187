import CairnQuery
import Foundation

// `$0 is Tutorial` and `$0 as? Tutorial` on a model of an inheritance hierarchy: a test of the
// row's discriminator (``TableHierarchy``), since a subclass's rows share its root's table.
//
// ```swift
// #Predicate<Article> { $0 is Tutorial }
// // WHERE "t0"."_entity" IN (?, ?)        -- 'Tutorial' and the entities below it
// #Predicate<Article> { ($0 as? Tutorial)?.difficulty ?? 0 > 2 }
// // WHERE COALESCE(CASE WHEN CASE WHEN "t0"."_entity" IN (…) THEN "t0"."id" END IS NULL
// //   THEN NULL ELSE "t0"."difficulty" END, ?) > ?
// ```

extension PredicateExpressions.TypeCheck: SQLPredicateExpression, OneOperandSQLPredicateExpression
where Input: SQLPredicateExpression {
    var operand: Input { input }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let input = try compiler.compile(input)
        let test = try compiler.isInstance(input, of: Desired.self, inputType: Input.Output.self, operation: "is")
        return .scalar(test, Bool.self, mayRaise: input.mayRaise)
    }
}

extension PredicateExpressions.ConditionalCast: SQLPredicateExpression, OneOperandSQLPredicateExpression
where Input: SQLPredicateExpression {
    var operand: Input { input }

    /// The model as `Desired`: the same row, its key NULL where the row is not a `Desired`
    /// (so that `?.` and `??` over it see `nil`).
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let input = try compiler.compile(input)
        let test = try compiler.isInstance(input, of: Desired.self, inputType: Input.Output.self, operation: "as?")
        guard case .model(let reference) = input.form, let desired = Desired.self as? any PersistentModel.Type else {
            throw PredicateSQLError.internalInconsistency("a cast of a value that is not a model compiled as one")
        }
        let key = SQLExpression.case(when: [(test, reference.primaryKey)], else: .null)
        let cast = ModelReference(entity: Schema.Entity.cached(for: desired), primaryKey: key, alias: reference.alias)
        return CompiledExpression(form: .model(cast), type: Desired?.self, mayRaise: input.mayRaise)
    }
}

extension PredicateCompiler {
    /// Whether the model `input` is an instance of `desired`: a test of its row's
    /// discriminator within a hierarchy, a constant for types the entity fixes.
    ///
    /// - Throws: `PredicateSQLError.unsupported` for a value that is not a model, or a type
    ///   that is not a model class.
    mutating func isInstance(
        _ input: CompiledExpression, of desired: any Any.Type, inputType: any Any.Type, operation: String
    ) throws -> SQLExpression {
        guard case .model(let reference) = input.form else {
            throw PredicateSQLError.unsupported(
                "'\(operation) \(typeName(desired))' on a \(typeName(inputType)), which is not a model "
                    + "(Cairn translates type checks and casts of models only)")
        }
        guard let desiredModel = desired as? any PersistentModel.Type else {
            throw PredicateSQLError.unsupported(
                "'\(operation) \(typeName(desired))', whose type is not a model class (Cairn translates type checks "
                    + "and casts to model classes only)")
        }
        let entity = reference.entity
        let target = Schema.Entity.cached(for: desiredModel)
        // A nil to-one relationship is an instance of nothing.
        let present = unwrappedType(inputType).isOptional ? reference.primaryKey.isNotNull() : nil
        func both(_ test: SQLExpression) -> SQLExpression { present.map { $0.and(test) } ?? test }
        if Self.isSame(target, asOrAbove: entity) { return present ?? .true }
        guard Self.isSame(entity, asOrAbove: target) else { return .false }
        let names = target.namesWithSubentities
        let column = reference.column(Schema.Entity.discriminatorColumn)
        if names.count == 1 { return both(column.equals(bind(.literal(.text(names[0]))))) }
        return both(column.in(names.map { bind(.literal(.text($0))) }))
    }

    /// Whether `ancestor` is `entity` or one of its superentities.
    private static func isSame(_ ancestor: Schema.Entity, asOrAbove entity: Schema.Entity) -> Bool {
        var current: Schema.Entity? = entity
        while let candidate = current {
            if candidate === ancestor { return true }
            current = candidate.superentity
        }
        return false
    }
}
