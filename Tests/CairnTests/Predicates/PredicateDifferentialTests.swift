@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Thousands of generated predicates and sort lists over generated data: SQL must return
/// exactly the rows, in exactly the order, that Foundation's `filter { try evaluate($0) }`
/// and `sorted(using:)` give. Seeded, so a failure reproduces; it prints the predicate.
@Suite("Predicate differential (SQL vs evaluate)")
struct PredicateDifferentialTests {
    static let predicateCount = 1500

    @Test("generated predicates and sorts", arguments: [UInt64(1), 2])
    func generated(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let store = try PredicateStore(DifferentialData.specimens(count: 90, random: &random))
        var failures: [String] = []
        var unsupported = 0
        for iteration in 0..<Self.predicateCount {
            let (predicate, sort, descriptor) = DifferentialData.descriptor(random: &random)
            do {
                let actual = try store.fetch(descriptor)
                let expected = try store.expected(descriptor)
                let same = sort.isEmpty ? actual.sorted() == expected.sorted() : actual == expected
                if !same {
                    let sql = (try? store.sql(descriptor).sql) ?? "?"
                    failures.append(
                        "seed \(seed) #\(iteration): \(describe(predicate.expression))\n  sort: \(sort)\n  SQL: \(sql)\n  SQL rows: \(actual)\n  Swift rows: \(expected)")
                }
            } catch let error as SwiftDataError where error == .unsupportedPredicate {
                unsupported += 1
                failures.append("seed \(seed) #\(iteration): unsupported: \(error) in \(describe(predicate.expression))")
            }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(unsupported == 0)
    }

    @Test("a forced unwrap of nil raises in SQL as evaluate throws")
    func forcedUnwrapRaises() throws {
        var random = SeededRandom(seed: 9)
        let store = try PredicateStore(DifferentialData.specimens(count: 20, random: &random))
        let predicate = #Predicate<Specimen> { $0.rank! > 0 }
        #expect(throws: (any Error).self) { try store.expected(FetchDescriptor(predicate: predicate)) }
        #expect(throws: DatabaseError.self) { try store.fetch(FetchDescriptor(predicate: predicate)) }
    }
}

/// A predicate tree as text. (Foundation's own `Predicate.description` stops the program on
/// Linux for expression types defined outside Foundation, such as localizedStandardContains.)
func describe(_ node: Any) -> String {
    let mirror = Mirror(reflecting: node)
    let name = String(String(describing: type(of: node)).prefix { $0 != "<" })
    guard node is any PredicateExpression else { return String(describing: node) }
    if name == "Variable" { return "$0" }
    let parts = mirror.children.map { child in "\(child.label ?? "_"): \(describe(child.value))" }
    return name + "(" + parts.joined(separator: ", ") + ")"
}


typealias PE = PredicateExpressions
typealias SpecimenVariable = PE.Variable<Specimen>
typealias BoolExpression = any StandardPredicateExpression<Bool>

enum DifferentialData {
    /// The next generated descriptor: a predicate tree, a sort list and, for some sorted ones,
    /// a page. Both differentials draw them alike, so a seed means the same predicates.
    static func descriptor(random: inout SeededRandom)
        -> (predicate: Predicate<Specimen>, sort: [SortDescriptor<Specimen>], descriptor: FetchDescriptor<Specimen>)
    {
        let predicate = Predicate<Specimen> { variable in
            DifferentialData.tree(variable, depth: 3, random: &random)
        }
        let sort = DifferentialData.sortList(random: &random)
        var descriptor = FetchDescriptor(predicate: predicate, sortBy: sort)
        if !sort.isEmpty, random.next() % 4 == 0 {
            descriptor.fetchLimit = Int(random.next() % 20)
            if random.next() % 2 == 0 { descriptor.fetchOffset = Int(random.next() % 10) }
        }
        return (predicate, sort, descriptor)
    }

