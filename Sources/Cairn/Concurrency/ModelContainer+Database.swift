import Foundation

extension ModelContainer {
    /// Runs raw SQL on the store of a model type in one transaction: commits when `block`
    /// returns, rolls back when it throws. Every context and live query of the container sees
    /// the change (contexts on their next fetch, queries at once).
    ///
    /// ```swift
    /// try container.write(for: Workout.self) { db in
    ///     try db.execute(sql: #"UPDATE "Workout" SET "isFavorite" = 1 WHERE "minutes" >= ?"#, arguments: [90])
    /// }
    /// // BEGIN IMMEDIATE TRANSACTION; UPDATE "Workout" SET "isFavorite" = 1 WHERE "minutes" >= ?; COMMIT TRANSACTION
    /// ```
    ///
    /// Tables are named after entities, columns after properties (see ``ModelContainer``).
    /// The connection is the store's only writer, held for the whole block: keep it short
    /// (saves wait for it; fetches do not). A save of a context of this container inside
    /// `block` would wait for `block` itself, so it throws a ``ModelError`` instead (and so does
    /// a fetch on an in-memory store, whose one connection `block` holds).
    ///
    /// - Throws: the error of `block`, a `DatabaseError`, or ``ModelError`` when the container
    ///   has no store for `modelType`.
    public func write<T>(for modelType: any PersistentModel.Type, _ block: (Database) throws -> T) throws -> T {
        let store = try store(for: Schema.entityName(for: modelType))
        SavingContext.clear()
        return try store.write { connection in try block(try connection.sqliteDatabase(for: "container.write(for:)")) }
    }

    /// Runs raw SQL reads on the store of a model type, in one transaction (one snapshot), at
    /// the same time as other reads and as a save when the store is a file.
    ///
    /// ```swift
    /// let total = try container.read(for: Workout.self) { db in
    ///     try db.fetchValue(Double.self, sql: #"SELECT SUM("calories") FROM "Workout""#)
    /// }
    /// ```
    public func read<T>(for modelType: any PersistentModel.Type, _ block: (Database) throws -> T) throws -> T {
        let store = try store(for: Schema.entityName(for: modelType))
        return try store.read { connection in try block(try connection.sqliteDatabase(for: "container.read(for:)")) }
    }

    /// Runs statements on the PostgreSQL store of a model type in one transaction: commits
    /// when `block` returns, rolls back when it throws. The server's triggers report the tables
    /// it wrote, so every context and live query of every process sees the change.
    ///
    /// ```swift
    /// try container.write(for: Workout.self) { (db: PostgresConnection) in
    ///     try Workout.where { $0.minutes >= 90 }.update { $0.isFavorite = true }.execute(db)
    /// }
    /// // BEGIN; UPDATE "Workout" SET "isFavorite" = $1 WHERE ("Workout"."minutes" >= $2); COMMIT
    /// ```
    ///
    /// The block names its connection's type: an unannotated `db in` is the SQLite block of
    /// the other `write(for:_:)`, which a server store refuses with an error that says so.
    ///
    /// - Throws: the error of `block`, a `PostgresError`, or ``ModelError`` when the container
    ///   has no store for `modelType` or the store is SQLite's.
    @_disfavoredOverload
    public func write<T>(for modelType: any PersistentModel.Type, _ block: (PostgresConnection) throws -> T) throws -> T {
        let store = try store(for: Schema.entityName(for: modelType))
        SavingContext.clear()
        return try store.write { connection in try block(try connection.postgresConnection(for: "container.write(for:)")) }
    }

    /// Runs reads on the PostgreSQL store of a model type, in one transaction (one snapshot).
    ///
    /// ```swift
    /// let total = try container.read(for: Workout.self) { (db: PostgresConnection) in
    ///     try Workout.select { $0.calories.sum() }.fetchOne(db)
    /// }
    /// // SELECT sum("Workout"."calories") FROM "Workout"
    /// ```
    @_disfavoredOverload
    public func read<T>(for modelType: any PersistentModel.Type, _ block: (PostgresConnection) throws -> T) throws -> T {
        let store = try store(for: Schema.entityName(for: modelType))
        return try store.read { connection in try block(try connection.postgresConnection(for: "container.read(for:)")) }
    }
}
