import Cairn

enum RecipesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Recipe.self] }

    @Model
    final class Recipe {
        var name: String
        var legacy: String
        var servings: Int

        init(name: String, legacy: String, servings: Int) {
            self.name = name
            self.legacy = legacy
            self.servings = servings
        }
    }
}

enum RecipesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Recipe.self, Chef.self] }

    @Model
    final class Recipe {
        #Index<Recipe>([\.title])

        @Attribute(originalName: "name") var title: String
        var servings: Int
        var rating: Int = 0
        var notes: String?

        init(title: String, servings: Int) {
            self.title = title
            self.servings = servings
        }
    }

    @Model
    final class Chef {
        var name: String
        init(name: String) { self.name = name }
    }
}

/// Adds a non-optional attribute without a default: cannot be migrated automatically.
enum RecipesBadAddition {
    @Model
    final class Recipe {
        var name: String
        var legacy: String
        var servings: Int
        var calories: Int

        init(name: String) {
            self.name = name
            legacy = ""
            servings = 1
            calories = 0
        }
    }
}

/// Makes `servings` unique, which the stored rows break.
enum RecipesBadUnique {
    @Model
    final class Recipe {
        var name: String
        var legacy: String
        @Attribute(.unique) var servings: Int

        init(name: String) {
            self.name = name
            legacy = ""
            servings = 1
        }
    }
}
