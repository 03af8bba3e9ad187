import Foundation

// SQLite's `uuid` extension, on every connection: `uuid()`, `uuid_str(X)` and `uuid_blob(X)`.
// Apple's SQLite has long shipped them, and schemas written for SQLiteData give UUID keys a
// default of `uuid()`:
//
//     CREATE TABLE "reminders" (
//       "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()), …)
//
// so that an insert of a `Draft` without an id gets one. The system SQLite of Linux
// distributions leaves the extension out. The functions are innocuous, so a `DEFAULT`, a
// trigger or a view may call them with `trusted_schema` off.

extension DatabaseFunction {
    /// `uuid()`, `uuid_str(X)` and `uuid_blob(X)`, registered on every connection.
    static let uuidFunctions: [DatabaseFunction] = [random, text, blob].map { function in
        var function = function
        function.isInnocuous = true
        return function
    }

    /// `uuid()`: a new random (version 4) UUID, as lowercase text.
    private static let random = DatabaseFunction("uuid", argumentCount: 0, isDeterministic: false) { _ in
        UUID().lowercasedText
    }

    /// `uuid_str(X)`: the UUID in X (16 bytes, or text) as lowercase text, or NULL when X
    /// holds none.
    private static let text = DatabaseFunction("uuid_str", argumentCount: 1) { arguments in
        uuid(in: arguments[0])?.lowercasedText
    }

    /// `uuid_blob(X)`: the UUID in X (16 bytes, or text) as 16 bytes, or NULL when X holds
    /// none.
    private static let blob = DatabaseFunction("uuid_blob", argumentCount: 1) { arguments in
        uuid(in: arguments[0]).map { uuid in withUnsafeBytes(of: uuid.uuid) { Data($0) } }
    }

    /// The UUID a value holds: a BLOB of 16 bytes, or text of 32 hexadecimal digits in either
    /// case, each pair optionally after a hyphen, the whole optionally in braces
    /// (`{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}`, `e621e1f8c36c495a93fc0c247a3e6e5f`), as the
    /// extension reads it.
    static func uuid(in value: DatabaseValue) -> UUID? {
        switch value {
        case .blob(let data) where data.count == 16:
            return UUID.fromDatabaseValue(value)
        case .text(let text):
            var bytes = [UInt8](repeating: 0, count: 16)
            var utf8 = Array(text.utf8)[...]
            if utf8.first == UInt8(ascii: "{") { utf8 = utf8.dropFirst() }
            for index in 0..<16 {
                if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
                guard utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]),
                    let low = hexValue(utf8[utf8.startIndex + 1])
                else { return nil }
                bytes[index] = high << 4 | low
                utf8 = utf8.dropFirst(2)
            }
            if utf8.first == UInt8(ascii: "}") { utf8 = utf8.dropFirst() }
            guard utf8.isEmpty else { return nil }
            return UUID.fromDatabaseValue(.blob(Data(bytes)))
        default:
            return nil
        }
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
