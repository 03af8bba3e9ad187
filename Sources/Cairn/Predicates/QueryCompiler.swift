import Foundation

/// What a compiled fetch selects.
enum QuerySelection: Hashable, Sendable {
    /// The primary key and the given columns of the fetched row (`"t0"."id", "t0"."title", …`).
    case columns([String])
    /// `COUNT(*)`.
    case count
    /// The primary key only.
    case identifiers
    /// One aggregate of one column: `SUM("t0"."calories")` (text compared as Swift does).
    case aggregate(function: String, column: String, collation: String?)
    /// The distinct values of a column with an aggregate per group, in the column's order:
    /// `SELECT "t0"."key", COUNT(*) … GROUP BY "t0"."key" ORDER BY "t0"."key"`.
    case grouped(key: String, keyCollation: String?, function: String, column: String?)

    /// The case and, for `.columns`, the number of columns only: every fetch hashes its
    /// selection to find its compiled SQL, and hashing each column name cost about 1,500
    /// instructions a fetch (callgrind, W5). Equal selections still hash equal, and `==`
    /// compares every name (the key's entity already tells most selections apart).
    func hash(into hasher: inout Hasher) {
        switch self {
        case .columns(let names):
            hasher.combine(0)
            hasher.combine(names.count)
        case .count:
            hasher.combine(1)
        case .identifiers:
            hasher.combine(2)
        case .aggregate(let function, let column, let collation):
            hasher.combine(3)
            hasher.combine(function)
            hasher.combine(column)
            hasher.combine(collation)
        case .grouped(let key, let keyCollation, let function, let column):
            hasher.combine(4)
            hasher.combine(key)
            hasher.combine(keyCollation)
            hasher.combine(function)
            hasher.combine(column)
        }
    }
}

/// A fetch compiled once per shape: its SQL text and where each bound argument comes from.
struct CompiledQuery: Sendable {
    let sql: String
    let recipe: [ArgumentSource]
}

/// Everything that decides a fetch's SQL text; never a bound value.
struct QueryShapeKey: Hashable, Sendable {
    let entity: ObjectIdentifier
    let predicate: [ShapeToken]?
    let sort: [ShapeToken]
    let selection: QuerySelection
    let hasLimit: Bool
    let hasOffset: Bool
    let tieBreak: TieBreak
    let dialect: StoreDialect
    /// How many subentities the process knew when the SQL was compiled: a subentity's fetch
    /// filters on the names of the entities below it, which grow as containers of new
    /// subclasses are made.
    var hierarchyGeneration = EntityCache.hierarchyGeneration
}

/// The direction of the primary key that breaks ties after the last sort descriptor.
enum TieBreak: Hashable, Sendable {
    /// `"id" ASC`: stored order, as Swift's stable sort keeps its input's order.
    case ascending
    /// `"id" DESC`: the order of an index on the last key read backwards, for a last key in
    /// `.reverse` order. Only right when no two rows tie (see `ModelContext.storedModelsInIndexOrder`).
    case descending
}