    static let names = [
        "", "a", "A", "b", "B", "é", "e\u{301}", "Éclair", "eclair", "éclair", "e\u{301}clair", "ß", "ss", "Z", "zz",
        "Café run", "cafe", "CAFE", "\u{212A}", "K", "k", "10", "9", " a", "a b", "Straße", "strasse", "Zebra", "zebra",
    ]
    static let counts = Array(-6...6)
    static let scores = [-1.5, 0, 0.5, 2, 2.25, 7, 1e-9]
    static let days = [0, 0.5, 10, 10, 20, 1_000_000.125, -3600]

    static func pick<T>(_ values: [T], _ random: inout SeededRandom) -> T {
        values[Int(random.next() % UInt64(values.count))]
    }

    static func maybe<T>(_ value: T, _ random: inout SeededRandom) -> T? {
        random.next() % 4 == 0 ? nil : value
    }

    /// A context on a new in-memory container holding `count` generated specimens, saved.
    static func savedSpecimens(count: Int, random: inout SeededRandom) throws -> (ModelContext, [Specimen]) {
        let context = ModelContext(try memoryContainer(for: Specimen.self))
        let specimens = specimens(count: count, random: &random)
        for specimen in specimens { context.insert(specimen) }
        try context.save()
        return (context, specimens)
    }

    static func specimens(count: Int, random: inout SeededRandom) -> [Specimen] {
        (0..<count).map { _ in
            specimen(
                pick(names, &random), nickname: maybe(pick(names, &random), &random), count: pick(counts, &random),
                score: pick(scores, &random), rank: maybe(pick(Array(-3...3), &random), &random),
                flag: random.next() % 2 == 0, day: pick(days, &random), due: maybe(pick(days, &random), &random),
                mood: pick(Temper.allCases, &random), token: Int(random.next() % 4),
                tags: (0..<Int(random.next() % 3)).map { _ in pick(["a", "b", "é", "e\u{301}"], &random) })
        }
    }

    static func date(_ random: inout SeededRandom) -> Date { referenceDay.addingTimeInterval(pick(days, &random)) }

    static func op(_ random: inout SeededRandom) -> PE.ComparisonOperator {
        pick([.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual], &random)
    }

    static func key<T>(_ variable: SpecimenVariable, _ keyPath: any KeyPath<Specimen, T> & Sendable) -> PE.KeyPath<SpecimenVariable, T> {
        PE.KeyPath(root: variable, keyPath: keyPath)
    }

    static func equal<L: StandardPredicateExpression, R: StandardPredicateExpression>(
        _ lhs: L, _ rhs: R, _ random: inout SeededRandom
    ) -> BoolExpression where L.Output == R.Output, L.Output: Equatable {
        random.next() % 2 == 0 ? PE.Equal(lhs: lhs, rhs: rhs) : PE.NotEqual(lhs: lhs, rhs: rhs)
    }

    // MARK: Trees

    static func tree(_ variable: SpecimenVariable, depth: Int, random: inout SeededRandom) -> BoolExpression {
        let roll = depth == 0 ? 0 : random.next() % 10
        switch roll {
        case 0...4: return atom(variable, &random)
        case 5, 6: return and(tree(variable, depth: depth - 1, random: &random), tree(variable, depth: depth - 1, random: &random))
        case 7, 8: return or(tree(variable, depth: depth - 1, random: &random), tree(variable, depth: depth - 1, random: &random))
        default: return not(tree(variable, depth: depth - 1, random: &random))
        }
    }

    static func and(_ lhs: BoolExpression, _ rhs: BoolExpression) -> BoolExpression {
        func make<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(_ l: L, _ r: R) -> BoolExpression {
            PE.Conjunction(lhs: l, rhs: r)
        }
        return make(lhs, rhs)
    }

    static func or(_ lhs: BoolExpression, _ rhs: BoolExpression) -> BoolExpression {
        func make<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(_ l: L, _ r: R) -> BoolExpression {
            PE.Disjunction(lhs: l, rhs: r)
        }
        return make(lhs, rhs)
    }

