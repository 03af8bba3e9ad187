@testable import Cairn
import Foundation
import Testing

/// `context.fetch(Workout.where { … })`: typed queries over `@Model` tables, fetched as
/// registered models.
@Suite("@Model tables fetched as models through a ModelContext")
struct ModelContextTypedFetchTests {
    let container: ModelContainer

    init() throws {
        container = try memoryContainer(for: Workout.self)
        let context = ModelContext(container)
        for (title, minutes, calories, isFavorite, hours) in ModelAsTableTests.rows {
            let workout = Workout(
                title: title, startedAt: ModelAsTableTests.start.addingTimeInterval(hours * 3600),
                minutes: minutes, calories: calories)
            workout.isFavorite = isFavorite
            context.insert(workout)
        }
        try context.save()
    }

    @Test("where, order and limit run in one SELECT of the model's columns")
    func whereOrderLimit() throws {
        let context = ModelContext(container)
        let store = try container.store(for: "Workout")
        let before = store.statementCount
        let query = Workout.where { $0.minutes.gte(30) }.order { $0.minutes.desc() }.limit(3)
        let models = try context.fetch(query)
        #expect(models.map(\.title) == ["Ride", "Yoga", "Swim"])
        #expect(store.statementCount == before + 1)
        #expect(store.executedStatements.last == #"SELECT "id", "title", "startedAt", "finishedAt", "minutes", "#
            + #""calories", "isFavorite" FROM "Workout" WHERE "Workout"."minutes" >= ? "#
            + #"ORDER BY "Workout"."minutes" DESC LIMIT ?"#)
        // The same rows as Swift's filter and sort over every model.
        let all = try context.fetch(FetchDescriptor<Workout>())
        let expected = all.filter { $0.minutes >= 30 }.sorted { $0.minutes > $1.minutes }.prefix(3)
        #expect(models.map(\.persistentModelID) == expected.map(\.persistentModelID))
    }

    @Test("registered models come back as the same instances, with their unsaved edits")
    func sameInstances() throws {
        let context = ModelContext(container)
        let first = try context.fetch(Workout.where(\.isFavorite).order(by: \.title))
        #expect(first.map(\.title) == ["Ride", "Run"])
        first[0].title = "Long ride"
        let again = try context.fetch(Workout.where(\.isFavorite).order(by: \.title))
        #expect(again.count == 2)
        #expect(again[0] === first[0])
        #expect(again[0].title == "Long ride")
    }

    @Test("the query sees saved rows only, as includePendingChanges = false")
    func savedRowsOnly() throws {
        let context = ModelContext(container)
        context.insert(Workout(title: "Row", startedAt: ModelAsTableTests.start, minutes: 40, calories: 300))
        let query = Workout.where { $0.minutes.gte(40) }.order(by: \.minutes)
        #expect(try context.fetch(query).map(\.title) == ["Swim", "Yoga", "Ride"])
        var descriptor = FetchDescriptor<Workout>(
            predicate: #Predicate { $0.minutes >= 40 }, sortBy: [SortDescriptor(\.minutes)])
        descriptor.includePendingChanges = false
        #expect(try context.fetch(descriptor).map(\.title) == ["Swim", "Yoga", "Ride"])
        try context.save()
        #expect(try context.fetch(query).map(\.title) == ["Row", "Swim", "Yoga", "Ride"])
    }

    @Test("offset, distinct, subqueries and having work; selected columns are replaced")
    func otherClauses() throws {
        let context = ModelContext(container)
        let paged = try context.fetch(Workout.order(by: \.minutes).limit(2, offset: 1))
        #expect(paged.map(\.minutes) == [30, 45])
        let subquery = Workout.where { $0.calories.gt(350) }.select(\.title)
        let matching = try context.fetch(Workout.where { $0.title.in(subquery) }.order(by: \.title))
        #expect(matching.map(\.title) == ["Ride", "Swim"])
        let selected = Workout.where { $0.minutes.lt(30) }
        #expect(try context.fetch(selected.distinct()).map(\.title) == ["Walk"])
    }

    @Test("identifiers without models, in the query's order")
    func identifiers() throws {
        let context = ModelContext(container)
        let query = Workout.where { !$0.isFavorite }.order { $0.calories.desc() }
        let identifiers = try context.fetchIdentifiers(query)
        #expect(identifiers == (try context.fetch(query)).map(\.persistentModelID))
        #expect(identifiers.count == 3)
    }

    @Test("a compound statement is an error that says what to do")
    func compoundThrows() throws {
        let context = ModelContext(container)
        let query = Workout.where(\.isFavorite).union(Workout.where { $0.minutes.gt(50) })
        #expect {
            try context.fetch(query)
        } throws: { error in
            "\(error)".contains("union, intersect or except")
        }
    }
}
