import Cairn
import Foundation

/// The type of an attribute or of an expression's result (Core Data's raw values).
public enum NSAttributeType: UInt, Sendable {
    case undefinedAttributeType = 0
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    case UUIDAttributeType = 1100
    case URIAttributeType = 1200
    case transformableAttributeType = 1800
    case objectIDAttributeType = 2000
    case compositeAttributeType = 2100
}

/// Core Data's `NSPropertyDescription`, as far as fetch requests need it: a named property
/// (here, the base of ``NSExpressionDescription``).
open class NSPropertyDescription {
    /// The property's name: in a dictionary fetch, the key of its value.
    open var name: String = ""
    /// Whether the property may be nil.
    open var isOptional = true

    public init() {}
}

/// Core Data's `NSExpressionDescription`: a computed column of a dictionary fetch, named by
/// ``NSPropertyDescription/name``, computed by ``expression``, returned as
/// ``expressionResultType``.
///
/// ```swift
/// let total = NSExpressionDescription()
/// total.name = "total"
/// total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "amount")])
/// total.expressionResultType = .doubleAttributeType
/// let request = NSFetchRequest<NSDictionary>(entityName: "Expense")
/// request.resultType = .dictionaryResultType
/// request.propertiesToFetch = ["categoryName", total]
/// request.propertiesToGroupBy = ["categoryName"]
/// let rows = try context.fetch(request)   // [{categoryName: Food, total: 20.25}, …]
/// // SELECT "Expense"."categoryName" AS "categoryName", SUM("Expense"."amount") AS "total"
/// //   FROM "Expense" GROUP BY "Expense"."categoryName"
/// ```
open class NSExpressionDescription: NSPropertyDescription {
    /// What computes the value.
    open var expression: NSExpression?
    /// The type of the value in the result dictionaries: numbers come as `NSNumber` (integers
    /// for the integer types, `Double` for double and float, `NSDecimalNumber` for decimal,
    /// `Bool` for boolean), dates as `Date`, strings as `String`. `.undefinedAttributeType`
    /// (the default) takes the type from the expression: `count:` an integer, `average:` a
    /// double, `sum:`, `min:` and `max:` of an attribute that attribute's type.
    open var expressionResultType: NSAttributeType = .undefinedAttributeType

    public override init() {}
}