    static func not(_ wrapped: BoolExpression) -> BoolExpression {
        func make<W: StandardPredicateExpression<Bool>>(_ w: W) -> BoolExpression { PE.Negation(w) }
        return make(wrapped)
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    static func atom(_ v: SpecimenVariable, _ r: inout SeededRandom) -> BoolExpression {
        switch r.next() % 38 {
        case 0: return PE.Comparison(lhs: key(v, \.count), rhs: PE.Value(pick(counts, &r)), op: op(&r))
        case 1: return PE.Comparison(lhs: key(v, \.score), rhs: PE.Value(pick(scores, &r)), op: op(&r))
        case 2: return PE.Comparison(lhs: key(v, \.name), rhs: PE.Value(pick(names, &r)), op: op(&r))
        case 3: return equal(key(v, \.name), PE.Value(pick(names, &r)), &r)
        case 4: return equal(key(v, \.nickname), PE.Value(maybe(pick(names, &r), &r)), &r)
        case 5: return equal(key(v, \.rank), PE.Value(maybe(pick(Array(-3...3), &r), &r)), &r)
        case 6: return key(v, \.flag)
        case 7: return equal(key(v, \.flag), PE.Value(r.next() % 2 == 0), &r)
        case 8: return PE.Comparison(lhs: key(v, \.day), rhs: PE.Value(date(&r)), op: op(&r))
        case 9: return equal(key(v, \.due), PE.Value(maybe(date(&r), &r)), &r)
        case 10: return equal(key(v, \.mood), PE.Value(pick(Temper.allCases, &r)), &r)
        case 11: return PE.Comparison(lhs: key(v, \.token), rhs: PE.Value(pick(tokens, &r)), op: op(&r))
        case 12: return PE.CollectionContainsCollection(base: key(v, \.name), other: PE.Value(pick(names, &r)))
        case 13: return PE.SequenceStartsWith(base: key(v, \.name), prefix: PE.Value(pick(names, &r)))
        case 14: return PE.build_localizedStandardContains(key(v, \.name), PE.Value(pick(names, &r)))
        case 15: return PE.SequenceContains(sequence: PE.Value((0..<3).map { _ in pick(counts, &r) }), element: key(v, \.count))
        case 16: return PE.SequenceContains(sequence: PE.Value((0..<4).map { _ in pick(names, &r) }), element: key(v, \.name))
        case 17:
            let ranks: [Int?] = (0..<3).map { _ in maybe(pick(Array(-3...3), &r), &r) }
            return PE.SequenceContains(sequence: PE.Value(ranks), element: key(v, \.rank))
        case 18:
            let a = pick(counts, &r), b = pick(counts, &r)
            return PE.RangeExpressionContains(range: PE.Value(min(a, b)...max(a, b)), element: key(v, \.count))
        case 19:
            let a = pick(scores, &r), b = pick(scores, &r)
            return PE.RangeExpressionContains(range: PE.Value(min(a, b)..<max(a, b)), element: key(v, \.score))
        case 20:
            let sum = PE.Arithmetic(lhs: key(v, \.count), rhs: PE.Value(pick(counts, &r)), op: pick([.add, .subtract, .multiply], &r))
            return PE.Comparison(lhs: sum, rhs: PE.Value(pick(counts, &r)), op: op(&r))
        case 21:
            let divisor = pick([-3, -2, 2, 3, 4], &r)
            if r.next() % 2 == 0 {
                return equal(PE.IntDivision(lhs: key(v, \.count), rhs: PE.Value(divisor)), PE.Value(pick(counts, &r)), &r)
            }
            return equal(PE.IntRemainder(lhs: key(v, \.count), rhs: PE.Value(divisor)), PE.Value(pick([-2, -1, 0, 1, 2], &r)), &r)
        case 22: return PE.Comparison(lhs: PE.UnaryMinus(key(v, \.count)), rhs: PE.Value(pick(counts, &r)), op: op(&r))
        case 23:
            let choice = PE.Conditional(test: key(v, \.flag), trueBranch: key(v, \.count), falseBranch: PE.UnaryMinus(key(v, \.count)))
            return PE.Comparison(lhs: choice, rhs: PE.Value(pick(counts, &r)), op: op(&r))
        case 24:
            return PE.Comparison(lhs: PE.NilCoalesce(lhs: key(v, \.rank), rhs: PE.Value(pick(counts, &r))), rhs: PE.Value(pick(counts, &r)), op: op(&r))
        case 25:
            let limit = pick(counts, &r), comparison = op(&r)
            let mapped = PE.OptionalFlatMap(key(v, \.rank)) { rank in PE.Comparison(lhs: rank, rhs: PE.Value(limit), op: comparison) }
            return equal(mapped, PE.Value(maybe(r.next() % 2 == 0, &r)), &r)
        case 26: return PE.Comparison(lhs: PE.KeyPath(root: key(v, \.name), keyPath: \String.count), rhs: PE.Value(Int(r.next() % 4)), op: op(&r))
        case 27: return PE.KeyPath(root: key(v, \.name), keyPath: \String.isEmpty)
        case 28: return PE.SequenceContains(sequence: PE.Value([pick(Temper.allCases, &r), pick(Temper.allCases, &r)]), element: key(v, \.mood))
        case 29:
            let present = PE.NotEqual(lhs: key(v, \.rank), rhs: PE.NilLiteral<Int>())
            return PE.Conjunction(lhs: present, rhs: PE.Comparison(lhs: PE.ForcedUnwrap(key(v, \.rank)), rhs: PE.Value(pick(counts, &r)), op: op(&r)))
        case 30:
            let needle = pick(names, &r)
            let mapped = PE.OptionalFlatMap(key(v, \.nickname)) { nickname in PE.build_localizedStandardContains(nickname, PE.Value(needle)) }
            return PE.NilCoalesce(lhs: mapped, rhs: PE.Value(r.next() % 2 == 0))
        case 31: return PE.SequenceContains(sequence: key(v, \.tags), element: PE.Value(pick(["a", "b", "é", "x"], &r)))
        case 32: return PE.Comparison(lhs: PE.NilCoalesce(lhs: key(v, \.due), rhs: key(v, \.day)), rhs: PE.Value(date(&r)), op: op(&r))
        case 33:
            let folded = PE.Arithmetic(lhs: PE.Value(pick(scores, &r)), rhs: PE.Value(pick(scores, &r)), op: .add)
            return PE.Comparison(lhs: key(v, \.score), rhs: folded, op: op(&r))
        case 34:
            let result = pick([ComparisonResult.orderedAscending, .orderedSame, .orderedDescending], &r)
            return equal(PE.build_caseInsensitiveCompare(key(v, \.name), PE.Value(pick(names, &r))), PE.Value(result), &r)
        case 35: return PE.KeyPath(root: key(v, \.tags), keyPath: \[String].isEmpty)
        case 36:
            // Arithmetic inside a closure: checked evaluation of the closure's body in memory.
            let offset = pick(counts, &r), limit = pick(counts, &r), comparison = op(&r)
            let arithmetic = pick([PE.ArithmeticOperator.add, .subtract, .multiply], &r)
            let mapped = PE.OptionalFlatMap(key(v, \.rank)) { rank in
                PE.Comparison(lhs: PE.Arithmetic(lhs: rank, rhs: PE.Value(offset), op: arithmetic), rhs: PE.Value(limit), op: comparison)
            }
            return PE.NilCoalesce(lhs: mapped, rhs: PE.Value(r.next() % 2 == 0))
        default: return PE.Comparison(lhs: PE.KeyPath(root: key(v, \.tags), keyPath: \[String].count), rhs: PE.Value(Int(r.next() % 3)), op: op(&r))
        }
    }

    // MARK: Sorts

    static func sortList(random: inout SeededRandom) -> [SortDescriptor<Specimen>] {
        (0..<Int(random.next() % 4)).map { _ in
            let order: SortOrder = random.next() % 2 == 0 ? .forward : .reverse
            switch random.next() % 9 {
            case 0: return SortDescriptor(\Specimen.name, order: order)
            case 1: return SortDescriptor(\Specimen.nickname, order: order)
            case 2: return SortDescriptor(\Specimen.count, order: order)
            case 3: return SortDescriptor(\Specimen.score, order: order)
            case 4: return SortDescriptor(\Specimen.rank, order: order)
            case 5: return SortDescriptor(\Specimen.day, order: order)
            case 6: return SortDescriptor(\Specimen.due, order: order)
            case 7: return SortDescriptor(\Specimen.token, order: order)
            default: return SortDescriptor(\Specimen.name, comparator: .lexical, order: order)
            }
        }
    }
}

/// The same generated predicates through `ModelContext.fetch`, with unsaved inserts, edits and
/// deletes present, with and without `includePendingChanges`.
@Suite("Fetch differential with pending changes")
struct PendingChangesDifferentialTests {
    @Test("generated predicates over saved and unsaved models", arguments: [UInt64(5), 6])
    func generated(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var (context, saved) = try DifferentialData.savedSpecimens(count: 60, random: &random)
        // Snapshot of the stored state, for includePendingChanges = false.
        let storedValues = Dictionary(uniqueKeysWithValues: saved.map { ($0.persistentModelID, ($0.count, $0.name, $0.rank)) })
        // Unsaved: edit some, delete some, insert some.
        for specimen in saved where random.next() % 5 == 0 {
            specimen.count = DifferentialData.pick(DifferentialData.counts, &random)
            specimen.name = DifferentialData.pick(DifferentialData.names, &random)
            specimen.rank = DifferentialData.maybe(DifferentialData.pick(Array(-3...3), &random), &random)
        }
        let deleted = saved.filter { _ in random.next() % 7 == 0 }
        for specimen in deleted { context.delete(specimen) }
        saved.removeAll { model in deleted.contains { $0 === model } }
        let inserted = DifferentialData.specimens(count: 12, random: &random)
        for specimen in inserted { context.insert(specimen) }
        let live = saved + inserted

        var failures: [String] = []
        for iteration in 0..<500 {
            let predicate = Predicate<Specimen> { variable in DifferentialData.tree(variable, depth: 2, random: &random) }
            var sort = DifferentialData.sortList(random: &random)
            if sort.isEmpty { sort = [SortDescriptor(\Specimen.count)] }
            var descriptor = FetchDescriptor(predicate: predicate, sortBy: sort)
            if random.next() % 3 == 0 {
                descriptor.fetchLimit = Int(random.next() % 15)
                descriptor.fetchOffset = Int(random.next() % 5)
            }
            var expected = try live.filter { try predicate.evaluate($0) }.sorted(using: sort)
            expected = Array(expected.dropFirst(descriptor.fetchOffset ?? 0))
            if let limit = descriptor.fetchLimit { expected = Array(expected.prefix(limit)) }
            let fetched = try context.fetch(descriptor)
            if fetched.map(ObjectIdentifier.init) != expected.map(ObjectIdentifier.init) {
                failures.append("seed \(seed) #\(iteration): \(describe(predicate.expression))\n  fetched \(fetched.map(\.name))\n  expected \(expected.map(\.name))")
            }
            #expect(try context.fetchCount(descriptor) == expected.count)
            if failures.count > 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")

        // Without pending changes: exactly the stored rows, judged on the stored values.
        var storedOnly = FetchDescriptor<Specimen>(predicate: #Predicate { $0.count >= 0 })
        storedOnly.includePendingChanges = false
        let ids = Set(try context.fetch(storedOnly).map(\.persistentModelID))
        #expect(ids == Set(storedValues.filter { $0.value.0 >= 0 }.keys))
    }
}
