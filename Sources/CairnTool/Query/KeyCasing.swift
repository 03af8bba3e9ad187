import Cairn
import CairnCoreData

/// Matches the keys of `--where`, `--keys` and `--sort` to the entity's keys without regard to
/// case, for an Apple store whose names come from its `Z` columns (`ZFIRSTNAME` gives the key
/// `firstname`, and a user writes `firstName`). A key that matches exactly, or matches no key
/// or several, is left for the compiler to accept or report.
struct KeyCasing {
    let model: StoreModel

    func key(_ key: String, of entity: StoreEntity) -> String {
        let candidates = [entity.primaryKey] + entity.keys
        if candidates.contains(key) { return key }
        let matches = candidates.filter { $0.lowercased() == key.lowercased() }
        return matches.count == 1 ? matches[0] : key
    }

    /// `path` with each key matched in the entity it is read from, through relationships and
    /// after collection operators (`pages.@max.number`).
    func path(_ path: [String], from entity: StoreEntity) -> [String] {
        var current: StoreEntity? = entity
        return path.map { component in
            guard let entity = current, !component.hasPrefix("@") else { return component }
            let matched = key(component, of: entity)
            current = entity.relationship(named: matched).flatMap { relationship in
                model.entities.first { $0.name == relationship.destination }
            }
            return matched
        }
    }

    func predicate(_ predicate: FormatPredicate, in entity: StoreEntity) -> FormatPredicate {
        switch predicate {
        case .constant: return predicate
        case .and(let operands): return .and(operands.map { self.predicate($0, in: entity) })
        case .or(let operands): return .or(operands.map { self.predicate($0, in: entity) })
        case .not(let operand): return .not(self.predicate(operand, in: entity))
        case .comparison(var comparison):
            comparison.lhs = expression(comparison.lhs, in: entity)
            comparison.rhs = expression(comparison.rhs, in: entity)
            return .comparison(comparison)
        }
    }

    /// Key paths on the evaluated object, wherever they stand in `expression`; a `SUBQUERY`'s
    /// variable paths are left as written.
    func expression(_ expression: FormatExpression, in entity: StoreEntity) -> FormatExpression {
        let recurse = { (inner: FormatExpression) in self.expression(inner, in: entity) }
        switch expression {
        case .keyPath(.evaluatedObject, let keys): return .keyPath(base: .evaluatedObject, path: path(keys, from: entity))
        case .keyPath(let base, let keys): return .keyPath(base: recurse(base), path: keys)
        case .index(let base, let index): return .index(recurse(base), index)
        case .aggregate(let elements): return .aggregate(elements.map(recurse))
        case .arithmetic(let op, let lhs, let rhs): return .arithmetic(op, recurse(lhs), recurse(rhs))
        case .negate(let inner): return .negate(recurse(inner))
        case .function(let function, let arguments): return .function(function, arguments.map(recurse))
        case .cast(let inner, let type): return .cast(recurse(inner), type: type)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(collection: recurse(collection), variable: variable, predicate: predicate)
        case .constant, .evaluatedObject, .variable, .customFunction: return expression
        }
    }
}
