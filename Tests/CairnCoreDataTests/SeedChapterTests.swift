// Seed 002 ("Chapter 8: Predicates and Sort Descriptors"): its predicate, sort and repository
// code, with the seed's own imports. Changes from the seed, each forced by Linux:
// - `Expense` is a `@Model` class: `NSManagedObject` subclasses with `@NSManaged` properties and
//   `@objc(Expense)` need the Objective-C runtime.
// - `#selector(...)` becomes `Selector("...")` (no Objective-C runtime).
// - A bare `NSFetchRequest` becomes `NSFetchRequest<Expense>`: Swift cannot write a generic
//   class without its argument (Objective-C's lightweight generics can).
// - The SwiftUI views and the list view model are left out (no SwiftUI on Linux).
// - `ExpenseFRCViewModel` is `@MainActor` (Cairn's NSFetchedResultsController is main-actor
//   bound) and gets an initializer (the seed never shows where its controller comes from).
import Foundation
import CoreData
import Observation
import Testing

@Model
public final class Expense {
    public var amount: Double
    public var name: String?
    public var date: Date?
    public var categoryName: String?
    public var isBusiness: Bool
    public var notes: String?

    public init(amount: Double, name: String?, date: Date?, categoryName: String? = nil, isBusiness: Bool = false, notes: String? = nil) {
        self.amount = amount
        self.name = name
        self.date = date
        self.categoryName = categoryName
        self.isBusiness = isBusiness
        self.notes = notes
    }

    public class func fetchRequest() -> NSFetchRequest<Expense> {  // Linux: NSFetchRequest<Expense>
        return NSFetchRequest<Expense>(entityName: "Expense")
    }
}

class PredicateExamples {
    func simplePredicate() -> NSPredicate {
        let predicate = NSPredicate(format: "amount > %f", 50.0)
        return predicate
    }
    func collectionMembership() -> NSPredicate {
        let categories = ["Food", "Transport", "Utilities"]
        let predicate = NSPredicate(format: "categoryName IN %@", categories)
        return predicate
    }
    func dynamicPredicates() -> (bad: NSPredicate, good: NSPredicate) {
        let searchString = "Trader Joe's"
        let badPredicate = NSPredicate(format: "name CONTAINS '\\(searchString)'") // Crash!
        let goodPredicate = NSPredicate(format: "name CONTAINS %@", searchString)
        return (badPredicate, goodPredicate)
    }
    func dynamicKeyPaths() -> (bad: NSPredicate, good: NSPredicate) {
        let userSelectedProperty = "notes"
        let selectedProperty = userSelectedProperty // e.g., "notes"
        let searchString = "Coffee"
        let bad = NSPredicate(format: "%@ CONTAINS %@", selectedProperty, searchString)
        let good = NSPredicate(format: "%K CONTAINS %@", selectedProperty, searchString)
        return (bad, good)
    }
    func compoundPredicate() -> NSCompoundPredicate {
        let oneWeekAgo = Date().addingTimeInterval(-7 * 24 * 60 * 60)
        let amountPredicate = NSPredicate(format: "amount > %f", 50.0)
        let datePredicate = NSPredicate(format: "date >= %@", oneWeekAgo as NSDate)
        let businessPredicate = NSPredicate(format: "isBusiness == NO")
        let combinedPredicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            amountPredicate,
            datePredicate,
            businessPredicate
        ])
        return combinedPredicate
    }
    func sortDescriptors() -> [NSSortDescriptor] {
        let sortByDateNewest = NSSortDescriptor(key: "date", ascending: false)
        let sortByAmountHighest = NSSortDescriptor(key: "amount", ascending: false)
        return [sortByDateNewest, sortByAmountHighest]
    }
    func multipleSortDescriptors() -> NSFetchRequest<Expense> {
        let fetchRequest: NSFetchRequest<Expense> = Expense.fetchRequest()  // Linux: <Expense>
        fetchRequest.sortDescriptors = [
            NSSortDescriptor(key: "amount", ascending: false),
            NSSortDescriptor(key: "date", ascending: false)
        ]
        return fetchRequest
    }
    func localizedSorting() -> NSSortDescriptor {
        let naturalSort = NSSortDescriptor(
            key: "name",
            ascending: true,
            selector: Selector("localizedStandardCompare:")  // Linux: no #selector without Objective-C
        )
        return naturalSort
    }
    func predicateOrdering() -> (slow: NSPredicate, fast: NSPredicate) {
        let slowPredicate = NSPredicate(format: "name CONTAINS[cd] %@ AND amount > 100", "coffee")
        let fastPredicate = NSPredicate(format: "amount > 100 AND name CONTAINS[cd] %@", "coffee")
        return (slowPredicate, fastPredicate)
    }
    func fetchBatching() -> NSFetchRequest<Expense> {
        let request: NSFetchRequest<Expense> = Expense.fetchRequest()  // Linux: <Expense>
        request.fetchBatchSize = 20
        request.fetchLimit = 100
        return request
    }
    func dictionaryResults() -> NSFetchRequest<NSDictionary> {
        let request = NSFetchRequest<NSDictionary>(entityName: "Expense")  // Linux: <NSDictionary>
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "amount"]
        // Returns [[String: Any]] instead of [Expense]
        return request
    }
}

