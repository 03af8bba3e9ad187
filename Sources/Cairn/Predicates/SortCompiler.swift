import Foundation

/// Turns Foundation's `SortDescriptor<T>` into `ORDER BY` terms that order rows exactly as
/// `sorted(using:)` does on Linux.
///
/// Foundation on Linux exposes a descriptor's `keyPath` (a `PartialKeyPath<T>`), its `order`
/// and, for `SortDescriptor(_:comparator:)`, its `stringComparator`; those are all Cairn reads.
///
/// | Key | `ORDER BY` |
/// |---|---|
/// | numbers, `Date`, `UUID`, `Decimal` | the column (`Date` is seconds since 2001, `UUID` lower-case text) |
/// | `String` (`Comparable`) | `"title" COLLATE cairn_swift`: Swift's `String` `<` |
/// | `String` with `comparator: .lexical` | `"title" COLLATE cairn_lexical`: `String.compare(_:)` |
/// | Optional keys | `NULL` first in `.forward` (SQLite's `ASC`), last in `.reverse` (`DESC`), as `sorted(using:)` |
///
/// Ties after the last descriptor keep the rows' stored order (`"t0"."id" ASC`), as Swift's
/// stable sort keeps the order of its input.
///
/// ```swift
/// [SortDescriptor(\Workout.calories, order: .reverse), SortDescriptor(\Workout.title)]
/// // ORDER BY "t0"."calories" DESC, "t0"."title" COLLATE cairn_swift ASC, "t0"."id" ASC
/// ```
enum SortCompiler {
    static func shapeTokens<T>(_ descriptor: SortDescriptor<T>) throws -> [ShapeToken] {
        guard let keyPath = descriptor.keyPath else {
            throw PredicateSQLError.unsupportedSort("A SortDescriptor without a key path cannot be translated to SQL")
        }
        let comparator: Int = switch descriptor.stringComparator {
        case nil: 0
        case String.StandardComparator.lexical?: 1
        default: 2
        }
        return [.keyPath(keyPath), .op(descriptor.order == .forward ? 0 : 1), .op(comparator)]
    }

    static func orderingTerm<T>(_ descriptor: SortDescriptor<T>, entity: Schema.Entity, alias: String) throws
        -> SQLOrderingTerm
    {
        guard let keyPath = descriptor.keyPath else {
            throw PredicateSQLError.unsupportedSort("A SortDescriptor without a key path cannot be translated to SQL")
        }
        let valueType = type(of: keyPath).valueType
        let attribute: Schema.Attribute
        let column: SQLExpression
        if let own = entity.attribute(for: keyPath), !own.isTransient {
            attribute = own
            column = SQLExpression.column(own.columnName, table: alias)
        } else if let (relationship, destination, related) = throughToOne(keyPath, entity: entity) {
            attribute = related
            let target = ModelReference(
                entity: destination, primaryKey: .column(relationship.name, table: alias), alias: nil)
            column = target.column(related.columnName)
        } else {
            throw PredicateSQLError.unsupportedSort(
                "The sort key \(keyPathName(keyPath)) is not a stored attribute of \(entity.name) or of one of its to-one "
                    + "relationships (\\.trip?.name); Cairn sorts on stored attributes only")
        }
        let kind = SQLValueKind.of(unwrappedType(valueType).base)
        guard kind.ordersLikeSwift else {
            throw PredicateSQLError.unsupportedSort(
                "Sorting by \(attribute.name) of type \(typeName(valueType)): SQL orders numbers, String, "
                    + "Date, UUID and Decimal as Swift does, not a custom Comparable type")
        }
        var collation: String?
        if kind == .decimal { collation = PredicateFunctions.decimalCollationName }
        if kind.isText {
            switch descriptor.stringComparator {
            case nil: collation = swiftStringCollation
            case String.StandardComparator.lexical?: collation = PredicateFunctions.lexicalCollationName
            case let other?:
                var forward = other
                forward.order = .forward
                if forward == String.StandardComparator.lexical {
                    collation = PredicateFunctions.lexicalCollationName
                } else {
                    throw PredicateSQLError.unsupportedSort("The string comparator \(other) has no SQL collation")
                }
            }
        }
        var term = SQLOrderingTerm(column, descriptor.order == .forward ? .ascending : .descending, collation: collation)
        // A non-optional attribute of the fetched row itself (a related row may be missing).
        term.keyIsNeverNull = entity.attribute(for: keyPath) != nil && !attribute.isOptional
        return term
    }

    /// A key path through one to-one relationship to a stored attribute of its destination
    /// (`\Item.trip?.name`, `\Item.owner.name`). Foundation gives no way to take a key path
    /// apart, so candidates are compared: `relationship.appending(path: attribute)` for a
    /// non-optional relationship, and the printed form of the optional chain otherwise.
    static func throughToOne(_ keyPath: AnyKeyPath, entity: Schema.Entity)
        -> (Schema.Relationship, Schema.Entity, Schema.Attribute)?
    {
        let printed = keyPath.debugDescription
        for relationship in entity.relationships where relationship.isToOneRelationship {
            guard let destinationType = relationship.destinationType, let relationshipPath = relationship.keypath else {
                continue
            }
            let destination = Schema.Entity.cached(for: destinationType)
            let relationshipPrinted = relationshipPath.debugDescription
            guard printed.hasPrefix(relationshipPrinted) else { continue }
            for attribute in destination.storedAttributes {
                guard let attributePath = attribute.keypath else { continue }
                if relationshipPath.appending(path: attributePath) == keyPath {
                    return (relationship, destination, attribute)
                }
                let attributePrinted = attributePath.debugDescription
                guard let split = attributePrinted.range(of: ".<") ?? attributePrinted.range(of: ".", options: .backwards)
                else { continue }
                let member = attributePrinted[split.lowerBound...]
                let candidates = [relationshipPrinted + "?" + member, relationshipPrinted + "?" + member + "?"]
                if candidates.contains(printed) { return (relationship, destination, attribute) }
            }
        }
        return nil
    }
}
