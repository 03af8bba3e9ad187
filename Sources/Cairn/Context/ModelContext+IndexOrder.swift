import Foundation

// A page of a fetch whose last sort key is in `.reverse` order ("the newest 100"), read in the
// order of an index on that key.
//
// Fetches break ties after the last sort descriptor by primary key, ascending, because Swift's
// stable sort keeps ties in the order of its input (the stored rows). With the last key
// descending, that tie-break is the opposite of an index read backwards (`startedAt DESC, id
// DESC`), so SQLite sorts every group of equal keys in a temporary B-tree: for W3
// (`minutes >= 30 ORDER BY startedAt DESC LIMIT 100`) that was a `memset` of the sorter per
// row, 429,000 of the 1,574,000 instructions a query.
//
// When no two rows of the page tie, the tie-break changes nothing, and the page can be read
// with `id DESC`. Whether they tie is only known after reading: the page is read with one row
// more on each side, and if any two neighbouring rows compare equal under the descriptors
// (Foundation's own `compare`, as `sorted(using:)` uses), a tie group may reach into or across
// the page, and the fetch runs again with the stored-order tie-break. A shape that tied once is
// remembered and read the ordinary way from then on.

extension ModelContext {
    /// The page `descriptor` selects, read in index order, or `nil` when the fetch is not of that
    /// kind or its rows tie (the caller then reads it with the stored-order tie-break).
    func storedModelsInIndexOrder<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, layout: TableLayout, store: ModelStore
    ) throws -> [T]? {
        guard let probe = IndexOrderProbe(descriptor, entity: layout.entity) else { return nil }
        let rendered = try QueryCompiler.render(
            probe.descriptor, selecting: .columns(layout.columns.map(\.name)), tieBreak: .descending)
        guard !TiedShapes.current.contains(rendered.sql) else { return nil }
        let models = try store.access { connection in
            try connection.models(rendered) { row in
                try materialize(T.self, row: row, layout: layout, store: store)
            }
        }
        for index in models.indices.dropFirst() where probe.tie(models[index - 1], models[index]) {
            TiedShapes.current.insert(rendered.sql)
            return nil
        }
        return Array(models.dropFirst(probe.leadingRows).prefix(probe.limit))
    }

    /// The SQL `fetch(descriptor)` runs first: the index-order read when it applies.
    func firstFetchSQL<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, layout: TableLayout) throws -> RenderedSQL {
        let columns = QuerySelection.columns(layout.columns.map(\.name))
        if let probe = IndexOrderProbe(descriptor, entity: layout.entity) {
            let rendered = try QueryCompiler.render(probe.descriptor, selecting: columns, tieBreak: .descending)
            if !TiedShapes.current.contains(rendered.sql) { return rendered }
        }
        return try QueryCompiler.render(descriptor, selecting: columns)
    }
}

/// The widened page of an index-order read.
struct IndexOrderProbe<T: PersistentModel> {
    /// The page with one more row on each side (none before the first row).
    let descriptor: FetchDescriptor<T>
    /// The rows read before the page: 1, or 0 for a page at offset 0.
    let leadingRows: Int
    /// The page's size.
    let limit: Int
    private let sortBy: [SortDescriptor<T>]

    /// The probe for a fetch with a limit whose last sort descriptor is `.reverse` and whose
    /// keys are all the entity's own stored attributes (comparing models on them reads no other
    /// row); `nil` for any other fetch.
    init?(_ original: FetchDescriptor<T>, entity: Schema.Entity) {
        guard let last = original.sortBy.last, last.order == .reverse,
            let limit = original.fetchLimit, limit > 0, limit < Int.max - 2,
            original.propertiesToFetch.isEmpty,
            original.sortBy.allSatisfy({ sort in
                sort.keyPath.flatMap { entity.attribute(for: $0) }.map { !$0.isTransient } ?? false
            })
        else { return nil }
        let offset = max(0, original.fetchOffset ?? 0)
        var widened = original
        leadingRows = offset > 0 ? 1 : 0
        widened.fetchOffset = offset > 0 ? offset - 1 : original.fetchOffset
        widened.fetchLimit = limit + leadingRows + 1
        descriptor = widened
        self.limit = limit
        sortBy = original.sortBy
    }

    /// Whether two models compare equal under every descriptor.
    func tie(_ lhs: T, _ rhs: T) -> Bool {
        sortBy.allSatisfy { $0.compare(lhs, rhs) == .orderedSame }
    }

}

/// The SQL texts of index-order reads whose rows tied, shared by every context of the process:
/// those shapes are read with the stored-order tie-break from then on.
final class TiedShapes: @unchecked Sendable {
    // @unchecked Sendable: `texts` is only touched while holding `lock`.
    static let shared = TiedShapes()
    /// The set fetches use: `shared`, unless a task scopes its own (tests do, so that which
    /// path a fetch takes does not depend on what other tests fetched before).
    @TaskLocal static var current: TiedShapes = .shared
    private let lock = NSLock()
    private var texts: Set<String> = []
    /// The most texts kept; past it the set starts over (shapes are few in real programs).
    private let capacity = 1024

    func contains(_ sql: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return texts.contains(sql)
    }

    func insert(_ sql: String) {
        lock.lock()
        defer { lock.unlock() }
        if texts.count >= capacity { texts.removeAll(keepingCapacity: true) }
        texts.insert(sql)
    }
}
