import CairnSQLite
import CLibPQ
import Foundation

/// The type OIDs of PostgreSQL's built-in types the engine converts itself (`pg_type.oid`,
/// stable across versions).
enum TypeOID {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let name: Oid = 19
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let text: Oid = 25
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let bpchar: Oid = 1042
    static let varchar: Oid = 1043
    static let numeric: Oid = 1700

    /// The types whose binary form ``decodeBinary`` reads; a statement whose result columns are
    /// all among them asks for binary results, any other asks for text.
    static let binaryReadable: Set<Oid> = [bool, bytea, name, int8, int2, int4, text, float4, float8, bpchar, varchar]
}

enum PostgresValueCoding {
    // MARK: - Parameters

    /// Appends `value`'s bytes, encoded for a parameter the server inferred as `type` (from
    /// the prepared statement's description), to `storage`, and returns their format (0 text,
    /// 1 binary), or nil for NULL (nothing appended). Matching kinds travel in binary
    /// (int2/int4/int8, float8, bool, text types, bytea); anything else travels as text, which
    /// the server parses as that type, so a string reaches a `uuid`, `json` or `timestamp`
    /// parameter and a wrong value is the server's error, naming the type.
    ///
    /// One buffer for every value of a statement: no array per value.
    static func encode(_ value: DatabaseValue, as type: Oid, into storage: inout [UInt8]) -> Int32? {
        switch (value, type) {
        case (.null, _):
            return nil
        case (.integer(let v), TypeOID.int8):
            append(UInt64(bitPattern: v), to: &storage)
        case (.integer(let v), TypeOID.int4) where Int32(exactly: v) != nil:
            append(UInt32(bitPattern: Int32(v)), to: &storage)
        case (.integer(let v), TypeOID.int2) where Int16(exactly: v) != nil:
            append(UInt16(bitPattern: Int16(v)), to: &storage)
        case (.integer(let v), TypeOID.bool):
            storage.append(v != 0 ? 1 : 0)
        case (.integer(let v), TypeOID.float8):
            append(Double(v).bitPattern, to: &storage)
        case (.real(let v), TypeOID.float8):
            append(v.bitPattern, to: &storage)
        case (.text(let v), TypeOID.text), (.text(let v), TypeOID.varchar), (.text(let v), TypeOID.name),
             (.text(let v), TypeOID.bpchar), (.text(let v), TypeOID.bytea):
            storage.append(contentsOf: v.utf8)
        case (.blob(let v), TypeOID.bytea):
            storage.append(contentsOf: v)
        default:
            storage.append(contentsOf: textForm(of: value).utf8)
            return 0
        }
        return 1
    }

    /// The value's text form as PostgreSQL's input functions read it.
    static func textForm(of value: DatabaseValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let v): return String(v)
        case .real(let v):
            if v.isNaN { return "NaN" }
            if v.isInfinite { return v < 0 ? "-Infinity" : "Infinity" }
            return String(v)
        case .text(let v): return v
        case .blob(let v):
            // bytea's hex input form; the server turns it into bytes where a bytea is expected.
            let digits = Array("0123456789abcdef")
            var text = "\\x"
            text.reserveCapacity(2 + 2 * v.count)
            for byte in v {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
            return text
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to storage: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { storage.append(contentsOf: $0) }
    }

    // MARK: - Results

    /// Reads a binary-format column value of a type in ``TypeOID/binaryReadable``, text and
    /// bytes left where they lie (in libpq's result). Booleans become 0/1 integers, SQLite's
    /// representation, which Cairn's decoders expect.
    @inline(__always)
    static func borrowBinary(_ bytes: UnsafeRawBufferPointer, type: Oid) -> BorrowedDatabaseValue {
        switch type {
        case TypeOID.int8 where bytes.count == 8:
            return .integer(Int64(bitPattern: bigEndian(bytes, as: UInt64.self)))
        case TypeOID.int4 where bytes.count == 4:
            return .integer(Int64(Int32(bitPattern: bigEndian(bytes, as: UInt32.self))))
        case TypeOID.int2 where bytes.count == 2:
            return .integer(Int64(Int16(bitPattern: bigEndian(bytes, as: UInt16.self))))
        case TypeOID.float8 where bytes.count == 8:
            return .real(Double(bitPattern: bigEndian(bytes, as: UInt64.self)))
        case TypeOID.float4 where bytes.count == 4:
            return .real(Double(Float(bitPattern: bigEndian(bytes, as: UInt32.self))))
        case TypeOID.bool where bytes.count == 1:
            return .integer(bytes[0] != 0 ? 1 : 0)
        case TypeOID.bytea:
            return .blob(bytes)
        default:
            return .text(bytes)
        }
    }

    /// ``borrowBinary(_:type:)``'s value, copied out of libpq's result.
    static func decodeBinary(_ bytes: UnsafeRawBufferPointer, type: Oid) -> DatabaseValue {
        borrowBinary(bytes, type: type).databaseValue
    }

    /// The integer in the first bytes of `bytes`, which the caller has checked are enough.
    @inline(__always)
    private static func bigEndian<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as: T.Type) -> T {
        T(bigEndian: bytes.loadUnaligned(as: T.self))
    }

    /// Reads a text-format column value: integers, floats and `numeric` become numbers,
    /// booleans 0/1, `bytea` (hex output) bytes, every other type its text.
    static func decodeText(_ text: String, type: Oid) -> DatabaseValue {
        switch type {
        case TypeOID.int8, TypeOID.int4, TypeOID.int2:
            return Int64(text).map(DatabaseValue.integer) ?? .text(text)
        case TypeOID.float8, TypeOID.float4, TypeOID.numeric:
            switch text {
            case "NaN": return .real(.nan)
            case "Infinity": return .real(.infinity)
            case "-Infinity": return .real(-.infinity)
            default: return Double(text).map(DatabaseValue.real) ?? .text(text)
            }
        case TypeOID.bool:
            return .integer(text == "t" ? 1 : 0)
        case TypeOID.bytea:
            return hexBytes(text).map(DatabaseValue.blob) ?? .text(text)
        default:
            return .text(text)
        }
    }

    /// The bytes of bytea's hex output (`\x00ff`), or nil when `text` is not in that form.
    private static func hexBytes(_ text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var data = Data(capacity: (utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }
}
