import CairnTestSupport
import Foundation
import Testing

@testable import Cairn

/// Aggregates, batches, upserts, typed fetches and the SQL a PostgreSQL store runs.
@Suite("Queries on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresStoreQueryTests {
    static func filled(_ url: String) throws -> (ModelContainer, ModelContext) {
        let container = try PostgresStoreTests.container(url, Workout.self)
        let writer = ModelContext(container)
        for workout in PostgresStoreTests.workouts() { writer.insert(workout) }
        try writer.save()
        return (container, ModelContext(container))
    }

    @Test("a fetch runs the SQL the guide shows: $n placeholders, SQLite's NULL order only where a key can be NULL")
    func renderedSQL() throws {
        try PostgresTestSchema.withSchema { url in
            let (container, context) = try Self.filled(url)
            let store = try container.store(for: "Workout")
            _ = try context.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes >= 30 }, sortBy: [SortDescriptor(\.title)]))
            #expect(store.executedStatements.last == #"SELECT "t0"."id", "t0"."title", "t0"."startedAt", "t0"."finishedAt", "#
                + #""t0"."minutes", "t0"."calories", "t0"."isFavorite" FROM "Workout" AS "t0" WHERE "t0"."minutes" >= $1 "#
                + #"ORDER BY "t0"."title" COLLATE "C" ASC, "t0"."id" ASC"#)
            // An optional key keeps SQLite's order: NULL first when ascending, last when descending.
            _ = try context.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.finishedAt, order: .reverse)]))
            #expect(store.executedStatements.last?.hasSuffix(#"ORDER BY "t0"."finishedAt" DESC NULLS LAST, "t0"."id" ASC"#) == true)
        }
    }

    @Test("a one-statement fetch runs outside a transaction: no BEGIN and COMMIT round trips")
    func oneStatementFetchRunsWithoutATransaction() throws {
        try PostgresTestSchema.withSchema { url in
            let (container, context) = try Self.filled(url)
            let store = try container.store(for: "Workout")
            let insideTransaction = try store.readStatement { connection -> Bool in
                guard case .postgres(let server) = connection.engine else { return true }
                return server.isInTransaction
            }
            #expect(!insideTransaction)
            #expect(try context.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes >= 30 })).count
                == PostgresStoreTests.workouts().filter { $0.minutes >= 30 }.count)
        }
    }

    /// SQLite reads an unsorted fetch in key order; a server in disk order, which an update
    /// changes (the new row version goes to the end of the table).
    @Test("an unsorted fetch returns the rows in key order, as SQLite does, also after an update")
    func unsortedFetchesAreInKeyOrder() throws {
        try PostgresTestSchema.withSchema { url in
            let (container, context) = try Self.filled(url)
            let first = try #require(context.fetch(FetchDescriptor<Workout>()).first)
            let order = try context.fetch(FetchDescriptor<Workout>()).map(\.persistentModelID)
            first.minutes += 1
            try context.save()
            let fresh = ModelContext(container)
            #expect(try fresh.fetch(FetchDescriptor<Workout>()).map(\.persistentModelID) == order)
            #expect(order.compactMap(\.primaryKey) == order.compactMap(\.primaryKey).sorted())
            var identifiers = FetchDescriptor<Workout>()
            identifiers.includePendingChanges = false
            #expect(try fresh.fetchIdentifiers(identifiers) == order)
            let store = try container.store(for: "Workout")
            #expect(store.executedStatements.last?.hasSuffix(#"ORDER BY "t0"."id" ASC"#) == true)
        }
    }

    @Test("sums, averages, extremes and grouped counts answer as on SQLite")
    func aggregates() throws {
        try PostgresTestSchema.withSchema { url in
            let (_, context) = try Self.filled(url)
            let all = FetchDescriptor<Workout>()
            #expect(try context.fetchSum(all, of: \.minutes) == 230)
            #expect(try context.fetchSum(all, of: \.calories) == 2005.75)
            #expect(try context.fetchAverage(all, of: \.minutes) == 46)
            // Averaged in doubles, as Swift and SQLite do: PostgreSQL's numeric avg is a digit short.
            let three = FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes != 45 })
            #expect(try context.fetchAverage(three, of: \.minutes) == Double(20 + 30 + 90) / 3)
            #expect(try context.fetchMinimum(all, of: \.title) == "Ride")
            #expect(try context.fetchMaximum(all, of: \.calories) == 820.25)
            let counts = try context.fetchCounts(all, groupedBy: \.minutes)
            #expect(counts.map(\.0) == [20, 30, 45, 90] && counts.map(\.1) == [1, 1, 2, 1])
        }
    }

    @Test("a division or remainder by zero in a predicate answers NULL, as on SQLite: no row matches, nothing fails")
    func divisionByZeroAnswersNull() throws {
        let zero = 0, zeroDouble = 0.0, two = 2
        let predicates: [Predicate<Workout>] = [
            #Predicate { $0.minutes / zero > 1 },
            #Predicate { $0.minutes % zero == 0 },
            #Predicate { $0.calories / zeroDouble > 1 },
            #Predicate { $0.minutes / ($0.minutes - $0.minutes) > 1 },
        ]
        let sqlite = ModelContext(try ModelContainer(for: Workout.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        for workout in PostgresStoreTests.workouts() { sqlite.insert(workout) }
        try sqlite.save()
        try PostgresTestSchema.withSchema { url in
            let (container, context) = try Self.filled(url)
            let store = try container.store(for: "Workout")
            for predicate in predicates {
                #expect(try sqlite.fetch(FetchDescriptor(predicate: predicate)).isEmpty)
                #expect(try context.fetch(FetchDescriptor(predicate: predicate)).isEmpty)
            }
            let halved = try context.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes / two >= 15 }))
            #expect(store.executedStatements.last?.contains(#""t0"."minutes" / nullif(CAST($1 AS BIGINT), 0) >= $2"#) == true)
            #expect(halved.count == PostgresStoreTests.workouts().filter { $0.minutes / 2 >= 15 }.count)
        }
    }

    @Test("a batched fetch and a typed fetch return the models a plain fetch does")
    func batchedAndTyped() throws {
        try PostgresTestSchema.withSchema { url in
            let (_, context) = try Self.filled(url)
            var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.calories)])
            descriptor.includePendingChanges = false
            let plain = try context.fetch(descriptor).map(\.title)
            #expect(try context.fetch(descriptor, batchSize: 2).map(\.title) == plain)
            let typed = try context.fetch(Workout.where { $0.minutes.gte(45) }.order { $0.calories.desc() })
            #expect(typed.map(\.title) == ["Ride", "Swim", "Row"])
            #expect(try context.fetchIdentifiers(Workout.where(\.isFavorite)).count == 2)
        }
    }

    @Test("a unique attribute makes a second insert update the saved row")
    func upsert() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, Account.self)
            let context = ModelContext(container)
            context.insert(Account(email: "ada@example.com", handle: "ada", name: "Ada"))
            try context.save()
            let other = ModelContext(container)
            other.insert(Account(email: "ada@example.com", handle: "ada", name: "Ada Lovelace"))
            try other.save()
            let accounts = try ModelContext(container).fetch(FetchDescriptor<Account>())
            #expect(accounts.map(\.name) == ["Ada Lovelace"])
        }
    }
}

