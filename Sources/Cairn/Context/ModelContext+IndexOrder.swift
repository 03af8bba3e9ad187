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
// more on each side, and if any two neighbouring rows hold equal sort-key columns (equal as
// SQL's ORDER BY sees them), a tie group may reach into or across the page, and the fetch runs
// again with the stored-order tie-break. A shape that tied once is remembered and read the
// ordinary way from then on. The columns are compared rather than the models through
// `SortDescriptor.compare`: that walks key paths and sort comparators at about 5,000
// instructions a comparison, as much as the temporary B-tree cost.

extension ModelContext {
    /// The page `descriptor` selects, read in index order, or `nil` when the fetch is not of that
    /// kind or its rows tie (the caller then reads it with the stored-order tie-break).
    func storedModelsInIndexOrder<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, layout: TableLayout, store: ModelStore
    ) throws -> [T]? {
        guard let (probe, rendered) = try indexOrderRead(descriptor, layout: layout, store: store) else { return nil }
        return try pageInIndexOrder(T.self, rendered, probe.page, layout: layout, store: store)
    }

    /// The page of a Core Data fetch (`fetchStoredModels(_:where:orderBy:limit:offset:)`) read
    /// in index order, or `nil` when its SELECT is not of that kind or its rows tie.
    func storedModelsInIndexOrder<T: PersistentModel>(
        _ type: T.Type, _ select: SQLSelect, limit: Int, offset: Int, layout: TableLayout, store: ModelStore
    ) throws -> [T]? {
        guard let (widened, page) = IndexOrderPage.widening(select, limit: limit, offset: offset, layout: layout)
        else { return nil }
        let rendered = try store.dialect.render(widened)
        guard !TiedShapes.current.contains(rendered.sql) else { return nil }
        return try pageInIndexOrder(T.self, rendered, page, layout: layout, store: store)
    }

    /// Runs a widened page's SQL, makes the models of the page's rows, and checks the sort keys
    /// of neighbouring rows: `nil` (and the shape remembered as tied) if any two are equal.
    private func pageInIndexOrder<T: PersistentModel>(
        _ type: T.Type, _ rendered: RenderedSQL, _ page: IndexOrderPage, layout: TableLayout, store: ModelStore
    ) throws -> [T]? {
        // Each row's sort-key columns, one row after another.
        // Sized for the page and a row on either side, as the array doubling its way up to
        // them was copied six to eight times a query (Core Data W3). A limit is an upper
        // bound, not a count: a large one reserves no more than a modest page.
        let expectedRows = min(page.limit, 1_000)
        var keys: [DatabaseValue] = []
        keys.reserveCapacity((page.leadingRows + expectedRows + 1) * page.keyColumns.count)
        var rowCount = 0
        let rows = page.leadingRows..<(page.leadingRows + page.limit)
        let models = try store.read { connection in
            try connection.models(rendered, expectedCount: expectedRows) { row -> T? in
                defer { rowCount += 1 }
                for column in page.keyColumns { keys.append(row.value(at: column)) }
                // The rows on either side of the page are read for their keys alone: their
                // models would stay registered in the context without having been fetched.
                guard rows.contains(rowCount) else { return nil }
                return try materialize(T.self, row: row, layout: layout, store: store)
            }
        }
        let width = page.keyColumns.count
        for row in (0..<rowCount).dropFirst() {
            let previous = (row - 1) * width
            let current = row * width
            if (0..<width).allSatisfy({ sqlTie(keys[previous + $0], keys[current + $0]) }) {
                TiedShapes.current.insert(rendered.sql)
                return nil
            }
        }
        return models
    }

    /// The SQL `fetch(descriptor)` runs first: the index-order read when it applies.
    func firstFetchSQL<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, layout: TableLayout, store: ModelStore) throws
        -> RenderedSQL
    {
        if let (_, rendered) = try indexOrderRead(descriptor, layout: layout, store: store) { return rendered }
        return try QueryCompiler.render(descriptor, selecting: .columns(layout.columnNames), in: store.dialect)
    }

    /// The widened page and its SQL, when the fetch is of that kind and its shape has not tied.
    private func indexOrderRead<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, layout: TableLayout, store: ModelStore) throws
        -> (IndexOrderProbe<T>, RenderedSQL)?
    {
        guard IndexOrderProbe<T>.mayApply(to: descriptor), let probe = IndexOrderProbe(descriptor, layout: layout) else {
            return nil
        }
        let rendered = try QueryCompiler.render(
            probe.descriptor, selecting: .columns(layout.columnNames), tieBreak: .descending, in: store.dialect)
        return TiedShapes.current.contains(rendered.sql) ? nil : (probe, rendered)
    }
}

/// Where the page sits in the rows of an index-order read.
struct IndexOrderPage {
    /// The rows read before the page: 1, or 0 for a page at offset 0.
    let leadingRows: Int
    /// The page's size.
    let limit: Int
    /// Where the sort keys' columns are in a row of the fetch (after the primary key).
    let keyColumns: [Int]

    /// The page `limit` rows from `offset`, read with one more row on each side (none before
    /// the first row); `nil` for a limit the widened read cannot express.
    init?(limit: Int, offset: Int, keyColumns: [Int]) {
        guard limit > 0, limit < Int.max - 2 else { return nil }
        leadingRows = offset > 0 ? 1 : 0
        self.limit = limit
        self.keyColumns = keyColumns
    }

