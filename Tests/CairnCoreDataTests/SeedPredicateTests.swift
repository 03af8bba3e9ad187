import CairnCoreData
import Testing

/// The predicate and sort code of seed 002 ("Chapter 8: Predicates and Sort Descriptors"),
/// with each call written exactly as in the seed, checked against Apple's documented answers.
@Suite("Seed 002: NSPredicate, NSCompoundPredicate and NSSortDescriptor as the chapter writes them")
struct SeedPredicateTests {
    func evaluate(_ predicate: NSPredicate, _ row: [String: Any]) -> Bool {
        #expect(predicate.formatError == nil, "\(predicate.formatError.map { "\($0)" } ?? "")")
        return predicate.evaluate(with: row)
    }

    @Test func simplePredicate() {
        // A simple predicate to find expenses over $50
        let predicate = NSPredicate(format: "amount > %f", 50.0)
        #expect(printed(predicate) == "amount > 50.0")
        #expect(evaluate(predicate, ["amount": 50.01]))
        #expect(!evaluate(predicate, ["amount": 50.0]))
        #expect(!evaluate(predicate, ["amount": 12]))
    }

    @Test func stringComparisons() {
        let exact = NSPredicate(format: "name == %@", "Coffee")
        #expect(evaluate(exact, ["name": "Coffee"]) && !evaluate(exact, ["name": "coffee"]))

        // "The [c] modifier ignores case. "Coffee" matches "coffee"." The chapter writes the
        // options before the operator, apart from the key; they print after it, as Apple's
        // grammar places them. (Without the space, `name[c]` is a subscript by key `c`.)
        let asWritten = NSPredicate(format: "name [c] == %@", "coffee")
        #expect(printed(asWritten) == "name ==[c] \"coffee\"")
        #expect(evaluate(asWritten, ["name": "Coffee"]))
        #expect(!evaluate(asWritten, ["name": "Tea"]))
        let accents = NSPredicate(format: "name [d] == %@", "cafe")
        #expect(evaluate(accents, ["name": "café"]))
        let caseInsensitive = NSPredicate(format: "name ==[c] %@", "coffee")
        #expect(evaluate(caseInsensitive, ["name": "Coffee"]))

        // "The [d] modifier ignores diacritics (accents). "café" matches "cafe"."
        let diacriticInsensitive = NSPredicate(format: "name ==[d] %@", "cafe")
        #expect(evaluate(diacriticInsensitive, ["name": "café"]))
        #expect(!evaluate(diacriticInsensitive, ["name": "Café"]))

        let combined = NSPredicate(format: "name CONTAINS[cd] %@", "bucks")
        #expect(evaluate(combined, ["name": "STARBUCKS"]))
        #expect(evaluate(combined, ["name": "Starbücks Reserve"]))
        #expect(!evaluate(combined, ["name": "Dunkin"]))

        let beginsWith = NSPredicate(format: "name BEGINSWITH[c] %@", "Star")
        #expect(evaluate(beginsWith, ["name": "starbucks"]))
        #expect(!evaluate(beginsWith, ["name": "Lodestar"]))
    }

    @Test func numberAndDateComparisons() {
        let amount = NSPredicate(format: "amount >= %@", NSNumber(value: 100))
        #expect(evaluate(amount, ["amount": 100.0]) && evaluate(amount, ["amount": 250]))
        #expect(!evaluate(amount, ["amount": 99.99]))

        let beforeToday = NSPredicate(format: "date < %@", Date() as NSDate)
        #expect(evaluate(beforeToday, ["date": Date(timeIntervalSinceNow: -3600)]))
        #expect(!evaluate(beforeToday, ["date": Date(timeIntervalSinceNow: 3600)]))
        // A comparison does not match nil.
        #expect(!evaluate(beforeToday, ["name": "no date"]))
    }