/// Compiles `FetchDescriptor`s (predicate, sort, paging) into SQL, caching the SQL per shape.
///
/// ```swift
/// var descriptor = FetchDescriptor<Workout>(
///     predicate: #Predicate { $0.minutes >= 30 }, sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
/// descriptor.fetchLimit = 100
/// try QueryCompiler.render(descriptor, selecting: .columns(["title"]))
/// // SELECT "t0"."id", "t0"."title" FROM "Workout" AS "t0" WHERE "t0"."minutes" >= ?
/// //   ORDER BY "t0"."startedAt" DESC, "t0"."id" ASC LIMIT ?
/// ```
enum QueryCompiler {
    /// The SQL and arguments of a fetch.
    ///
    /// - Throws: ``SwiftDataError/unsupportedPredicate``, ``SwiftDataError/unsupportedKeyPath``
    ///   or ``SwiftDataError/unsupportedSortDescriptor``, naming what cannot be translated.
    static func render<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, selecting selection: QuerySelection, tieBreak: TieBreak = .ascending,
        in dialect: StoreDialect
    ) throws -> RenderedSQL {
        do {
            return try renderUnmapped(descriptor, selecting: selection, tieBreak: tieBreak, dialect: dialect)
        } catch let error as PredicateSQLError {
            throw error.swiftDataError
        }
    }

    private static func renderUnmapped<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, selecting selection: QuerySelection, tieBreak: TieBreak, dialect: StoreDialect
    ) throws -> RenderedSQL {
        var shape: PredicateShape?
        var root: (any SQLPredicateExpression)?
        let predicate = descriptor.predicateParts
        if let predicate {
            guard let expression = sqlExpression(predicate.expression) else {
                throw PredicateSQLError.unsupported(PredicateDiagnostics.unsupportedConstruct(in: predicate.expression))
            }
            root = expression
            shape = try makeShape(expression, root: predicate.variable)
        }
        var sortTokens: [ShapeToken] = []
        if descriptor.sorts {
            for sort in descriptor.sortBy { sortTokens += try SortCompiler.shapeTokens(sort) }
        }
        let key = QueryShapeKey(
            entity: ObjectIdentifier(T.self), predicate: shape?.tokens, sort: sortTokens, selection: selection,
            hasLimit: descriptor.fetchLimit != nil, hasOffset: descriptor.fetchOffset != nil, tieBreak: tieBreak,
            dialect: dialect)
        let compiled: CompiledQuery
        if let cached = QueryCache.current[key] {
            compiled = cached
        } else {
            compiled = try compile(
                descriptor, entity: Schema.Entity.of(T.self), root: root, constants: shape?.constants ?? [], rootVariable: predicate?.variable,
                selection: selection, tieBreak: tieBreak, dialect: dialect)
            QueryCache.current[key] = compiled
        }
        let constants = shape?.constants ?? []
        let arguments = try compiled.recipe.map {
            try $0.value(constants: constants, limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        }
        return RenderedSQL(sql: compiled.sql, arguments: arguments)
    }

    /// A predicate's expression as one Cairn translates, or `nil` when some node is not.
    ///
    /// The cast to `any SQLPredicateExpression` checks the conditional conformance of every
    /// node's type, about 1,100 instructions a fetch (callgrind, W5). It is done once per
    /// expression type; later fetches cast to that concrete type, which compares metadata.
    static func sqlExpression(_ expression: any StandardPredicateExpression<Bool>) -> (any SQLPredicateExpression)? {
        let expressionType = type(of: expression)
        let open = expressionOpeners.value(for: expressionType) {
            guard let translatable = expressionType as? any SQLPredicateExpression.Type else { return { _ in nil } }
            return opener(for: translatable)
        }
        return open(expression)
    }

    /// Not `@Sendable` closures: each captures nothing but its expression type (the generic
    /// parameter), so any thread may call it; the cache itself is locked.
    private static let expressionOpeners = TypeKeyedCache<(any StandardPredicateExpression<Bool>) -> (any SQLPredicateExpression)?>()

    private static func opener<E: SQLPredicateExpression>(for type: E.Type)
        -> (any StandardPredicateExpression<Bool>) -> (any SQLPredicateExpression)?
    {
        { expression in reinterpret(expression, as: E.self) }
    }

    /// `expression` as `E`, when that is its type. Not `as? E`: that makes `Optional<E>`'s
    /// metadata on every call (about 770 instructions, callgrind, W5); comparing the opened
    /// type with `E` is one comparison, and then the value already is an `E`.
    private static func reinterpret<Opened: StandardPredicateExpression<Bool>, E: SQLPredicateExpression>(
        _ expression: Opened, as type: E.Type
    ) -> (any SQLPredicateExpression)? {
        guard Opened.self == E.self else { return nil }
        return unsafeBitCast(expression, to: E.self)
    }

    private static func makeShape<E: SQLPredicateExpression>(_ expression: E, root: PredicateExpressions.VariableID) throws
        -> PredicateShape
    {
        try PredicateShape(expression, root: root)
    }

    /// Builds and renders the select of a shape not seen before.
    private static func compile<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, entity: Schema.Entity, root: (any SQLPredicateExpression)?, constants: [Any],
        rootVariable: PredicateExpressions.VariableID?, selection: QuerySelection, tieBreak: TieBreak, dialect: StoreDialect
    ) throws -> CompiledQuery {
        QueryCache.current.noteCompile()
        let alias = "t0"
        let primaryKey = SQLExpression.column(entity.primaryKeyColumn, table: alias)
        var compiler = PredicateCompiler(constants: constants, dialect: dialect)
        var select: SQLSelect
        switch selection {
        case .columns(let names):
            select = SQLSelect([primaryKey] + names.map { SQLExpression.column($0, table: alias) }, from: .table(entity.tableName, as: alias))
        case .count:
            select = SQLSelect([SQLExpression.countAll], from: .table(entity.tableName, as: alias))
        case .identifiers:
            select = SQLSelect([primaryKey], from: .table(entity.tableName, as: alias))
        case let .aggregate(function, column, collation):
            var value = SQLExpression.column(column, table: alias)
            if let collation { value = value.collate(collation) }
            select = SQLSelect([SQLExpression.aggregate(SQLAggregate(name: function, arguments: [value]))],
                               from: .table(entity.tableName, as: alias))
        case let .grouped(key, keyCollation, function, column):
            var keySQL = SQLExpression.column(key, table: alias)
            if let keyCollation { keySQL = keySQL.collate(keyCollation) }
            let argument = column.map { SQLExpression.column($0, table: alias) } ?? .star
            select = SQLSelect([keySQL, SQLExpression.aggregate(SQLAggregate(name: function, arguments: [argument]))],
                               from: .table(entity.tableName, as: alias))
            select.groupBy = [keySQL]
            select.ordering = [keySQL.ascending()]
        }
        if let filter = discriminatorFilter(entity, alias: alias, &compiler) { select = select.where(filter) }
        if let root, let rootVariable {
            compiler.variables[rootVariable] = CompiledExpression(
                form: .model(ModelReference(entity: entity, primaryKey: primaryKey, alias: alias)), type: T.self)
            select = select.where(try compileRoot(root, &compiler))
        }
        if case .columns = selection {
            let terms = try descriptor.sortBy.map { try SortCompiler.orderingTerm($0, entity: entity, alias: alias) }
            // Unsorted, SQLite reads a table in key order; a server returns rows as they lie on
            // disk, which an update reorders. Key order there gives both engines one answer.
            if !terms.isEmpty || dialect == .postgres {
                var tie = tieBreak == .ascending ? primaryKey.ascending() : primaryKey.descending()
                tie.keyIsNeverNull = true
                select.ordering = terms + [tie]
            }
        } else if selection == .identifiers {
            let terms = try descriptor.sortBy.map { try SortCompiler.orderingTerm($0, entity: entity, alias: alias) }
            if !terms.isEmpty || dialect == .postgres {
                var tie = primaryKey.ascending()
                tie.keyIsNeverNull = true
                select.ordering = terms + [tie]
            }
        }
        if descriptor.fetchLimit != nil { select.limit = compiler.bind(.limit) }
        if descriptor.fetchOffset != nil { select.offset = compiler.bind(.offset) }
        let rendered = try dialect.render(select)
        let sources = compiler.sources
        let recipe = try rendered.arguments.map { marker -> ArgumentSource in
            guard case .integer(let index) = marker, index >= 0, Int(index) < sources.count else {
                throw PredicateSQLError.internalInconsistency("a value was bound outside the argument sources")
            }
            return sources[Int(index)]
        }
        return CompiledQuery(sql: rendered.sql, recipe: recipe)
    }

    /// `"t0"."_entity" IN (?, ?)` with the names of a subentity and the entities below it:
    /// a subentity's rows share its root's table (``TableHierarchy``). The root reads every
    /// row of its table, and needs none.
    static func discriminatorFilter(_ entity: Schema.Entity, alias: String, _ compiler: inout PredicateCompiler)
        -> SQLExpression?
    {
        guard entity.superentity != nil else { return nil }
        let column = SQLExpression.column(Schema.Entity.discriminatorColumn, table: alias)
        let names = entity.namesWithSubentities
        if names.count == 1 { return column.equals(compiler.bind(.literal(.text(names[0])))) }
        return column.in(names.map { compiler.bind(.literal(.text($0))) })
    }

    private static func compileRoot<E: SQLPredicateExpression>(_ expression: E, _ compiler: inout PredicateCompiler) throws
        -> SQLExpression
    {
        try compiler.condition(try compiler.compile(expression))
    }
}

