import CSQLite
import Foundation

/// A text collation implemented in Swift, for `ORDER BY x COLLATE name` and column
/// definitions; registered with ``Database/add(collation:)`` or ``Configuration/collations``.
///
/// ```swift
/// let localized = DatabaseCollation("cairn_localized") { $0.localizedStandardCompare($1) }
/// // SELECT * FROM workout ORDER BY title COLLATE cairn_localized
/// ```
public struct DatabaseCollation: Sendable {
    /// The SQL name.
    public let name: String
    let compare: @Sendable (String, String) -> ComparisonResult

    /// Creates a collation from a comparison of two strings.
    public init(_ name: String, compare: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.compare = compare
    }
}

/// A reference box handed to SQLite as user data; released by SQLite's destructor callback.
private final class CollationBox {
    let collation: DatabaseCollation
    init(_ collation: DatabaseCollation) { self.collation = collation }
}

extension Database {
    /// Registers (or replaces) a collation on this connection.
    public func add(collation: DatabaseCollation) throws {
        let handle = try connection()
        let box = Unmanaged.passRetained(CollationBox(collation)).toOpaque()
        let code = sqlite3_create_collation_v2(
            handle, collation.name, SQLITE_UTF8, box,
            { box, leftCount, left, rightCount, right in
                guard let box else { return 0 }
                let collation = Unmanaged<CollationBox>.fromOpaque(box).takeUnretainedValue().collation
                let lhs = left.map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(leftCount)), as: UTF8.self)
                } ?? ""
                let rhs = right.map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(rightCount)), as: UTF8.self)
                } ?? ""
                switch collation.compare(lhs, rhs) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            },
            { box in
                if let box { Unmanaged<CollationBox>.fromOpaque(box).release() }
            })
        guard code == SQLITE_OK else {
            throw DatabaseError(connection: handle, code: code, sql: nil, arguments: nil, public: false)
        }
    }
}

