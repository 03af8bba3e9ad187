import CairnSQLite
import Foundation

/// Renders statements in one dialect (SQLite's unless told) once per shape: a statement that differs from
/// one rendered before only in its bound values reuses that rendering's SQL text, and only
/// its values are collected again.
///
/// The typed SQL builder runs every statement through ``shared``, so
/// `Reminder.find(id).fetchOne(db)` in a loop renders its SQL once; the identical SQL text
/// then hits the connection's prepared-statement cache.
///
/// ```swift
/// let cache = SQLRenderCache()
/// let first = try cache.render(.select(SQLSelect(from: "t").where(.column("id").equals(.value(.integer(1))))))
/// let second = try cache.render(.select(SQLSelect(from: "t").where(.column("id").equals(.value(.integer(2))))))
/// // first.sql == second.sql == #"SELECT * FROM "t" WHERE "id" = ?"#  (rendered once)
/// // second.arguments == [.integer(2)]
/// ```
///
/// The result is exactly what ``SQLRenderable/render(dialect:)`` returns for the same
/// statement in the cache's dialect.
/// Statements that hold ``SQLExpression/parameter(_:)`` placeholders of their own, or more
/// than `maximumValues` values (large multi-row inserts), are rendered directly.
public final class SQLRenderCache: Sendable {
    /// The cache the typed SQL builder uses.
    public static let shared = SQLRenderCache()

    /// How often one shape was rendered and served.
    public struct Statistics: Sendable, Hashable {
        /// Renderings of the shape (1 unless the cache was cleared).
        public var renders: Int
        /// Executions served from the cached rendering.
        public var hits: Int

        /// Statistics of `renders` renderings and `hits` hits.
        public init(renders: Int, hits: Int) {
            self.renders = renders
            self.hits = hits
        }
    }

    /// The dialect every statement renders in.
    public let dialect: any SQLDialect
    private let capacity: Int
    private let maximumValues: Int
    /// The renderings, by shape.
    private let storage = LockedShapes()

    /// A cache of at most `capacity` shapes (it is emptied when full), parameterizing
    /// statements with at most `maximumValues` values, rendering in `dialect`.
    public init(dialect: any SQLDialect = SQLiteDialect(), capacity: Int = 512, maximumValues: Int = 256) {
        self.dialect = dialect
        self.capacity = capacity
        self.maximumValues = maximumValues
    }

    /// The statement's SQL text and arguments, rendered once per shape.
    ///
    /// Throws ``SQLRenderError`` as ``SQLRenderable/render()`` does.
    public func render(_ statement: SQLStatement) throws -> RenderedSQL {
        guard let (shape, values) = statement.shape(maximumValues: maximumValues) else {
            return try statement.render(dialect: dialect)
        }
        if let template = storage.hit(shape) {
            return RenderedSQL(sql: template.sql, arguments: try template.binding(values).arguments)
        }
        let template = try shape.render(dialect: dialect)
        storage.insert(template, for: shape, capacity: capacity)
        return RenderedSQL(sql: template.sql, arguments: try template.binding(values).arguments)
    }

    /// The SQL text of `template` with its values bound, rendered from its shape the first
    /// time its identity is seen.
    ///
    /// Throws ``SQLRenderError`` as ``SQLRenderable/render()`` does.
    public func rendering(of template: SQLTemplate) throws -> RenderedSQL {
        if let rendering = storage.template(template.identity) { return try rendering.binding(template.values) }
        let rendering = TemplateRendering(try template.shape.render(dialect: dialect))
        storage.insert(rendering, for: template.identity)
        return try rendering.binding(template.values)
    }

    /// How often the template of `identity` was rendered and served, or `nil` if it is not
    /// cached: a test's window on the cache.
    public func statistics(for identity: SQLTemplate.Identity) -> Statistics? { storage.statistics(for: identity) }

    /// How often the shape of `statement` was rendered and served, or `nil` if it is not
    /// cached: a test's window on the cache.
    public func statistics(for statement: SQLStatement) -> Statistics? {
        guard let (shape, _) = statement.shape(maximumValues: maximumValues) else { return nil }
        return storage.statistics(for: shape)
    }

    /// The number of shapes cached.
    public var count: Int { storage.count }

    /// Forgets every shape and template.
    public func removeAll() { storage.removeAll() }
}

/// The rendering of a template's shape, and whether its arguments are the template's values
/// in order (so that binding them is handing the values over).
private final class TemplateRendering: Sendable {
    let rendered: RenderedSQL
    /// How many values bind in order, or `nil` when the arguments are not the parameters in
    /// their order (then each run binds them slot by slot).
    private let valuesInOrder: Int?

    init(_ rendered: RenderedSQL) {
        self.rendered = rendered
        let slots = rendered.parameterSlots
        let inOrder = slots.count == rendered.arguments.count
            && slots.indices.allSatisfy { slots[$0].argument == $0 && slots[$0].parameter == $0 }
        valuesInOrder = inOrder ? slots.count : nil
    }

    /// The text with `values` bound: the values themselves when they bind in order, without
    /// copying the rendering (about 150 instructions a lookup, callgrind, typed SQL W5).
    func binding(_ values: [DatabaseValue]) throws -> RenderedSQL {
        if let valuesInOrder, valuesInOrder == values.count { return RenderedSQL(sql: rendered.sql, arguments: values) }
        return try rendered.binding(values)
    }
}

