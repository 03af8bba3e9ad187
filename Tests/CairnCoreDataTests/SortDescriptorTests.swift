import CairnCoreData
import Testing

@Suite("NSSortDescriptor and FormatSortDescriptor: the five Core Data string comparisons, nils, ties")
struct SortDescriptorTests {
    func sortedNames(_ names: [String?], _ selector: String?, ascending: Bool = true) throws -> [String?] {
        let rows: [[String: Any]] = names.map { name in name.map { ["name": $0] } ?? [:] }
        let descriptor = NSSortDescriptor(key: "name", ascending: ascending, selector: selector.map { Selector($0) })
        return try rows.sortedArray(using: [descriptor]).map { $0["name"] as? String }
    }

    @Test func compareIsLiteralOrder() throws {
        #expect(try sortedNames(["b", "B", "a", "A", "é", "e"], "compare:") == ["A", "B", "a", "b", "e", "é"])
        #expect(try sortedNames(["b", "B", "a", "A"], nil) == ["A", "B", "a", "b"])
    }

    @Test func caseInsensitiveCompareKeepsInputOrderForCaseVariants() throws {
        #expect(try sortedNames(["b", "B", "a", "A"], "caseInsensitiveCompare:") == ["a", "A", "b", "B"])
        #expect(try sortedNames(["B", "b", "A", "a"], "caseInsensitiveCompare:") == ["A", "a", "B", "b"])
    }

    @Test func localizedCompareFoldsThenPutsLowercaseAndUnaccentedFirst() throws {
        #expect(try sortedNames(["B", "b", "A", "a", "é", "E", "e"], "localizedCompare:")
            == ["a", "A", "b", "B", "e", "E", "é"])
        #expect(try sortedNames(["B", "b", "A", "a"], "localizedCaseInsensitiveCompare:") == ["A", "a", "B", "b"])
    }

    @Test func localizedStandardCompareIsNatural() throws {
        let names = ["file10.txt", "File9.txt", "file2.txt", "file1.txt", "file01.txt", "File", "éclair", "eclair", "Zeta"]
        #expect(try sortedNames(names, "localizedStandardCompare:")
            == ["eclair", "éclair", "File", "file1.txt", "file01.txt", "file2.txt", "File9.txt", "file10.txt", "Zeta"])
        let comparison = FormatStringComparison.localizedStandardCompare
        #expect(comparison.compare("item 99999999999999999999", "item 100000000000000000000") == .orderedAscending)
        #expect(comparison.compare("a2b10", "a2b9") == .orderedDescending)
        #expect(comparison.compare("", "a") == .orderedAscending)
        #expect(comparison.compare("abc", "ABC") == .orderedAscending)
    }

    @Test func nilSortsFirstAscendingAndLastDescending() throws {
        #expect(try sortedNames(["b", nil, "a"], nil) == [nil, "a", "b"])
        #expect(try sortedNames(["b", nil, "a"], nil, ascending: false) == ["b", "a", nil])
    }

    @Test func numbersOfMixedTypesCompareByValue() throws {
        let rows: [[String: Any]] = [["v": 3], ["v": 2.5], ["v": 10], ["v": true], ["v": -1.5]]
        let sorted = try rows.sortedArray(using: [NSSortDescriptor(key: "v", ascending: true)])
        #expect(sorted.map { "\($0["v"] ?? "nil")" } == ["-1.5", "true", "2.5", "3", "10"])
    }

    @Test func laterDescriptorsBreakTiesAndTheSortIsStable() throws {
        let rows: [[String: Any]] = [
            ["id": 1, "a": 1, "b": "x"], ["id": 2, "a": 0, "b": "y"], ["id": 3, "a": 1, "b": "w"],
            ["id": 4, "a": 0, "b": "y"], ["id": 5, "a": 1, "b": "x"],
        ]
        let sorted = try rows.sortedArray(using: [
            NSSortDescriptor(key: "a", ascending: false), NSSortDescriptor(key: "b", ascending: true),
        ])
        #expect(sorted.compactMap { $0["id"] as? Int } == [3, 1, 5, 2, 4])
    }

    @Test func keyPathsReachIntoNestedObjects() throws {
        let sorted = try expenses().sortedArray(using: [
            NSSortDescriptor(key: "owner.address.city", ascending: true),
            NSSortDescriptor(key: "id", ascending: false),
        ])
        #expect(sorted.compactMap { $0["id"] as? Int } == [8, 7, 6, 5, 4, 3, 2, 1, 10, 9])
    }

    @Test func unknownSelectorIsAnErrorWhenUsedNotACrash() {
        let descriptor = NSSortDescriptor(key: "name", ascending: true, selector: Selector("fooCompare:"))
        #expect(descriptor.selectorError?.code == .unsupported)
        #expect("\(descriptor.selectorError.map { "\($0)" } ?? "")".contains("localizedStandardCompare:"))
        #expect(throws: FormatPredicateError.self) { try expenses().sortedArray(using: [descriptor]) }
        #expect(descriptor.compare(["name": "a"], to: ["name": "b"]) == .orderedSame)
    }

    @Test func compareAndReversedSortDescriptor() throws {
        let descriptor = NSSortDescriptor(key: "amount", ascending: true)
        #expect(descriptor.compare(["amount": 1], to: ["amount": 2]) == .orderedAscending)
        let reversed = try #require(descriptor.reversedSortDescriptor as? NSSortDescriptor)
        #expect(!reversed.ascending && reversed.key == "amount")
        #expect(reversed.compare(["amount": 1], to: ["amount": 2]) == .orderedDescending)
        #expect(descriptor == NSSortDescriptor(key: "amount", ascending: true, selector: nil))
        #expect(descriptor.description == "(amount, ascending, compare:)")
    }

    @Test func selectorSpellings() {
        let fromLiteral: Selector = "localizedStandardCompare:"
        #expect(fromLiteral == Selector("localizedStandardCompare:"))
        #expect(NSStringFromSelector(NSSelectorFromString("compare:")) == "compare:")
        for comparison in FormatStringComparison.allCases {
            #expect(NSSortDescriptor(key: "k", ascending: true, selector: Selector(comparison.rawValue)).selectorError == nil)
        }
    }
}
