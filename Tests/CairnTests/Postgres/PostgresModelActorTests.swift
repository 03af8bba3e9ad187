import Cairn
import CairnTestSupport
import Foundation
import Testing

/// The seed's `@ModelActor` code unchanged on a PostgreSQL store: the same flows as
/// `ModelActorTests`, with a `postgresql://` configuration in place of the SQLite one.
@Suite("@ModelActor and the seed's WorkoutStore on PostgreSQL", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresModelActorTests {
    func container(_ url: String) throws -> ModelContainer {
        try ModelContainer(for: Workout.self, configurations: ModelConfiguration(url: try #require(URL(string: url))))
    }

    @Test func importCountsAndSummariesMatchTheData() async throws {
        try await PostgresTestSchema.withSchema { url in
            try await ModelActorTests.seedStoreFlow(on: try container(url))
        }
    }

    @MainActor
    @Test func identifiersFromTheActorResolveOnTheMainContext() async throws {
        try await PostgresTestSchema.withSchema { url in
            try await ModelActorTests.resolveFlow(on: try container(url))
        }
    }
}
