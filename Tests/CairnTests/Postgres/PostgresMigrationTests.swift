import CairnTestSupport
import Foundation
import Testing

@testable import Cairn

/// Schema changes, migration plans and history on a PostgreSQL store, as on a SQLite file.
@Suite("Migrations and history on a PostgreSQL store",
       .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresMigrationTests {
    static func configuration(_ url: String) throws -> ModelConfiguration {
        ModelConfiguration(url: try #require(URL(string: url)))
    }

    static func seedV1(_ url: String) throws {
        let context = ModelContext(try ModelContainer(for: RecipesV1.Recipe.self, configurations: configuration(url)))
        context.insert(RecipesV1.Recipe(name: "Soup", legacy: "x", servings: 2))
        context.insert(RecipesV1.Recipe(name: "Bread", legacy: "y", servings: 2))
        try context.save()
    }

    static func columns(_ url: String, of table: String) throws -> [String] {
        let connection = try PostgresConnection(url: url)
        return try connection.fetchAll(
            sql: "SELECT column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '-') "
                + "FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            arguments: [table]
        ).rows.compactMap { if case .text(let text)? = $0.first { text } else { nil } }
    }

    @Test("added, removed and renamed attributes, a new entity and a new index migrate automatically")
    func lightweight() throws {
        try PostgresTestSchema.withSchema { url in
            try Self.seedV1(url)
            let container = try ModelContainer(
                for: Schema(versionedSchema: RecipesV2.self), configurations: [Self.configuration(url)])
            let context = ModelContext(container)
            let recipes = try context.fetch(FetchDescriptor<RecipesV2.Recipe>(sortBy: [SortDescriptor(\.title)]))
            #expect(recipes.map(\.title) == ["Bread", "Soup"])
            #expect(recipes.map(\.rating) == [0, 0])
            #expect(recipes.map(\.notes) == [nil, nil])
            context.insert(RecipesV2.Chef(name: "Ada"))
            try context.save()
            #expect(try Self.columns(url, of: "Recipe") == [
                "id bigint NO -", "title text NO -", "servings bigint NO -", "rating bigint NO 0", "notes text YES -",
            ])
            let indexes = try PostgresConnection(url: url).fetchAll(
                sql: "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'Recipe' ORDER BY 1")
            #expect(indexes.rows == [[.text("Recipe_pkey")], [.text("Recipe_title")]])
        }
    }

    @Test("a migration that cannot be done throws naming entity and attribute, and changes nothing")
    func failedAddition() throws {
        try PostgresTestSchema.withSchema { url in
            try Self.seedV1(url)
            let before = try Self.columns(url, of: "Recipe")
            let error = try #require(throws: ModelError.self) {
                _ = try ModelContainer(for: RecipesBadAddition.Recipe.self, configurations: Self.configuration(url))
            }
            #expect(error.kind == .migrationFailed && error.entityName == "Recipe" && error.propertyName == "calories")
            #expect(try Self.columns(url, of: "Recipe") == before)
            let context = ModelContext(try ModelContainer(for: RecipesV1.Recipe.self, configurations: Self.configuration(url)))
            #expect(try context.fetchCount(FetchDescriptor<RecipesV1.Recipe>()) == 2)
        }
    }

    @Test("a custom stage of a migration plan runs willMigrate and didMigrate on the server")
    func customStage() throws {
        try PostgresTestSchema.withSchema { url in
            do {
                let context = ModelContext(try ModelContainer(
                    for: Schema(versionedSchema: RecipesV1.self), configurations: [Self.configuration(url)]))
                context.insert(RecipesV1.Recipe(name: "Soup", legacy: "x", servings: 2))
                context.insert(RecipesV1.Recipe(name: "Soup", legacy: "y", servings: 4))
                context.insert(RecipesV1.Recipe(name: "Bread", legacy: "z", servings: 1))
                try context.save()
            }
            let container = try ModelContainer(
                for: Schema(versionedSchema: RecipesV2.self), migrationPlan: RecipesPlan.self,
                configurations: [Self.configuration(url)])
            let recipes = try ModelContext(container).fetch(FetchDescriptor<RecipesV2.Recipe>(sortBy: [SortDescriptor(\.title)]))
            #expect(recipes.map(\.title) == ["Bread", "Soup"])
            #expect(recipes.map(\.rating) == [5, 5])
            #expect(throws: SwiftDataError.backwardMigration) {
                _ = try ModelContainer(
                    for: Schema(versionedSchema: RecipesV1.self), migrationPlan: RecipesPlan.self,
                    configurations: [Self.configuration(url)])
            }
        }
    }

    @Test("saves record history that fetchHistory reads and deleteHistory removes")
    func history() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try ModelContainer(for: Workout.self, configurations: Self.configuration(url))
            let context = ModelContext(container)
            context.author = "importer"
            let run = Workout(title: "Run", startedAt: .now, minutes: 30, calories: 300)
            context.insert(run)
            context.insert(Workout(title: "Swim", startedAt: .now, minutes: 40, calories: 350))
            try context.save()
            run.minutes = 35
            try context.save()

            let transactions = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            #expect(transactions.count == 2)
            #expect(transactions.first?.author == "importer")
            #expect(transactions.first?.changes.count == 2)
            guard case .update(let update)? = transactions.last?.changes.first else {
                Issue.record("the second transaction is not an update: \(String(describing: transactions.last?.changes))")
                return
            }
            #expect(update.changedPersistentIdentifier == run.persistentModelID)

            let firstID = try #require(transactions.first).transactionIdentifier
            try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(
                predicate: #Predicate { $0.transactionIdentifier == firstID }))
            #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 1)
        }
    }
}