protocol ExpenseRepositoryProtocol {
    func fetchExpenses(
        predicate: NSPredicate?,
        sortDescriptors: [NSSortDescriptor]?
    ) async throws -> [Expense]
}

class ExpenseRepository: ExpenseRepositoryProtocol {
    let context: NSManagedObjectContext
    init(context: NSManagedObjectContext) { self.context = context }
    func fetchExpenses(
        predicate: NSPredicate? = nil,
        sortDescriptors: [NSSortDescriptor]? = nil
    ) async throws -> [Expense] {
        return try await withCheckedThrowingContinuation { continuation in
            let backgroundContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            backgroundContext.persistentStoreCoordinator = self.context.persistentStoreCoordinator
            backgroundContext.perform {
                let request: NSFetchRequest<Expense> = Expense.fetchRequest()  // Linux: <Expense>
                request.predicate = predicate
                if let sortDescriptors = sortDescriptors, !sortDescriptors.isEmpty {
                    request.sortDescriptors = sortDescriptors
                } else {
                    request.sortDescriptors = [NSSortDescriptor(key: "date", ascending: false)]
                }
                do {
                    let backgroundExpenses = try backgroundContext.fetch(request)
                    let objectIDs = backgroundExpenses.map { $0.objectID }
                    self.context.perform {
                        // Swift 6: [Expense] is not Sendable (nor is [NSManagedObject] on Apple's
                        // platforms), so handing it to the continuation needs this marker.
                        nonisolated(unsafe) let mainThreadExpenses = objectIDs.compactMap { self.context.object(with: $0) as? Expense }
                        continuation.resume(returning: mainThreadExpenses)
                    }
                } catch { continuation.resume(throwing: error) }
            }
        }
    }
}

enum ExpenseSortOption: String, CaseIterable {
    case dateNewest = "Date (Newest First)"
    case dateOldest = "Date (Oldest First)"
    case amountHighest = "Amount (High to Low)"
    case amountLowest = "Amount (Low to High)"

    var sortDescriptors: [NSSortDescriptor] {
        switch self {
        case .dateNewest: return [NSSortDescriptor(key: "date", ascending: false)]
        case .dateOldest: return [NSSortDescriptor(key: "date", ascending: true)]
        case .amountHighest: return [NSSortDescriptor(key: "amount", ascending: false), NSSortDescriptor(key: "date", ascending: false)]
        case .amountLowest: return [NSSortDescriptor(key: "amount", ascending: true), NSSortDescriptor(key: "date", ascending: false)]
        }
    }
}

@MainActor  // Linux: Cairn's NSFetchedResultsController is main-actor bound
@Observable class ExpenseFRCViewModel: NSObject {
    private var fetchedResultsController: NSFetchedResultsController<Expense>!  // Linux: <Expense>
    init(controller: NSFetchedResultsController<Expense>) { fetchedResultsController = controller }  // added
    var names: [String] { fetchedResultsController.fetchedObjects?.compactMap(\.name) ?? [] }  // added
    func applyFilters(predicate: NSPredicate?, sortDescriptors: [NSSortDescriptor]) {
        NSFetchedResultsController<Expense>.deleteCache(withName: "ExpenseCache")  // Linux: <Expense>
        fetchedResultsController.fetchRequest.predicate = predicate
        fetchedResultsController.fetchRequest.sortDescriptors = sortDescriptors
        do {
            try fetchedResultsController.performFetch()
        } catch {
            print("Failed to re-fetch FRC: \\(error)")
        }
    }
}

