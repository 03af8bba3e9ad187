import Cairn
import Foundation

/// What a fetch request can return (Core Data's protocol): models, `NSManagedObjectID`,
/// `NSDictionary` and `NSNumber` conform.
///
/// ```swift
/// let request: NSFetchRequest<NSFetchRequestResult> = Expense.fetchRequest()
/// request.resultType = .dictionaryResultType
/// request.propertiesToFetch = ["name"]
/// let rows = try context.fetch(request) as? [[String: Any]] ?? []
/// ```
public typealias NSFetchRequestResult = FetchRequestResult

extension NSNumber: NSFetchRequestResult {}
extension NSDictionary: NSFetchRequestResult {}

/// What a fetch returns: objects, their identifiers, dictionaries of values, or a count
/// (Apple's raw values).
public struct NSFetchRequestResultType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The objects (the default).
    public static let managedObjectResultType = NSFetchRequestResultType([])
    /// Their identifiers only.
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    /// `[String: Any]` of `propertiesToFetch`.
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    /// One number: how many objects match.
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

/// Core Data's `NSFetchRequest`: which entity, which objects (`predicate`), in which order
/// (`sortDescriptors`), how many, and in what form.
///
/// ```swift
/// let request = NSFetchRequest<Expense>(entityName: "Expense")
/// request.predicate = NSPredicate(format: "amount > %f", 50.0)
/// request.sortDescriptors = [NSSortDescriptor(key: "date", ascending: false)]
/// request.fetchLimit = 20
/// try request.sqlSelect(for: expenseEntity).render().sql
/// // SELECT * FROM "Expense" WHERE "Expense"."amount" > ?
/// //   ORDER BY "Expense"."date" DESC, "Expense"."id" ASC LIMIT ?
/// ```
///
/// Cairn compiles the request to the query IR with ``sqlSelect(for:)``; running it through a
/// context (`fetch(_:)`, `count(for:)`) builds on that.
///
/// Not `Sendable`: like Apple's, a request is configured by mutation; make one per use.
open class NSFetchRequest<ResultType>: CustomStringConvertible {
    /// The entity's name.
    public var entityName: String?
    /// Which objects; nil fetches all.
    public var predicate: NSPredicate?
    /// The order, applied in turn; nil or empty means by primary key.
    public var sortDescriptors: [NSSortDescriptor]?
    /// The most objects to return; 0 means no limit.
    public var fetchLimit = 0
    /// How many matching objects to skip.
    public var fetchOffset = 0
    /// Objects to load at a time as the results are read (the `FetchResultsCollection`
    /// overload of `fetch(_:)`); 0 loads all at once.
    public var fetchBatchSize = 0
    /// Objects, identifiers, dictionaries or a count.
    public var resultType: NSFetchRequestResultType = .managedObjectResultType
    /// For `.dictionaryResultType`: what each dictionary holds: property names (`String`) and
    /// ``NSExpressionDescription``s (aggregates such as `sum:`, keyed by their name).
    public var propertiesToFetch: [Any]?
    /// For `.dictionaryResultType`: the property names (or descriptions) to group by.
    public var propertiesToGroupBy: [Any]?
    /// With `propertiesToGroupBy`: which groups to keep; `$name` (or `%@` with
    /// `NSExpression(forVariable: "name")`) is the fetched value of that name.
    public var havingPredicate: NSPredicate?
    /// With `propertiesToFetch`: drop duplicate dictionaries.
    public var returnsDistinctResults = false
    /// Whether unsaved changes of the context take part (not with dictionaries).
    public var includesPendingChanges = true
    /// Whether sub-entities are fetched too (Cairn has no entity inheritance).
    public var includesSubentities = true
    /// Whether objects start as faults.
    public var returnsObjectsAsFaults = true
    /// Whether property values are loaded with the objects.
    public var includesPropertyValues = true
    /// Relationships to load with the objects.
    public var relationshipKeyPathsForPrefetching: [String]?

    /// An empty request; set ``entityName`` before fetching.
    public init() {}

    /// A request for the objects of an entity.
    public convenience init(entityName: String) {
        self.init()
        self.entityName = entityName
    }

    public var description: String {
        "<NSFetchRequest entity: \(entityName ?? "nil"); predicate: (\(predicate?.formatPredicate.predicateFormat ?? "nil")); "
            + "sortDescriptors: (\((sortDescriptors ?? []).map(\.description).joined(separator: ", "))); "
            + "limit: \(fetchLimit); offset: \(fetchOffset); type: \(resultType.rawValue)>"
    }
}

/// Two requests are equal when they ask for the same thing: the same entity, predicate, sort
/// descriptors, limits, result type, properties and options (Core Data's `isEqual:` of
/// fetch requests). Like any request, a request used as a dictionary key must not change.
extension NSFetchRequest: Hashable {
    public static func == (lhs: NSFetchRequest, rhs: NSFetchRequest) -> Bool {
        if lhs === rhs { return true }
        return lhs.entityName == rhs.entityName && samePredicate(lhs.predicate, rhs.predicate)
            && lhs.sortDescriptors == rhs.sortDescriptors && lhs.fetchLimit == rhs.fetchLimit
            && lhs.fetchOffset == rhs.fetchOffset && lhs.fetchBatchSize == rhs.fetchBatchSize
            && lhs.resultType == rhs.resultType
            && sameProperties(lhs.propertiesToFetch, rhs.propertiesToFetch)
            && sameProperties(lhs.propertiesToGroupBy, rhs.propertiesToGroupBy)
            && samePredicate(lhs.havingPredicate, rhs.havingPredicate) && lhs.returnsDistinctResults == rhs.returnsDistinctResults
            && lhs.includesPendingChanges == rhs.includesPendingChanges
            && lhs.includesSubentities == rhs.includesSubentities
            && lhs.returnsObjectsAsFaults == rhs.returnsObjectsAsFaults
            && lhs.includesPropertyValues == rhs.includesPropertyValues
            && lhs.relationshipKeyPathsForPrefetching == rhs.relationshipKeyPathsForPrefetching
    }

    /// The entity, predicate, limits and result type (equal requests agree on them).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entityName)
        hasher.combine(predicate.flatMap { try? $0.tree() })
        hasher.combine(fetchLimit)
        hasher.combine(fetchOffset)
        hasher.combine(resultType)
    }

    /// Predicates compare by tree (the `==` of `NSPredicate`).
    private static func samePredicate(_ lhs: NSPredicate?, _ rhs: NSPredicate?) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        return lhs == rhs
    }

    /// Property lists compare element by element: names and other `Hashable` values by value,
    /// descriptions by identity.
    private static func sameProperties(_ lhs: [Any]?, _ rhs: [Any]?) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { left, right in
            if let left = left as? AnyHashable, let right = right as? AnyHashable { return left == right }
            return type(of: left) is AnyClass && type(of: right) is AnyClass && (left as AnyObject) === (right as AnyObject)
        }
    }
}
