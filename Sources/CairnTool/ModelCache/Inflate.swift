/// Decompresses raw DEFLATE data (RFC 1951), the compression of Core Data's `Z_MODELCACHE`.
/// Foundation on Linux has no decompression API, and the model cache is small, so this is the
/// plain canonical-Huffman decoder the RFC describes, with bounds checked on every read.
struct Inflate {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let input: [UInt8]
    private var position = 0
    private var bitBuffer = 0
    private var bitCount = 0
    private var output: [UInt8] = []
    private let limit: Int

    /// The decompressed bytes of `data`; fails on corrupt input or past `limit` bytes of output.
    static func decompress(_ data: [UInt8], limit: Int = 64 << 20) throws(Failure) -> [UInt8] {
        var inflater = Inflate(input: data, limit: limit)
        var last = false
        while !last {
            last = try inflater.bits(1) == 1
            switch try inflater.bits(2) {
            case 0: try inflater.stored()
            case 1: try inflater.codes(Huffman.fixedLengths, Huffman.fixedDistances)
            case 2:
                let (lengths, distances) = try inflater.dynamicTables()
                try inflater.codes(lengths, distances)
            default: throw Failure(description: "invalid DEFLATE block type")
            }
        }
        return inflater.output
    }

    private init(input: [UInt8], limit: Int) {
        self.input = input
        self.limit = limit
    }

    private mutating func bits(_ count: Int) throws(Failure) -> Int {
        while bitCount < count {
            guard position < input.count else { throw Failure(description: "DEFLATE data ends early") }
            bitBuffer |= Int(input[position]) << bitCount
            position += 1
            bitCount += 8
        }
        let value = bitBuffer & ((1 << count) - 1)
        bitBuffer >>= count
        bitCount -= count
        return value
    }

    private mutating func stored() throws(Failure) {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { throw Failure(description: "DEFLATE stored block ends early") }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        position += 4
        guard length == ~complement & 0xFFFF, position + length <= input.count, output.count + length <= limit else {
            throw Failure(description: "invalid DEFLATE stored block")
        }
        output += input[position..<position + length]
        position += length
    }

    /// A canonical Huffman code: how many codes of each length, and the symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        init(lengths: [Int]) throws(Failure) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for length in lengths { counts[length] += 1 }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        static let fixedLengths: Huffman = {
            let lengths = [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
            return (try? Huffman(lengths: lengths)) ?? Huffman(empty: ())
        }()
        static let fixedDistances: Huffman = (try? Huffman(lengths: [Int](repeating: 5, count: 30))) ?? Huffman(empty: ())

        private init(empty: Void) { symbols = [] }
    }

    private mutating func decode(_ code: Huffman) throws(Failure) -> Int {
        var value = 0, first = 0, index = 0
        for length in 1...15 {
            value |= try bits(1)
            let count = code.counts[length]
            if value - count < first {
                let slot = index + value - first
                guard slot < code.symbols.count else { break }
                return code.symbols[slot]
            }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw Failure(description: "invalid DEFLATE Huffman code")
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                       4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    private mutating func codes(_ lengths: Huffman, _ distances: Huffman) throws(Failure) {
        while true {
            let symbol = try decode(lengths)
            if symbol < 256 {
                guard output.count < limit else { throw Failure(description: "DEFLATE output exceeds \(limit) bytes") }
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < Self.lengthBase.count else { throw Failure(description: "invalid DEFLATE length code") }
                let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
                let distanceCode = try decode(distances)
                guard distanceCode < Self.distanceBase.count else { throw Failure(description: "invalid DEFLATE distance code") }
                let distance = Self.distanceBase[distanceCode] + (try bits(Self.distanceExtra[distanceCode]))
                guard distance <= output.count, output.count + length <= limit else {
                    throw Failure(description: "invalid DEFLATE back-reference")
                }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }

    private mutating func dynamicTables() throws(Failure) -> (Huffman, Huffman) {
        let literalCount = try bits(5) + 257, distanceCount = try bits(5) + 1, codeLengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw Failure(description: "invalid DEFLATE table sizes") }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[order[index]] = try bits(3) }
        let lengthCode = try Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(lengthCode)
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Failure(description: "invalid DEFLATE repeat") }
                lengths += [Int](repeating: previous, count: 3 + (try bits(2)))
            case 17:
                lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
            default:
                lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw Failure(description: "invalid DEFLATE code lengths") }
        return (try Huffman(lengths: Array(lengths[..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...])))
    }
}