@Suite("Seed 002 compiled with `import Foundation` + `import CoreData`, run on a container")
struct SeedChapterTests {
    /// Seven expenses over the last ten days, saved.
    func container() throws -> ModelContainer {
        let container = try ModelContainer(
            for: Schema([Expense.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        let now = Date()
        let rows: [(Double, String, Double, String, Bool, String?)] = [
            (4.5, "Coffee", 1, "Food", false, "Morning coffee"),
            (120, "Trader Joe's", 2, "Food", false, nil),
            (75, "Uber", 3, "Transport", true, "Airport"),
            (60, "Receipt 10", 9, "Utilities", false, nil),
            (60, "receipt 9", 4, "Utilities", false, "Coffee beans"),
            (250, "Café Reserve", 5, "Food", true, nil),
            (12, "12345", 6, "Misc", false, nil),
        ]
        for (amount, name, daysAgo, category, business, notes) in rows {
            context.insert(Expense(amount: amount, name: name, date: now.addingTimeInterval(-daysAgo * 86_400),
                                   categoryName: category, isBusiness: business, notes: notes))
        }
        try context.save()
        return container
    }

    func names(_ request: NSFetchRequest<Expense>, _ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(request).compactMap(\.name)
    }

    func names(_ predicate: NSPredicate, _ container: ModelContainer) throws -> [String] {
        let request = Expense.fetchRequest()
        request.predicate = predicate
        return try names(request, container)
    }

    @Test func predicatesReturnApplesDocumentedAnswers() throws {
        let container = try container()
        let examples = PredicateExamples()
        #expect(try names(examples.simplePredicate(), container) == ["Trader Joe's", "Uber", "Receipt 10", "receipt 9", "Café Reserve"])
        #expect(try names(examples.collectionMembership(), container)
            == ["Coffee", "Trader Joe's", "Uber", "Receipt 10", "receipt 9", "Café Reserve"])
        let dynamic = examples.dynamicPredicates()
        #expect(try names(dynamic.bad, container).isEmpty)
        #expect(try names(dynamic.good, container) == ["Trader Joe's"])
        let keyPaths = examples.dynamicKeyPaths()
        #expect(try names(keyPaths.bad, container).isEmpty)  // "notes" CONTAINS "Coffee": a constant, false
        #expect(try names(keyPaths.good, container) == ["receipt 9"])  // notes "Coffee beans"; not "Morning coffee"
        #expect(try names(examples.compoundPredicate(), container) == ["Trader Joe's", "receipt 9"])
        let ordering = examples.predicateOrdering()
        #expect(try names(ordering.slow, container).isEmpty)  // no coffee over $100
        #expect(try names(ordering.fast, container) == names(ordering.slow, container))
    }

    @Test func sortsAndRequestsReturnApplesDocumentedAnswers() throws {
        let container = try container()
        let examples = PredicateExamples()
        #expect(try names(examples.multipleSortDescriptors(), container)
            == ["Café Reserve", "Trader Joe's", "Uber", "receipt 9", "Receipt 10", "12345", "Coffee"])
        let natural = Expense.fetchRequest()
        natural.predicate = NSPredicate(format: "name BEGINSWITH[c] 'receipt'")
        natural.sortDescriptors = [examples.localizedSorting()]
        #expect(try names(natural, container) == ["receipt 9", "Receipt 10"])
        let newest = Expense.fetchRequest()
        newest.sortDescriptors = examples.sortDescriptors()
        #expect(try names(newest, container).first == "Coffee")
        let batched = examples.fetchBatching()
        #expect(try ModelContext(container).fetch(batched).count == 7)
        let dictionaries = try ModelContext(container).fetch(examples.dictionaryResults())
        #expect(dictionaries.count == 7)
        #expect(dictionaries.first?["name"] as? String == "Coffee")
        #expect(dictionaries.first?["amount"] as? Double == 4.5)
        #expect(dictionaries.first?["date"] == nil)
    }

    @Test func repositoryFetchesThroughABackgroundContext() async throws {
        let container = try container()
        let main = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        main.persistentStoreCoordinator = NSPersistentStoreCoordinator(container: container)
        let repository = ExpenseRepository(context: main)
        let newestFirst = try await repository.fetchExpenses()
        #expect(newestFirst.compactMap(\.name).first == "Coffee")
        #expect(newestFirst.count == 7)
        let search = NSPredicate(format: "name CONTAINS[cd] %@", "CAFE")
        #expect(try await repository.fetchExpenses(predicate: search, sortDescriptors: nil).compactMap(\.name) == ["Café Reserve"])
        let byAmount = try await repository.fetchExpenses(predicate: nil, sortDescriptors: ExpenseSortOption.amountLowest.sortDescriptors)
        #expect(byAmount.map(\.amount) == [4.5, 12, 60, 60, 75, 120, 250])
        #expect(byAmount.compactMap(\.name)[2...3] == ["receipt 9", "Receipt 10"])  // equal amounts: newer first
        let malformed = NSPredicate(format: "name CONTAINS")
        await #expect(throws: FormatPredicateError.self) {
            _ = try await repository.fetchExpenses(predicate: malformed, sortDescriptors: nil)
        }
    }

    @MainActor
    @Test func fetchedResultsViewModelAppliesFilters() throws {
        let container = try container()
        let controller = NSFetchedResultsController(
            fetchRequest: Expense.fetchRequest(), managedObjectContext: ModelContext(container),
            sectionNameKeyPath: nil, cacheName: "ExpenseCache")
        let viewModel = ExpenseFRCViewModel(controller: controller)
        viewModel.applyFilters(predicate: NSPredicate(format: "categoryName == %@", "Food"),
                               sortDescriptors: ExpenseSortOption.amountHighest.sortDescriptors)
        #expect(viewModel.names == ["Café Reserve", "Trader Joe's", "Coffee"])
        viewModel.applyFilters(predicate: nil, sortDescriptors: ExpenseSortOption.dateOldest.sortDescriptors)
        #expect(viewModel.names.first == "Receipt 10")
        #expect(viewModel.names.count == 7)
    }
}
