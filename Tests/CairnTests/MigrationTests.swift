import Cairn
import Testing

@Suite("Lightweight migration")
struct MigrationTests {
    func seedV1(_ store: TemporaryStore) throws {
        let context = ModelContext(try store.container(for: RecipesV1.Recipe.self))
        context.insert(RecipesV1.Recipe(name: "Soup", legacy: "x", servings: 2))
        context.insert(RecipesV1.Recipe(name: "Bread", legacy: "y", servings: 2))
        try context.save()
    }

    func schemaSQL(_ store: TemporaryStore) throws -> [String] {
        let database = try Database(path: store.url.path)
        defer { try? database.close() }
        return try database.fetchAll(sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name") { row in
            if case .text(let text) = row.databaseValue(at: 0) { return text }
            return ""
        }
    }

    @Test("added, removed and renamed attributes, a new entity and a new index migrate automatically")
    func lightweight() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        try seedV1(store)

        let container = try ModelContainer(
            for: Schema(versionedSchema: RecipesV2.self), configurations: [ModelConfiguration(url: store.url)])
        let context = ModelContext(container)
        let recipes = try context.fetch(FetchDescriptor<RecipesV2.Recipe>(sortBy: [SortDescriptor(\.title)]))
        #expect(recipes.map(\.title) == ["Bread", "Soup"], "renamed with originalName, values kept")
        #expect(recipes.map(\.rating) == [0, 0], "added with its default")
        #expect(recipes.map(\.notes) == [nil, nil], "added optional")
        context.insert(RecipesV2.Chef(name: "Ada"))
        try context.save()

        #expect(try schemaSQL(store) == [
            #"CREATE TABLE "Chef" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL)"#,
            #"CREATE TABLE "Recipe" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "servings" INTEGER NOT NULL, "rating" INTEGER NOT NULL DEFAULT 0, "notes" TEXT)"#,
            #"CREATE INDEX "Recipe_title" ON "Recipe" ("title")"#,
            #"CREATE TABLE "_CairnHistoryTransaction" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "timestamp" REAL NOT NULL, "author" TEXT, "bundleIdentifier" TEXT NOT NULL, "processIdentifier" TEXT NOT NULL, "changes" TEXT NOT NULL)"#,
            #"CREATE TABLE "_CairnMetadata" ("key" TEXT PRIMARY KEY, "value" TEXT NOT NULL)"#,
            "CREATE TABLE sqlite_sequence(name,seq)",
        ])
    }

    @Test("a migration that cannot be done throws naming entity and attribute, and leaves the file as it was")
    func failedAddition() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        try seedV1(store)
        let before = store.contents()
        let error = try #require(throws: ModelError.self) {
            _ = try store.container(for: RecipesBadAddition.Recipe.self)
        }
        #expect(error.kind == .migrationFailed)
        #expect(error.entityName == "Recipe")
        #expect(error.propertyName == "calories")
        #expect(store.contents() == before)
        // The old schema still opens and reads.
        let context = ModelContext(try store.container(for: RecipesV1.Recipe.self))
        #expect(try context.fetchCount(FetchDescriptor<RecipesV1.Recipe>()) == 2)
    }

    @Test("a uniqueness the stored rows break fails the migration and changes nothing")
    func failedUnique() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        try seedV1(store)
        let before = try schemaSQL(store)
        let error = try #require(throws: ModelError.self) {
            _ = try store.container(for: RecipesBadUnique.Recipe.self)
        }
        #expect(error.kind == .migrationFailed)
        #expect(error.entityName == "Recipe")
        #expect(error.description.contains("UNIQUE"))
        #expect(try schemaSQL(store) == before)
    }

    @Test("a custom stage runs willMigrate on the old schema and didMigrate on the new one")
    func customStage() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        do {
            let container = try ModelContainer(
                for: Schema(versionedSchema: RecipesV1.self), configurations: [ModelConfiguration(url: store.url)])
            let context = ModelContext(container)
            context.insert(RecipesV1.Recipe(name: "Soup", legacy: "x", servings: 2))
            context.insert(RecipesV1.Recipe(name: "Soup", legacy: "y", servings: 4))
            context.insert(RecipesV1.Recipe(name: "Bread", legacy: "z", servings: 1))
            try context.save()
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: RecipesV2.self), migrationPlan: RecipesPlan.self,
            configurations: [ModelConfiguration(url: store.url)])
        let recipes = try ModelContext(container).fetch(FetchDescriptor<RecipesV2.Recipe>(sortBy: [SortDescriptor(\.title)]))
        #expect(recipes.map(\.title) == ["Bread", "Soup"], "willMigrate removed the duplicate with the V1 models")
        #expect(recipes.map(\.rating) == [5, 5], "didMigrate set ratings with the V2 models")
        #expect(try ModelContext(container).fetch(FetchDescriptor<RecipesV2.Chef>()).map(\.name) == ["House"])
    }

    @Test("a store newer than the plan's target is a backward migration")
    func backward() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        _ = try ModelContainer(for: Schema(versionedSchema: RecipesV2.self), configurations: [ModelConfiguration(url: store.url)])
        #expect(throws: SwiftDataError.backwardMigration) {
            _ = try ModelContainer(
                for: Schema(versionedSchema: RecipesV1.self), migrationPlan: RecipesPlan.self,
                configurations: [ModelConfiguration(url: store.url)])
        }
    }
}

/// Written as SwiftData's documentation writes a plan: each stage a static constant, which
/// Swift 6 accepts only because `MigrationStage` is `Sendable`.
enum RecipesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [RecipesV1.self, RecipesV2.self] }
    static var stages: [MigrationStage] { [migrateV1toV2] }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: RecipesV1.self, toVersion: RecipesV2.self,
        willMigrate: { context in
            var seen: Set<String> = []
            for recipe in try context.fetch(FetchDescriptor<RecipesV1.Recipe>(sortBy: [SortDescriptor(\.servings)]))
            where !seen.insert(recipe.name).inserted {
                context.delete(recipe)
            }
            try context.save()
        },
        didMigrate: { context in
            for recipe in try context.fetch(FetchDescriptor<RecipesV2.Recipe>()) { recipe.rating = 5 }
            context.insert(RecipesV2.Chef(name: "House"))
            try context.save()
        })
}
