import Foundation

/// A value per Swift type, made once per process and shared by every thread: a model type's
/// entity, its entity name, a table type's `SELECT` of every column.
///
/// The value is made outside the lock: making it may run user code (a model's
/// `schemaMetadata`, a table's generated columns), which must not run under Cairn's lock. Two
/// threads may then make it at once; the first stored wins, so every caller sees one value.
package final class TypeKeyedCache<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `values` is read and written only while `lock` is held, and the
    // caches hold values that are themselves immutable once made.
    private let lock = NSLock()
    private var values: [ObjectIdentifier: Value] = [:]

    package init() {}

    package func value(for type: Any.Type, make: () -> Value) -> Value {
        let key = ObjectIdentifier(type)
        if let value = lock.withLock({ values[key] }) { return value }
        let made = make()
        return lock.withLock {
            if let existing = values[key] { return existing }
            values[key] = made
            return made
        }
    }
}