/// The cache's dictionary behind a lock.
private final class LockedShapes: @unchecked Sendable {
    // `@unchecked Sendable`: `entries`, `recent` and every entry's statistics are read and
    // written only while `lock` is held.
    private let lock = NSLock()
    private var entries: [ShapeKey: Entry] = [:]
    /// The entry served last, compared before the dictionary is consulted: a loop runs one
    /// shape over and over, and one comparison is cheaper than hashing the shape and copying
    /// the key (about 2,800 instructions a hit for `find(id)`, callgrind, typed SQL W5).
    /// An entry rather than a (shape, entry) pair: binding a pair with `if let` copied the
    /// whole shape, a retain and a release per field (about 1,100 instructions a hit).
    private var recent: Entry?
    /// The renderings of templates, by identity (``SQLTemplate``), and the one served last.
    private var templates: [SQLTemplate.Identity: TemplateEntry] = [:]
    private var recentTemplate: TemplateEntry?

    /// A template's rendering and how often it was served.
    private final class TemplateEntry {
        let identity: SQLTemplate.Identity
        let rendering: TemplateRendering
        var statistics = SQLRenderCache.Statistics(renders: 1, hits: 0)

        init(_ identity: SQLTemplate.Identity, _ rendering: TemplateRendering) {
            self.identity = identity
            self.rendering = rendering
        }
    }

    /// A rendering, the shape it was rendered from and how often it was served; a class, so
    /// `recent` and `entries` share it.
    private final class Entry {
        let shape: SQLStatement
        let template: RenderedSQL
        var statistics: SQLRenderCache.Statistics

        init(_ template: RenderedSQL, shape: SQLStatement) {
            self.shape = shape
            self.template = template
            statistics = SQLRenderCache.Statistics(renders: 1, hits: 0)
        }

        /// Whether `shape` may use this rendering: equal by `==` (the lookup), and with its
        /// text byte for byte the same. `==` on strings is canonical equivalence, so a table
        /// spelled with a decomposed "é" would otherwise be served the SQL of its precomposed
        /// twin, which SQLite reads as another table.
        func serves(_ shape: SQLStatement) -> Bool { self.shape.hasIdenticalText(to: shape) }
    }

    func hit(_ shape: SQLStatement) -> RenderedSQL? {
        lock.lock()
        defer { lock.unlock() }
        if let recent, recent.shape == shape, recent.serves(shape) {
            recent.statistics.hits += 1
            return recent.template
        }
        guard let entry = entries[ShapeKey(shape)], entry.serves(shape) else { return nil }
        entry.statistics.hits += 1
        recent = entry
        return entry.template
    }

    func insert(_ template: RenderedSQL, for shape: SQLStatement, capacity: Int) {
        let key = ShapeKey(shape)
        lock.lock()
        defer { lock.unlock() }
        if let entry = entries[key] {
            // Rendered concurrently by another thread, or again after a clear. A canonically
            // equal shape with other bytes is not cached: it is rendered on every run.
            if entry.serves(shape) { entry.statistics.renders += 1 }
            return
        }
        if entries.count >= capacity {
            entries.removeAll(keepingCapacity: true)
            recent = nil
        }
        entries[key] = Entry(template, shape: shape)
    }

    func template(_ identity: SQLTemplate.Identity) -> TemplateRendering? {
        lock.lock()
        defer { lock.unlock() }
        if let recentTemplate, recentTemplate.identity == identity {
            recentTemplate.statistics.hits += 1
            return recentTemplate.rendering
        }
        guard let entry = templates[identity] else { return nil }
        entry.statistics.hits += 1
        recentTemplate = entry
        return entry.rendering
    }

    func insert(_ rendering: TemplateRendering, for identity: SQLTemplate.Identity) {
        lock.lock()
        defer { lock.unlock() }
        if let entry = templates[identity] {
            // Rendered concurrently by another thread.
            entry.statistics.renders += 1
            return
        }
        // One template per table and statement, and per row count of inserts: bounded as
        // the shapes are, emptied when full.
        if templates.count >= 512 {
            templates.removeAll(keepingCapacity: true)
            recentTemplate = nil
        }
        templates[identity] = TemplateEntry(identity, rendering)
    }

    func statistics(for identity: SQLTemplate.Identity) -> SQLRenderCache.Statistics? {
        lock.lock()
        defer { lock.unlock() }
        return templates[identity]?.statistics
    }

    func statistics(for shape: SQLStatement) -> SQLRenderCache.Statistics? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[ShapeKey(shape)], entry.serves(shape) else { return nil }
        return entry.statistics
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll()
        recent = nil
        templates.removeAll()
        recentTemplate = nil
    }
}

/// A shape as the cache's key, hashed without the text of a `SELECT`'s result columns.
///
/// A table's column list is the longest part of most statements and the same in all of that
/// table's statements, so hashing it cost more than it told apart: most of a cache hit for
/// `find(id)` (callgrind). Its count is hashed instead; equality still compares everything,
/// so two shapes that differ only in their columns share a bucket, never a rendering.
private struct ShapeKey: Hashable {
    let shape: SQLStatement

    init(_ shape: SQLStatement) { self.shape = shape }

    static func == (lhs: ShapeKey, rhs: ShapeKey) -> Bool { lhs.shape == rhs.shape }

    func hash(into hasher: inout Hasher) {
        guard case .select(let select) = shape else { return shape.hash(into: &hasher) }
        var outline = select
        outline.columns = []
        hasher.combine(select.columns.count)
        hasher.combine(outline)
    }
}
