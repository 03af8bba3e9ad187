import Foundation

/// How the values of a fetched row become a model's slots, worked out once per table layout.
///
/// A fetch makes one model per row, so this is the inner loop of `fetch`: for the common column
/// types (`Int`, `Int64`, `Double`, `String`, `Bool`, `Date` and their Optionals) it reads the column
/// straight from the statement when the column holds its natural storage class, and stores the
/// value unboxed in the slot (`.primitive`) without a `DatabaseValue`, a codec closure or a
/// generic type lookup in between. Any other type, and any value in another storage class (an integer in a `String`
/// attribute, say), goes through the attribute's codec as before, so the answers are the same.
struct SlotPlan {
    typealias Primitive = ModelStorage.Primitive

    /// What one fill does with its column: one of the common types read directly (plain or
    /// Optional), the attribute's codec, or a to-one relationship's key kept raw. One
    /// operation per fill, chosen when the plan is made: a row then takes one jump per
    /// column, where a kind, a reader and an Optional flag took three tests (the fetch's row
    /// loop, callgrind SwiftData W6: 1,786.0M → 1,611.0M instructions, about 8 a column).
    enum Op: UInt8 {
        case int64, optionalInt64, int, optionalInt, double, optionalDouble, string, optionalString
        case bool, optionalBool, date, optionalDate
        /// Through ``Schema/Attribute/value(from:)``.
        case codec
        /// A to-one relationship: the related row's key, resolved on first access.
        case toOne
    }

    /// How one slot is filled from a column of the row. Plain values only (the attributes and
    /// constants sit in their own arrays): copying an entry with an `Any` or a class in it
    /// would cost a value-witness call per slot per row.
    struct Fill {
        let op: Op
        /// The row's column (0 is the primary key).
        let column: Int32
        let slot: Int32
        /// The index into `attributes` (`.codec` only).
        let attribute: Int32
    }

    /// The slots filled from columns, in column order; every other slot starts `.unloaded`.
    let fills: [Fill]
    let slotCount: Int
    /// The attributes read through their codec, with their column names (for errors).
    let attributes: [(attribute: Schema.Attribute, columnName: String)]
    /// Transient attributes' declared defaults, with their slots.
    let constants: [(slot: Int, value: Any)]

    /// `columns` are the row's after the key, `nil` for one the entity does not read.
    init(entity: Schema.Entity, columns: [TableLayout.Column?], transientDefaults: [(slot: Int, value: Any)]) {
        var fills: [Fill] = []
        var attributes: [(Schema.Attribute, String)] = []
        for (offset, column) in columns.enumerated() {
            guard let column else { continue }
            switch column.kind {
            case .attribute(let attribute):
                let op = Self.op(for: attribute)
                fills.append(Fill(op: op, column: Int32(offset + 1), slot: Int32(column.slot), attribute: Int32(attributes.count)))
                attributes.append((attribute, column.name))
            case .toOne:
                fills.append(Fill(op: .toOne, column: Int32(offset + 1), slot: Int32(column.slot), attribute: 0))
            }
        }
        self.fills = fills
        slotCount = entity.properties.count
        self.attributes = attributes
        constants = transientDefaults
    }

    private static func op(for attribute: Schema.Attribute) -> Op {
        guard let codec = attribute.codec, codec.representation == .primitive else { return .codec }
        let type = attribute.valueType
        let ops: [(any Any.Type, Op, any Any.Type, Op)] = [
            (Int64.self, .int64, Int64?.self, .optionalInt64), (Int.self, .int, Int?.self, .optionalInt),
            (Double.self, .double, Double?.self, .optionalDouble), (String.self, .string, String?.self, .optionalString),
            (Bool.self, .bool, Bool?.self, .optionalBool), (Date.self, .date, Date?.self, .optionalDate),
        ]
        for (plain, plainOp, optional, optionalOp) in ops {
            if type == plain { return plainOp }
            if type == optional { return optionalOp }
        }
        return .codec
    }