/// Compiled shapes, shared by every context of the process.
final class QueryCache: @unchecked Sendable {
    // @unchecked Sendable: `entries`, `recent` and `compiles` are only touched while holding
    // `lock`.
    static let shared = QueryCache()
    /// The cache compilations use: `shared`, unless a task scopes its own (tests do, so that
    /// counting compiles is not disturbed by other tests filling the shared cache).
    @TaskLocal static var current: QueryCache = .shared
    private let lock = NSLock()
    private var entries: [QueryShapeKey: CompiledQuery] = [:]
    /// The entry found last, compared before the key is hashed: a loop fetches one shape over
    /// and over, and hashing the key cost about 1,000 instructions a fetch (callgrind, W5). A
    /// class, so that checking it binds one reference instead of copying the key.
    private var recent: Recent?
    private var compiles = 0
    /// The most shapes kept; past it the cache starts over (shapes are few in real programs).
    let capacity = 1024

    subscript(key: QueryShapeKey) -> CompiledQuery? {
        get {
            lock.lock()
            defer { lock.unlock() }
            if let recent, recent.key == key { return recent.compiled }
            guard let compiled = entries[key] else { return nil }
            recent = Recent(key: key, compiled: compiled)
            return compiled
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = newValue
            recent = nil
        }
    }

