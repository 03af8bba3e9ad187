import CSQLite

/// One reusable byte buffer per parameter of a statement, for text that
/// ``Statement/bind(values:)`` binds with `SQLITE_STATIC`.
///
/// With `SQLITE_TRANSIENT`, SQLite copies each bound text into memory it allocates, and frees
/// that memory when the parameter is bound again: an insert loop paid a `malloc` and a `free`
/// per text column per row (about 280 instructions a W1 row, callgrind), where C code that
/// owns its strings binds them `SQLITE_STATIC`. Here the text is copied into the parameter's
/// own buffer, which grows when a longer text comes and is kept for the next row, and SQLite
/// reads it from there.
///
/// Sound because SQLite reads a `SQLITE_STATIC` value only until the parameter is bound again
/// or the statement is finalized, and a buffer is overwritten or replaced only by the next
/// bind of its own parameter, on a statement that is not running (`sqlite3_stmt_busy`; a
/// running one gets SQLite's copying bind, which refuses with `SQLITE_MISUSE` and leaves the
/// buffer alone), and freed only after `sqlite3_finalize` (the statement's `deinit` finalizes
/// before its stored properties go). On a statement that is not running, SQLite's bind first
/// drops the parameter's old value, so even a bind that then fails (`SQLITE_TOOBIG` under a
/// low length limit) leaves no reference to the old bytes. Texts over 64 KiB take the copying
/// bind: a buffer is kept as long as its statement, and one huge text should not be.
@usableFromInline
final class BoundTextBuffers {
    @usableFromInline
    struct Buffer {
        var base: UnsafeMutablePointer<UInt8>?
        var capacity: Int
    }

    @usableFromInline
    let buffers: UnsafeMutableBufferPointer<Buffer>

    init(parameterCount: Int) {
        buffers = .allocate(capacity: parameterCount)
        buffers.initialize(repeating: Buffer(base: nil, capacity: 0))
    }

    deinit {
        for buffer in buffers { buffer.base?.deallocate() }
        buffers.deallocate()
    }

    /// Copies `text` into parameter `index`'s buffer (1-based) and binds it `SQLITE_STATIC`;
    /// SQLite's result code. A running statement, an empty text and one over
    /// ``largestKept`` bytes take SQLite's copying bind instead (``Statement/bind(values:)``
    /// resets the statement first, so only one stepped through its raw handle is running).
    @usableFromInline
    func bind(_ text: String, to sqliteStatement: SQLiteStatement, at index: Int32) -> Int32 {
        let slot = Int(index) - 1
        guard slot >= 0, slot < buffers.count, sqlite3_stmt_busy(sqliteStatement) == 0, !text.isEmpty,
              text.utf8.count <= Self.largestKept else {
            // Out of range or running (SQLite's own SQLITE_RANGE or SQLITE_MISUSE), empty or
            // long: the copying bind.
            return bindText(text, to: sqliteStatement, at: index)
        }
        var text = text
        return text.withUTF8 { utf8 in
            // Never nil for a non-empty text.
            guard let source = utf8.baseAddress else { return bindText("", to: sqliteStatement, at: index) }
            let base = reserve(utf8.count, at: slot)
            base.update(from: source, count: utf8.count)
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text64(sqliteStatement, index, $0, sqlite3_uint64(utf8.count), CAIRN_SQLITE_STATIC,
                                    UInt8(SQLITE_UTF8))
            }
        }
    }

    /// The longest text copied into a kept buffer.
    static let largestKept = 64 * 1024

    /// Parameter `slot`'s buffer, grown to at least `count` bytes (doubling, so a column of
    /// slowly growing texts does not reallocate on every row).
    private func reserve(_ count: Int, at slot: Int) -> UnsafeMutablePointer<UInt8> {
        if let base = buffers[slot].base, buffers[slot].capacity >= count { return base }
        buffers[slot].base?.deallocate()
        let capacity = Swift.max(count, buffers[slot].capacity * 2, 32)
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        buffers[slot] = Buffer(base: base, capacity: capacity)
        return base
    }
}