    /// Writes the slots of a row of the layout's full SELECT (primary key, then every column)
    /// into `base`, one slot per property, every one `.unloaded` on entry. Called through
    /// ``RowValues/fill(_:into:tableName:)`` so that it is compiled for the row's type.
    ///
    /// A filled slot holds no payload when it is written, so it is initialized in place rather
    /// than assigned: no old value to destroy, no `Optional<Any>` in between.
    @inline(__always)
    func fill<Values: RowValues>(_ base: UnsafeMutablePointer<ModelStorage.Slot>, from row: Values, tableName: String) throws {
        let columnCount = row.count
        try fills.withUnsafeBufferPointer { fills in
            for fill in fills where Int(fill.column) < columnCount {
                try store(fill, row: row, into: base + Int(fill.slot), tableName: tableName)
            }
        }
        if !constants.isEmpty {
            for (slot, value) in constants { (base + slot).initialize(to: .value(value)) }
        }
    }

    @inline(__always)
    private func store<Values: RowValues>(
        _ fill: Fill, row: Values, into target: UnsafeMutablePointer<ModelStorage.Slot>, tableName: String
    ) throws {
        let column = Int(fill.column)
        let stored: Bool
        switch fill.op {
        case .int64: stored = Self.store(row, column, target, Primitive.int64)
        case .optionalInt64: stored = Self.storeOptional(row, column, target, Primitive.optionalInt64)
        case .int: stored = Self.store(row, column, target, Primitive.int)
        case .optionalInt: stored = Self.storeOptional(row, column, target, Primitive.optionalInt)
        case .double: stored = Self.store(row, column, target, Primitive.double)
        case .optionalDouble: stored = Self.storeOptional(row, column, target, Primitive.optionalDouble)
        case .string: stored = Self.store(row, column, target, Primitive.string)
        case .optionalString: stored = Self.storeOptional(row, column, target, Primitive.optionalString)
        case .bool: stored = Self.store(row, column, target, Primitive.bool)
        case .optionalBool: stored = Self.storeOptional(row, column, target, Primitive.optionalBool)
        // The column's REAL (or INTEGER) seconds since 2001, as the `Date` codec reads them.
        case .date:
            stored = Self.store(row, column, target) { (seconds: Double) in .date(Date(timeIntervalSinceReferenceDate: seconds)) }
        case .optionalDate:
            stored = Self.storeOptional(row, column, target) { (seconds: Double?) in
                .optionalDate(seconds.map(Date.init(timeIntervalSinceReferenceDate:)))
            }
        case .toOne:
            target.initialize(to: .raw(row.value(at: column)))
            return
        case .codec: stored = false
        }
        if stored { return }
        try storeThroughCodec(fill, row: row, into: target, tableName: tableName)
    }

    /// Any other type, or a value in another storage class, through the attribute's codec.
    /// Out of line: this loop is inlined into the fetch, and the codec call with its error
    /// (a message built from four strings) was most of the loop's code, beside the few
    /// instructions a primitive column takes. The loop's code competes with SQLite's for the
    /// L1 instruction cache, so the rare path stays out of it.
    @inline(never)
    private func storeThroughCodec<Values: RowValues>(
        _ fill: Fill, row: Values, into target: UnsafeMutablePointer<ModelStorage.Slot>, tableName: String
    ) throws {
        let column = Int(fill.column)
        let (attribute, columnName) = attributes[Int(fill.attribute)]
        let value = row.value(at: column)
        do {
            target.initialize(to: .value(try attribute.value(from: value)))
        } catch {
            throw ModelError(
                .valueDecodingFailed, entityName: tableName, propertyName: attribute.name,
                column: SQLText.identifier(tableName) + "." + SQLText.identifier(columnName),
                value: value.description, message: "A stored value cannot be read as \(attribute.valueType): \(error)")
        }
    }

    /// Stores the column as `P` when it holds `P`'s natural storage class; `false` (nothing
    /// stored) sends the value through the codec.
    @inline(__always)
    private static func store<P: DatabaseValueConvertible, Values: RowValues>(
        _ row: Values, _ column: Int, _ target: UnsafeMutablePointer<ModelStorage.Slot>, _ wrap: (P) -> Primitive
    ) -> Bool {
        guard let value = row.natural(P.self, at: column) else { return false }
        target.initialize(to: .primitive(wrap(value)))
        return true
    }

    /// Stores the column as `P?`: `nil` for NULL, else as ``store(_:_:_:_:)`` does.
    @inline(__always)
    private static func storeOptional<P: DatabaseValueConvertible, Values: RowValues>(
        _ row: Values, _ column: Int, _ target: UnsafeMutablePointer<ModelStorage.Slot>, _ wrap: (P?) -> Primitive
    ) -> Bool {
        let (isNull, value) = row.nullOrNatural(P.self, at: column)
        if isNull {
            target.initialize(to: .primitive(wrap(nil)))
            return true
        }
        guard let value else { return false }
        target.initialize(to: .primitive(wrap(value)))
        return true
    }
}