    /// The widened read's `OFFSET` (`nil`: none) and `LIMIT`.
    func widened(offset: Int?) -> (offset: Int?, limit: Int) {
        let start = max(0, offset ?? 0)
        return (start > 0 ? start - 1 : offset, limit + leadingRows + 1)
    }

    /// The position of `attribute`'s column in a row of the entity's full SELECT, if the
    /// attribute is stored and of a kind whose ties SQL and ``sqlTie(_:_:)`` see alike (numbers,
    /// dates, UUIDs; text when `plainText`, that is, compared by bytes or by `cairn_swift`,
    /// whose ties are Swift's `==`).
    static func keyColumn(of attribute: Schema.Attribute, plainText: Bool, in layout: TableLayout) -> Int? {
        guard !attribute.isTransient, let position = layout.columns.firstIndex(where: { $0.propertyName == attribute.name })
        else { return nil }
        switch SQLValueKind.of(unwrappedType(attribute.valueType).base) {
        case .integer, .real, .date, .uuid: return position + 1
        case .text where plainText: return position + 1
        default: return nil
        }
    }
}

/// The widened page of a SwiftData fetch's index-order read.
struct IndexOrderProbe<T: PersistentModel> {
    /// The page with one more row on each side (none before the first row).
    let descriptor: FetchDescriptor<T>
    let page: IndexOrderPage

    /// The cheap half of the test: a limit, and a last sort key in `.reverse` order. Callers
    /// ask before anything generic over the model is made: reaching `storedModelsInIndexOrder`
    /// for a fetch it then turns down, such as W5's primary-key lookups, made the metadata of
    /// its optional results and the probe, about 2,900 instructions a fetch (callgrind).
    static func mayApply(to descriptor: FetchDescriptor<T>) -> Bool {
        descriptor.fetchLimit != nil && descriptor.lastSortIsReverse
    }

    /// The probe for a fetch with a limit whose last sort descriptor is `.reverse` and whose
    /// keys are the entity's own stored attributes of a kind whose SQL equality is plain (numbers,
    /// dates, UUIDs, and strings with the default comparator, `cairn_swift`, whose ties are
    /// Swift's `==`); `nil` for any other fetch.
    init?(_ original: FetchDescriptor<T>, layout: TableLayout) {
        guard let last = original.sortBy.last, last.order == .reverse, let limit = original.fetchLimit,
            !original.fetchesSomeProperties
        else { return nil }
        var keyColumns: [Int] = []
        for sort in original.sortBy {
            guard let keyPath = sort.keyPath, let attribute = layout.entity.attribute(for: keyPath),
                let column = IndexOrderPage.keyColumn(of: attribute, plainText: sort.stringComparator == nil, in: layout)
            else { return nil }
            keyColumns.append(column)
        }
        guard let page = IndexOrderPage(limit: limit, offset: max(0, original.fetchOffset ?? 0), keyColumns: keyColumns)
        else { return nil }
        var widened = original
        (widened.fetchOffset, widened.fetchLimit) = page.widened(offset: original.fetchOffset)
        descriptor = widened
        self.page = page
    }
}

extension IndexOrderPage {
    /// The widened SELECT of a Core Data fetch and its page: `select` must end its ORDER BY
    /// with the primary key ascending after a descending term, and every other term must be
    /// one of the entity's own columns, uncollated (text then sorts by bytes) and with SQLite's
    /// NULL placement; `nil` for any other SELECT.
    static func widening(_ select: SQLSelect, limit: Int, offset: Int, layout: TableLayout) -> (SQLSelect, IndexOrderPage)? {
        let table = layout.tableName
        let keys = select.ordering.dropLast()
        guard select.ordering.last == SQLExpression.column(layout.primaryKey, table: table).ascending(),
            keys.last?.direction == .descending
        else { return nil }
        var keyColumns: [Int] = []
        for term in keys {
            guard term.collation == nil, term.nulls == nil,
                let column = layout.columns.first(where: { term.expression == .column($0.name, table: table) }),
                case .attribute(let attribute) = column.kind,
                let position = keyColumn(of: attribute, plainText: true, in: layout)
            else { return nil }
            keyColumns.append(position)
        }
        guard let page = IndexOrderPage(limit: limit, offset: offset, keyColumns: keyColumns) else { return nil }
        let (readOffset, readLimit) = page.widened(offset: offset > 0 ? offset : nil)
        var widened = select.limit(readLimit).offset(readOffset)
        widened.ordering[widened.ordering.count - 1] = SQLExpression.column(layout.primaryKey, table: table).descending()
        return (widened, page)
    }
}

/// Whether two stored values are equal as ORDER BY sees them (NULLs together, numbers by value,
/// text by Swift's `==`, which is `cairn_swift`'s equality). When unsure it says yes: a tie
/// only costs the ordinary read.
func sqlTie(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.integer(let a), .integer(let b)): a == b
    case (.real(let a), .real(let b)): a == b
    case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): Double(a) == b
    case (.text(let a), .text(let b)): a == b
    case (.blob(let a), .blob(let b)): a == b
    default: false
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
