/// A reader of binary property lists (`bplist00`) that keeps keyed-archive UIDs, which
/// Foundation's `PropertyListSerialization` on Linux returns as an opaque type. Every offset
/// and count is checked against the data, so a corrupt list is an error, not a crash.
indirect enum PropertyListValue {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case date(Double)
    case data([UInt8])
    case string(String)
    case uid(Int)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    subscript(key: String) -> PropertyListValue? {
        if case .dictionary(let dictionary) = self { dictionary[key] } else { nil }
    }

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    var uid: Int? { if case .uid(let value) = self { value } else { nil } }
    var array: [PropertyListValue]? { if case .array(let values) = self { values } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }

    /// Parses `bytes` as a binary property list.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> PropertyListValue {
        let reader = try Reader(bytes)
        return try reader.object(reader.topObject, depth: 0)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int, referenceSize: Int, objectCount: Int, topObject: Int, tableOffset: Int

        init(_ bytes: [UInt8]) throws(Failure) {
            guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else {
                throw Failure(description: "not a binary property list")
            }
            self.bytes = bytes
            let trailer = bytes.count - 32
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            func integer(_ start: Int) -> Int {
                (start..<start + 8).reduce(0) { $0 << 8 | Int(bytes[$1]) & 0xFF }
            }
            objectCount = integer(trailer + 8)
            topObject = integer(trailer + 16)
            tableOffset = integer(trailer + 24)
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount >= 0, topObject >= 0,
                topObject < objectCount, tableOffset >= 0, tableOffset <= trailer,
                objectCount <= (trailer - tableOffset) / offsetSize
            else { throw Failure(description: "corrupt binary property list trailer") }
        }

        func sized(_ start: Int, _ size: Int) throws(Failure) -> Int {
            guard start >= 0, size <= 8, start + size <= bytes.count else { throw Failure(description: "offset past the end") }
            var value = 0
            for index in start..<start + size { value = value << 8 | Int(bytes[index]) }
            return value
        }

        /// The value of object `index`; `depth` stops reference cycles.
        func object(_ index: Int, depth: Int) throws(Failure) -> PropertyListValue {
            guard index >= 0, index < objectCount, depth < 512 else { throw Failure(description: "invalid object reference") }
            let start = try sized(tableOffset + index * offsetSize, offsetSize)
            guard start < bytes.count else { throw Failure(description: "object offset past the end") }
            let marker = bytes[start], high = marker >> 4, low = Int(marker & 0x0F)
            // The count that follows a marker: the low nibble, or an integer object after it when 15.
            func count() throws(Failure) -> (Int, Int) {
                guard low == 15 else { return (low, start + 1) }
                guard start + 1 < bytes.count, bytes[start + 1] >> 4 == 1 else { throw Failure(description: "invalid count") }
                let size = 1 << Int(bytes[start + 1] & 0x0F)
                return (try sized(start + 2, size), start + 2 + size)
            }
            switch high {
            case 0:
                switch low {
                case 8: return .bool(false)
                case 9: return .bool(true)
                default: return .null
                }
            case 1:
                let size = 1 << low
                return .integer(Int64(truncatingIfNeeded: try sized(start + 1, size)))
            case 2, 3:
                let size = high == 3 ? 8 : 1 << low
                let raw = UInt64(truncatingIfNeeded: try sized(start + 1, size))
                let value = size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw)
                return high == 3 ? .date(value) : .real(value)
            case 4, 5, 6:
                let (length, first) = try count()
                let byteCount = high == 6 ? length * 2 : length
                guard length >= 0, first + byteCount <= bytes.count else { throw Failure(description: "string past the end") }
                let slice = Array(bytes[first..<first + byteCount])
                if high == 4 { return .data(slice) }
                if high == 5 { return .string(String(decoding: slice, as: UTF8.self)) }
                let units = stride(from: 0, to: slice.count, by: 2).map { UInt16(slice[$0]) << 8 | UInt16(slice[$0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 8:
                return .uid(try sized(start + 1, low + 1))
            case 0xA, 0xD:
                let (length, first) = try count()
                let references = high == 0xD ? length * 2 : length
                guard length >= 0, first + references * referenceSize <= bytes.count else { throw Failure(description: "collection past the end") }
                var values: [PropertyListValue] = []
                for slot in 0..<references {
                    values.append(try object(try sized(first + slot * referenceSize, referenceSize), depth: depth + 1))
                }
                guard high == 0xD else { return .array(values) }
                var dictionary: [String: PropertyListValue] = [:]
                for slot in 0..<length {
                    guard let key = values[slot].string else { throw Failure(description: "dictionary key is not a string") }
                    dictionary[key] = values[length + slot]
                }
                return .dictionary(dictionary)
            default:
                throw Failure(description: "unsupported object type 0x\(String(marker, radix: 16))")
            }
        }
    }
}