/// The values of one fetched row by position: an array copied out of a statement, or the
/// statement's current row itself, read in place while stepping (no array per row).
protocol RowValues {
    var count: Int { get }
    func value(at index: Int) -> DatabaseValue
    /// The value at `index` when it is stored as an INTEGER (a primary key), else nil.
    func integer(at index: Int) -> Int64?
    /// Whether the value at `index` is NULL.
    func isNull(at index: Int) -> Bool
    /// The value at `index` as `P`, or `nil` when it is not in `P`'s natural storage class.
    func natural<P: DatabaseValueConvertible>(_ type: P.Type, at index: Int) -> P?
    /// Whether the value at `index` is NULL and, if not, ``natural(_:at:)``, reading it once.
    func nullOrNatural<P: DatabaseValueConvertible>(_ type: P.Type, at index: Int) -> (isNull: Bool, value: P?)
    /// Writes this row's slots under a plan (each conforming type compiles the plan for itself).
    func fill(_ plan: SlotPlan, into slots: UnsafeMutablePointer<ModelStorage.Slot>, tableName: String) throws
}

extension Array: RowValues where Element == DatabaseValue {
    func value(at index: Int) -> DatabaseValue { self[index] }
    func isNull(at index: Int) -> Bool { self[index].isNull }
    func integer(at index: Int) -> Int64? {
        if case .integer(let value) = self[index] { return value }
        return nil
    }
    func natural<P: DatabaseValueConvertible>(_ type: P.Type, at index: Int) -> P? { P.fromDatabaseValue(self[index]) }
    func nullOrNatural<P: DatabaseValueConvertible>(_ type: P.Type, at index: Int) -> (isNull: Bool, value: P?) {
        self[index].isNull ? (true, nil) : (false, P.fromDatabaseValue(self[index]))
    }
    func fill(_ plan: SlotPlan, into slots: UnsafeMutablePointer<ModelStorage.Slot>, tableName: String) throws {
        try plan.fill(slots, from: self, tableName: tableName)
    }
}

extension Row: RowValues {
    func value(at index: Int) -> DatabaseValue { databaseValue(at: index) }
    @inline(__always)
    func natural<P: DatabaseValueConvertible>(_ type: P.Type, at index: Int) -> P? { self[index] }
    @inline(__always)
    func nullOrNatural<P: DatabaseValueConvertible>(_ type: P.Type, at index: Int) -> (isNull: Bool, value: P?) {
        nullOrValue(P.self, at: index)
    }
    /// Through ``StatementRow``: the plan checks each column against the row's count, so the
    /// statement is checked once for the row rather than once a column.
    func fill(_ plan: SlotPlan, into slots: UnsafeMutablePointer<ModelStorage.Slot>, tableName: String) throws {
        guard let columns else { return try plan.fill(slots, from: self, tableName: tableName) }
        try plan.fill(slots, from: StatementRow(row: self, columns: columns), tableName: tableName)
    }
}

/// A statement's current row whose common values are read through ``Row/Columns`` (the
/// statement checked once for the row); the rarer reads go through the row itself.
struct StatementRow: RowValues {
    let row: Row
    let columns: Row.Columns

    var count: Int { columns.count }
    func value(at index: Int) -> DatabaseValue { row.databaseValue(at: index) }
    func integer(at index: Int) -> Int64? { row.integer(at: index) }
    func isNull(at index: Int) -> Bool { row.isNull(at: index) }
    @inline(__always)
    func natural<P: DatabaseValueConvertible>(_ type: P.Type, at index: Int) -> P? { columns.value(P.self, at: index) }
    @inline(__always)
    func nullOrNatural<P: DatabaseValueConvertible>(_ type: P.Type, at index: Int) -> (isNull: Bool, value: P?) {
        columns.nullOrValue(P.self, at: index)
    }
    func fill(_ plan: SlotPlan, into slots: UnsafeMutablePointer<ModelStorage.Slot>, tableName: String) throws {
        try plan.fill(slots, from: self, tableName: tableName)
    }
}