/// Errors and retries of saves on a PostgreSQL store.
@Suite("Saves on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresSaveTests {
    @Test("a save that breaks a uniqueness is a constraint violation naming the property, and writes nothing")
    func uniqueViolation() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, Account.self)
            let context = ModelContext(container)
            context.insert(Account(email: "ada@example.com", handle: "ada", name: "Ada"))
            try context.save()
            let other = ModelContext(container)
            other.insert(Account(email: "grace@example.com", handle: "grace", name: "Grace"))
            other.insert(Account(email: "ada2@example.com", handle: "ada", name: "Ada again"))
            let error = try #require(throws: ModelError.self) { try other.save() }
            #expect(error.kind == .constraintViolation)
            #expect(error.entityName == "Account" && error.propertyName == "handle")
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Account>()) == 1)
        }
    }

    @Test("a save that meets a serialization failure is retried as a whole and saves once")
    func serializationFailureIsRetried() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, Workout.self)
            // A sequence does not roll back: the trigger fails the first attempt only.
            let admin = try PostgresConnection(url: url)
            try admin.execute(sql: "CREATE SEQUENCE attempts")
            try admin.execute(sql: """
                CREATE FUNCTION fail_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                  IF nextval('attempts') = 1 THEN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END IF;
                  RETURN NEW;
                END $$
                """)
            try admin.execute(sql: #"CREATE TRIGGER fail_once BEFORE INSERT ON "Workout" FOR EACH ROW EXECUTE FUNCTION fail_once()"#)
            let context = ModelContext(container)
            context.insert(PostgresStoreTests.workouts()[0])
            try context.save()
            #expect(try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title) == ["Run"])
            #expect(try admin.fetchAll(sql: "SELECT last_value FROM attempts").rows == [[.integer(2)]])
        }
    }
}

/// Raw blocks on a container's server store: typed SQL on a `PostgresConnection`, in one
/// transaction, seen by the container's contexts.
@Suite("container.read(for:) and write(for:) on a PostgreSQL store",
       .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresContainerBlockTests {
    @Test("a block that names PostgresConnection runs typed SQL on the server; a Database block is refused by name")
    func typedSQLInABlock() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, Workout.self)
            let context = ModelContext(container)
            for workout in PostgresStoreTests.workouts() { context.insert(workout) }
            try context.save()

            try container.write(for: Workout.self) { (db: PostgresConnection) in
                try Workout.where { $0.minutes >= 45 }.update { $0.isFavorite = true }.execute(db)
            }
            let total = try container.read(for: Workout.self) { (db: PostgresConnection) in
                try Workout.where { $0.isFavorite }.select { $0.calories.sum() }.fetchOne(db)
            }
            #expect(total == 310.5 + 400 + 820.25 + 380)
            let favorites = try ModelContext(container).fetch(
                FetchDescriptor<Workout>(predicate: #Predicate { $0.isFavorite }, sortBy: [SortDescriptor(\.title)]))
            #expect(favorites.map(\.title) == ["Ride", "Row", "Run", "Swim"])
            // Whole models from a typed query, through a context.
            let long = try ModelContext(container).fetch(Workout.where { $0.minutes >= 45 }.order(by: \.title))
            #expect(long.map(\.title) == ["Ride", "Row", "Swim"])

            // A failed block writes nothing.
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try container.write(for: Workout.self) { (db: PostgresConnection) in
                    try Workout.delete().execute(db)
                    throw Refused()
                }
            }
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Workout>()) == 5)

            // Unannotated, a block whose body reads on both connections is the SQLite one.
            let error = try #require(throws: ModelError.self) {
                try container.read(for: Workout.self) { db in try Workout.select { $0.calories.sum() }.fetchOne(db) }
            }
            #expect(error.message.contains("(db: PostgresConnection) in"))
        }
    }

    @Test("a PostgresConnection block on a SQLite store is an error that says to take a Database")
    func serverBlockOnSQLite() throws {
        let container = try ModelContainer(for: Workout.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let error = try #require(throws: ModelError.self) {
            try container.read(for: Workout.self) { (db: PostgresConnection) in try db.fetchAll(sql: "SELECT 1") }
        }
        #expect(error.message.contains("take `db in` (a Database)"))
    }
}
