import Cairn
import Foundation

/// The type of an attribute or of an expression's result (Core Data's raw values).
///
/// In Cairn it is what ``NSExpressionDescription/expressionResultType`` asks a dictionary fetch
/// to return a computed value as; a model's attribute types come from its Swift properties.
///
/// ```swift
/// let average = NSExpressionDescription()
/// average.name = "average"
/// average.expression = NSExpression(forFunction: "average:", arguments: [NSExpression(forKeyPath: "amount")])
/// average.expressionResultType = .decimalAttributeType   // {average: 12.5} as NSDecimalNumber
/// ```
public enum NSAttributeType: UInt, Sendable {
    /// No declared type: the value takes the type its expression gives (`count:` an integer,
    /// `average:` a double, `sum:`, `min:` and `max:` the type of their attribute).
    case undefinedAttributeType = 0
    /// A 16-bit integer: the value comes as an integer `NSNumber` (a fraction is truncated);
    /// Cairn does not narrow it to 16 bits.
    case integer16AttributeType = 100
    /// A 32-bit integer: the value comes as an integer `NSNumber` (a fraction is truncated);
    /// Cairn does not narrow it to 32 bits.
    case integer32AttributeType = 200
    /// A 64-bit integer: the value comes as an integer `NSNumber` (a fraction is truncated).
    case integer64AttributeType = 300
    /// A decimal number: the value comes as an `NSDecimalNumber`, made from SQLite's `REAL`.
    case decimalAttributeType = 400
    /// A double: the value comes as a `Double` `NSNumber`.
    case doubleAttributeType = 500
    /// A float: the value comes as a `Double` `NSNumber`, as for ``doubleAttributeType``.
    case floatAttributeType = 600
    /// A string: the value comes as a `String` (a number is written out in decimal).
    case stringAttributeType = 700
    /// A Boolean: the value comes as a Boolean `NSNumber`, true for any non-zero number.
    case booleanAttributeType = 800
    /// A date: the value, seconds since 2001-01-01 as Cairn stores dates, comes as a `Date`.
    case dateAttributeType = 900
    /// Binary data: the value comes as its attribute reads it, or as `Data`.
    case binaryDataAttributeType = 1000
    /// A UUID: the value comes as its attribute reads it.
    case UUIDAttributeType = 1100
    /// A URL: the value comes as its attribute reads it.
    case URIAttributeType = 1200
    /// A value stored through a transformer: the value comes as its attribute reads it.
    case transformableAttributeType = 1800
    /// An object ID: the value comes as the row's identifier (`NSManagedObjectID`), as
    /// `"objectID"` or an expression for the evaluated object in `propertiesToFetch` gives it.
    case objectIDAttributeType = 2000
    /// A composite attribute: the value comes as its attribute reads it.
    case compositeAttributeType = 2100
}

/// Core Data's `NSPropertyDescription`, as far as fetch requests need it: a named property
/// (here, the base of ``NSExpressionDescription``).
open class NSPropertyDescription {
    /// The property's name: in a dictionary fetch, the key of its value.
    open var name: String = ""
    /// Whether the property may be nil.
    open var isOptional = true

    /// A property with an empty name; set ``name`` before use.
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

    /// An empty description: set ``NSPropertyDescription/name`` and ``expression``; the result
    /// type is ``NSAttributeType/undefinedAttributeType`` until set.
    public override init() {}
}
