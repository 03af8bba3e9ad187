import Foundation

/// Turns Foundation's `SortDescriptor<T>` into `ORDER BY` terms that order rows exactly as
/// `sorted(using:)` does on Linux.
///
/// Foundation on Linux exposes a descriptor's `keyPath` (a `PartialKeyPath<T>`), its `order`
/// and, for `SortDescriptor(_:comparator:)`, its `stringComparator`; those are all Cairn reads.
///
/// | Key | `ORDER BY` |
/// |---|---|
/// | numbers, `Date`, `UUID`, `Decimal` | the column (`Date` is seconds since 2001, `UUID` upper-case text) |
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
        guard let attribute = entity.attribute(for: keyPath), !attribute.isTransient else {
            throw PredicateSQLError.unsupportedSort(
                "The sort key \(keyPath) is not a stored attribute of \(entity.name); Cairn sorts on the entity's own "
                    + "attributes")
        }
        let kind = SQLValueKind.of(unwrappedType(valueType).base)
        guard kind.ordersLikeSwift else {
            throw PredicateSQLError.unsupportedSort(
                "Sorting by \(entity.name).\(attribute.name) of type \(typeName(valueType)): SQL orders numbers, String, "
                    + "Date, UUID and Decimal as Swift does, not a custom Comparable type")
        }
        var collation: String?
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
        let column = SQLExpression.column(attribute.columnName, table: alias)
        return SQLOrderingTerm(column, descriptor.order == .forward ? .ascending : .descending, collation: collation)
    }
}