    @Test func collectionMembership() {
        let categories = ["Food", "Transport", "Utilities"]
        let predicate = NSPredicate(format: "categoryName IN %@", categories)
        #expect(evaluate(predicate, ["categoryName": "Transport"]))
        #expect(!evaluate(predicate, ["categoryName": "Groceries"]))
        #expect(!evaluate(predicate, [:]))
    }

    @Test func regularExpressions() {
        let numeric = NSPredicate(format: "name MATCHES %@", "^[0-9]+$")
        #expect(evaluate(numeric, ["name": "12345"]))
        #expect(!evaluate(numeric, ["name": "123a45"]))
        #expect(!evaluate(numeric, ["name": ""]))
    }

    @Test func dynamicPredicates() {
        let searchString = "Trader Joe's"

        // The seed's "bad" predicate: in Swift source `'\\(searchString)'` is the literal text
        // `'\(searchString)'` (no interpolation), which Cairn parses as the string
        // "(searchString)": it compiles, it just never finds "Trader Joe's".
        let badPredicate = NSPredicate(format: "name CONTAINS '\\(searchString)'")
        #expect(printed(badPredicate) == "name CONTAINS \"(searchString)\"")
        #expect(!evaluate(badPredicate, ["name": "Trader Joe's"]))
        // Interpolating for real is what breaks: the quote in Joe's ends the literal.
        let interpolated = NSPredicate(format: "name CONTAINS '\(searchString)'")
        #expect(interpolated.formatError?.code == .syntax)
        #expect(!interpolated.evaluate(with: ["name": "Trader Joe's"]))

        // "Safe argument substitution. Core Data escapes the string automatically."
        let goodPredicate = NSPredicate(format: "name CONTAINS %@", searchString)
        #expect(evaluate(goodPredicate, ["name": "Trader Joe's #552"]))
        #expect(!evaluate(goodPredicate, ["name": "Trader Joe"]))
    }

    @Test func dynamicKeyPaths() {
        // Let the user choose whether to search by "name" or "notes"
        let userSelectedProperty = "notes"
        let selectedProperty = userSelectedProperty  // e.g., "notes"
        let searchString = "Coffee"

        // "%@ puts quotes around the property name, treating it as a string literal"
        let bad = NSPredicate(format: "%@ CONTAINS %@", selectedProperty, searchString)
        #expect(printed(bad) == "\"notes\" CONTAINS \"Coffee\"")
        #expect(!evaluate(bad, ["notes": "Coffee with Sam"]))

        // "%K tells the parser to treat the argument as a key path."
        let good = NSPredicate(format: "%K CONTAINS %@", selectedProperty, searchString)
        #expect(printed(good) == "notes CONTAINS \"Coffee\"")
        #expect(evaluate(good, ["notes": "Coffee with Sam"]))
        #expect(!evaluate(good, ["name": "Coffee"]))
    }