    private final class Recent {
        let key: QueryShapeKey
        let compiled: CompiledQuery

        init(key: QueryShapeKey, compiled: CompiledQuery) {
            self.key = key
            self.compiled = compiled
        }
    }

    func noteCompile() {
        lock.lock()
        compiles += 1
        lock.unlock()
    }

    /// How many shapes were compiled (not found in the cache) so far.
    var compileCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return compiles
    }
}

/// Names the part of a predicate that has no SQL translation.
enum PredicateDiagnostics {
    /// The innermost expression node that is not supported, described for a user.
    static func unsupportedConstruct(in expression: Any) -> String {
        var node = expression
        search: while true {
            for child in Mirror(reflecting: node).children where child.value is any PredicateExpression {
                if !(child.value is any SQLPredicateExpression) {
                    node = child.value
                    continue search
                }
            }
            break
        }
        return describe(type(of: node))
    }

    private static let names: [String: String] = [
        "StringContainsRegex": "String.contains(Regex)",
        "ConditionalCast": "a conditional cast (as?)",
        "ForceCast": "a forced cast (as!)",
        "TypeCheck": "a type check (is)",
        "CollectionIndexSubscript": "a subscript with an index",
        "CollectionRangeSubscript": "a subscript with a range",
        "DictionaryKeySubscript": "a dictionary subscript",
        "DictionaryKeyDefaultValueSubscript": "a dictionary subscript with a default",
        "SequenceMaximum": "max()",
        "SequenceMinimum": "min()",
        "ExpressionEvaluate": "an Expression's evaluate",
        "PredicateEvaluate": "a nested Predicate's evaluate",
    ]

    static func describe(_ type: any Any.Type) -> String {
        let full = String(describing: type)
        let name = String(full.prefix { $0 != "<" })
        if let friendly = names[name] { return "\(friendly) (PredicateExpressions.\(name))" }
        return "PredicateExpressions.\(name)"
    }
}
