import CairnCoreData

/// The day `id` of the fixed dataset: 700,000,000 s after 2001-01-01 plus `id` days.
func day(_ id: Int) -> Date {
    Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(id) * 86_400)
}

/// Ten expenses as dictionaries, with nils, accents, mixed case, Int and Double amounts,
/// to-many arrays of strings and of dictionaries, and a nested to-one.
func expenses() -> [[String: Any]] {
    func item(_ name: String, _ qty: Int, _ price: Double) -> [String: Any] {
        ["name": name, "qty": qty, "price": price]
    }
    let ann: [String: Any] = ["name": "Ann", "address": ["city": "Paris"]]
    let bob: [String: Any] = ["name": "Bob", "address": ["city": "Berlin"]]
    let zoe: [String: Any] = ["name": "Zoë", "address": ["city": "Zürich"]]
    var rows: [[String: Any]] = [
        ["id": 1, "name": "Coffee", "amount": 4.5, "categoryName": "Food", "isBusiness": false,
         "notes": "Morning coffee", "tags": ["daily", "drink"], "items": [item("latte", 1, 4.5)],
         "owner": ann, "first": "yes"],
        ["id": 2, "name": "café", "amount": 3.0, "categoryName": "Food", "isBusiness": false,
         "tags": ["drink"], "items": [item("espresso", 2, 1.5)], "owner": ann],
        ["id": 3, "name": "Starbucks", "amount": 12.75, "categoryName": "Food", "isBusiness": true,
         "notes": "Client meeting", "tags": ["work", "drink"],
         "items": [item("latte", 2, 4.5), item("muffin", 1, 3.75)], "owner": ann],
        ["id": 4, "name": "Trader Joe's", "amount": 86.2, "categoryName": "Groceries", "isBusiness": false,
         "notes": "Weekly shop", "tags": ["weekly"],
         "items": [item("bread", 1, 3.2), item("cheese", 2, 9.0), item("wine", 3, 21.0)], "owner": ann],
        ["id": 5, "name": "Uber", "amount": 23, "categoryName": "Transport", "isBusiness": true,
         "tags": [String](), "items": [[String: Any]](), "owner": bob],
        ["id": 6, "name": "12345", "amount": 100.0, "categoryName": "Utilities", "isBusiness": false,
         "notes": "Invoice 12345", "tags": ["bill"], "items": [item("power", 1, 100.0)], "owner": bob],
        ["id": 7, "name": "Électricité", "amount": 55.5, "categoryName": "Utilities", "isBusiness": true,
         "notes": "EDF", "tags": ["bill", "work"], "items": [item("power", 1, 55.5)], "owner": bob],
        ["id": 8, "amount": 0.0, "isBusiness": false, "notes": ""],
        ["id": 9, "name": "item10", "amount": 7, "categoryName": "Misc", "isBusiness": false,
         "notes": "50% off_sale", "tags": ["sale"], "items": [item("pen", 10, 0.7)], "owner": zoe],
        ["id": 10, "name": "Item9", "amount": 9.99, "categoryName": "Misc", "isBusiness": false,
         "notes": "a*b?c", "tags": ["sale", "Misc"], "items": [item("pencil", 3, 3.33)], "owner": zoe],
    ]
    for index in rows.indices {
        if let id = rows[index]["id"] as? Int { rows[index]["date"] = day(id) }
    }
    return rows
}

/// The ids of the rows a predicate matches.
func matchingIDs(_ predicate: FormatPredicate, variables: [String: Any?] = [:]) throws -> [Int] {
    try expenses().filter { try predicate.evaluate(with: $0, substitutionVariables: variables) }
        .compactMap { $0["id"] as? Int }
}

let allIDs = Array(1...10)

/// Foundation's `predicateFormat` (which Cairn's predicates override), read through a protocol:
/// Foundation on Linux marks the property deprecated, and calling it directly would warn.
protocol PredicateFormatReadable {
    var predicateFormat: String { get }
}

extension NSPredicate: PredicateFormatReadable {}

/// `predicate.predicateFormat`, without the deprecation warning.
func printed(_ predicate: NSPredicate) -> String {
    (predicate as any PredicateFormatReadable).predicateFormat
}