    @Test func compoundPredicate() {
        let oneWeekAgo = Date().addingTimeInterval(-7 * 24 * 60 * 60)
        let amountPredicate = NSPredicate(format: "amount > %f", 50.0)
        let datePredicate = NSPredicate(format: "date >= %@", oneWeekAgo as NSDate)
        let businessPredicate = NSPredicate(format: "isBusiness == NO")

        // Combine them dynamically using AND
        let combinedPredicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            amountPredicate,
            datePredicate,
            businessPredicate,
        ])
        #expect(combinedPredicate.compoundPredicateType == .and)
        #expect(combinedPredicate.subpredicates.count == 3)
        let recent = Date().addingTimeInterval(-3600)
        #expect(evaluate(combinedPredicate, ["amount": 60.0, "date": recent, "isBusiness": false]))
        #expect(!evaluate(combinedPredicate, ["amount": 60.0, "date": recent, "isBusiness": true]))
        #expect(!evaluate(combinedPredicate, ["amount": 40.0, "date": recent, "isBusiness": false]))
        let old = Date().addingTimeInterval(-8 * 24 * 60 * 60)
        #expect(!evaluate(combinedPredicate, ["amount": 60.0, "date": old, "isBusiness": false]))
    }

    @Test func viewModelFilters() {
        // The view model's filter assembly (seed lines 972-990).
        func finalPredicate(search: String, start: Date?, end: Date?) -> NSPredicate? {
            var subpredicates: [NSPredicate] = []
            let trimmedSearch = search.trimmingCharacters(in: .whitespaces)
            if !trimmedSearch.isEmpty {
                let searchPredicate = NSPredicate(format: "name CONTAINS[cd] %@", trimmedSearch)
                subpredicates.append(searchPredicate)
            }
            if let start { subpredicates.append(NSPredicate(format: "date >= %@", start as NSDate)) }
            if let end { subpredicates.append(NSPredicate(format: "date <= %@", end as NSDate)) }
            return subpredicates.isEmpty ? nil : NSCompoundPredicate(andPredicateWithSubpredicates: subpredicates)
        }
        #expect(finalPredicate(search: "  ", start: nil, end: nil) == nil)
        let predicate = finalPredicate(search: " cafe ", start: day(1), end: day(3))
        let ids = expenses().filter { predicate?.evaluate(with: $0) ?? true }.compactMap { $0["id"] as? Int }
        #expect(ids == [2])
    }

    @Test func predicateOrderingFromThePerformanceSection() {
        let slowPredicate = NSPredicate(format: "name CONTAINS[cd] %@ AND amount > 100", "coffee")
        let fastPredicate = NSPredicate(format: "amount > 100 AND name CONTAINS[cd] %@", "coffee")
        let rows: [[String: Any]] = [
            ["name": "Coffee", "amount": 150], ["name": "Coffee", "amount": 50], ["name": "Tea", "amount": 500],
        ]
        #expect(rows.map(slowPredicate.evaluate) == [true, false, false])
        #expect(rows.map(fastPredicate.evaluate) == rows.map(slowPredicate.evaluate))
    }

    @Test func sortDescriptors() throws {
        let sortByDateNewest = NSSortDescriptor(key: "date", ascending: false)
        let sortByAmountHighest = NSSortDescriptor(key: "amount", ascending: false)
        #expect(try expenses().sortedArray(using: [sortByDateNewest]).compactMap { $0["id"] as? Int } == Array(allIDs.reversed()))
        #expect(try expenses().sortedArray(using: [sortByAmountHighest]).compactMap { $0["id"] as? Int }
            == [6, 4, 7, 5, 3, 10, 9, 1, 2, 8])
    }

    @Test func multipleSortDescriptors() throws {
        // Sort by Amount (highest first). If two items cost the same, put the newer one first.
        let sortDescriptors = [
            NSSortDescriptor(key: "amount", ascending: false),
            NSSortDescriptor(key: "date", ascending: false),
        ]
        let rows: [[String: Any]] = [
            ["id": 1, "amount": 10.0, "date": day(1)], ["id": 2, "amount": 20, "date": day(2)],
            ["id": 3, "amount": 10, "date": day(3)], ["id": 4, "amount": 20.0, "date": day(1)],
        ]
        #expect(try rows.sortedArray(using: sortDescriptors).compactMap { $0["id"] as? Int } == [2, 4, 3, 1])
    }

    @Test func localizedSorting() throws {
        // Uses NSString's localizedStandardCompare: for natural, case-insensitive sorting.
        // The seed writes `selector: #selector(NSString.localizedStandardCompare(_:))`, which
        // needs the Objective-C runtime; on Linux name the selector instead.
        let naturalSort = NSSortDescriptor(
            key: "name",
            ascending: true,
            selector: Selector("localizedStandardCompare:")
        )
        let names = ["Receipt 10", "receipt 9", "Receipt 1", "Café", "cafe", "Receipt 100", "receipt 2"]
        let rows = names.map { ["name": $0] }
        let sorted = try rows.sortedArray(using: [naturalSort]).compactMap { $0["name"] }
        #expect(sorted == ["cafe", "Café", "Receipt 1", "receipt 2", "receipt 9", "Receipt 10", "Receipt 100"])
    }
}
