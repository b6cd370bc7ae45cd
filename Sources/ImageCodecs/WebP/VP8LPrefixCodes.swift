/// The prefix (Huffman) codes of one VP8L entropy-coded image: every code of
/// every prefix-code group, their decoding tables side by side in one array.
///
/// A table is indexed by the next `rootBits` bits of input (at most 8, fewer
/// for short codes, so the many tiny codes of a file with thousands of groups
/// stay tiny); codes longer than that continue in a subtable. Entry layout:
///
///     bits 16–31   the symbol, or (link) the subtable's offset from the table's start
///     bit 15       link to a subtable
///     bits 8–11    (link) the subtable's index bits
///     bits 0–7     bits to consume (a link: `rootBits`)
///
/// Only complete codes are accepted (and the one-symbol code, which reads no
/// bits), so every entry of every table decodes to a symbol: the hot loop
/// needs no invalid-code test, and a table can never be indexed past its end.
struct VP8LPrefixCodes {
    /// Where one code's table starts, and the mask of the bits that index its root.
    struct Code {
        var offset: Int32
        var rootMask: UInt32

        init(offset: Int, rootBits: Int) {
            self.offset = Int32(offset)
            rootMask = UInt32(1 << rootBits) - 1
        }
    }

    static let linkFlag: UInt32 = 1 << 15
    static let maximumRootBits = 8
    /// Order in which the code-length code's lengths are stored.
    static let codeLengthOrder = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

    private(set) var entries: [UInt32] = []
    private(set) var codes: [Code] = []

    /// Reads one code for an alphabet of `alphabetSize` symbols (section 6.2.1
    /// of the lossless spec) and appends its table when `keep` (a group no
    /// pixel uses is read and checked, then dropped).
    mutating func read(alphabetSize: Int, from reader: inout VP8LBitReader, lengths: inout [UInt8], keep: Bool) throws {
        for i in 0..<alphabetSize { lengths[i] = 0 }
        if reader.readFlag() {
            // Simple code: one or two symbols below 256, each of length 1.
            // A symbol past a smaller alphabet (distances) is dropped, as libwebp does.
            let two = reader.readFlag()
            let first = reader.read(reader.readFlag() ? 8 : 1)
            if first < alphabetSize { lengths[first] = 1 }
            if two {
                let second = reader.read(8)
                if second < alphabetSize { lengths[second] = 1 }
            }
        } else {
            try Self.readCodeLengths(alphabetSize: alphabetSize, from: &reader, into: &lengths)
        }
        if reader.isPastEnd { throw WebPError.truncated("inside a prefix code") }
        let code = try Self.build(lengths: lengths[0..<alphabetSize], into: &entries, keep: keep)
        if keep { codes.append(code) }
    }

    /// The normal code-length code: a code for the lengths, then the lengths.
    private static func readCodeLengths(alphabetSize: Int, from reader: inout VP8LBitReader, into lengths: inout [UInt8]) throws {
        var lengthLengths = [UInt8](repeating: 0, count: 19)
        let stored = 4 + reader.read(4)
        for i in 0..<stored { lengthLengths[codeLengthOrder[i]] = UInt8(reader.read(3)) }
        var table: [UInt32] = []
        let lengthCode = try build(lengths: lengthLengths[...], into: &table, keep: true)
        var maximumSymbols = alphabetSize
        if reader.readFlag() {
            let bits = 2 + 2 * reader.read(3)
            maximumSymbols = 2 + reader.read(bits)
            guard maximumSymbols <= alphabetSize else {
                throw WebPError.invalidLossless("a prefix code declares \(maximumSymbols) code lengths for an alphabet of \(alphabetSize)")
            }
        }
        var symbol = 0, previous: UInt8 = 8
        try table.withUnsafeBufferPointer { table in
            while symbol < alphabetSize && maximumSymbols > 0 {
                maximumSymbols -= 1
                let value = decode(table.baseAddress!, lengthCode, &reader)
                if value < 16 {
                    lengths[symbol] = UInt8(value)
                    symbol += 1
                    if value != 0 { previous = UInt8(value) }
                    continue
                }
                let repeatCount: Int, length: UInt8
                switch value {
                case 16: repeatCount = 3 + reader.read(2); length = previous
                case 17: repeatCount = 3 + reader.read(3); length = 0
                default: repeatCount = 11 + reader.read(7); length = 0
                }
                guard symbol + repeatCount <= alphabetSize else {
                    throw WebPError.invalidLossless("a prefix code's repeated lengths run past its alphabet of \(alphabetSize)")
                }
                for _ in 0..<repeatCount { lengths[symbol] = length; symbol += 1 }
                if reader.isPastEnd { throw WebPError.truncated("inside a prefix code's lengths") }
            }
        }
    }

    /// Builds the table for `lengths` at the end of `entries` (or only checks
    /// the code when not `keep`). Throws for an empty, over-subscribed or
    /// incomplete set of lengths.
    private static func build(lengths: ArraySlice<UInt8>, into entries: inout [UInt32], keep: Bool) throws -> Code {
        var counts = [Int](repeating: 0, count: 16)
        var used = 0, only = 0, maximumLength = 0
        for (symbol, length) in zip(lengths.indices, lengths) where length > 0 {
            counts[Int(length)] += 1
            used += 1
            only = symbol - lengths.startIndex
            maximumLength = max(maximumLength, Int(length))
        }
        guard used > 0 else { throw WebPError.invalidLossless("a prefix code has no symbols") }
        let start = entries.count
        if used == 1 {
            // One symbol: it takes no bits at all.
            if keep { entries.append(UInt32(only) << 16) }
            return Code(offset: start, rootBits: 0)
        }
        var left = 1
        for length in 1...15 {
            left = left * 2 - counts[length]
            if left < 0 { throw WebPError.invalidLossless("a prefix code's lengths are over-subscribed") }
        }
        if left != 0 { throw WebPError.invalidLossless("a prefix code's lengths are incomplete") }
        guard keep else { return Code(offset: start, rootBits: 0) }

        let rootBits = min(maximumLength, maximumRootBits), rootSize = 1 << rootBits
        // Symbols in canonical order: by length, then by symbol.
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        var sorted = [Int](repeating: 0, count: used)
        for (symbol, length) in zip(lengths.indices, lengths) where length > 0 {
            sorted[offsets[Int(length)]] = symbol - lengths.startIndex
            offsets[Int(length)] += 1
        }
        entries.append(contentsOf: repeatElement(0, count: rootSize))
        var code = 0, next = 0
        for length in 1...rootBits {
            for _ in 0..<counts[length] {
                let entry = UInt32(sorted[next]) << 16 | UInt32(length)
                var slot = Int(HuffmanCode.reverse(UInt16(code), length))
                while slot < rootSize {
                    entries[start + slot] = entry
                    slot += 1 << length
                }
                next += 1
                code += 1
            }
            code <<= 1
        }
        var remaining = counts
        var subtablePrefix = -1, subtableStart = 0, subtableBits = 0
        if rootBits < 15 {
            for length in rootBits + 1..<16 {
                for _ in 0..<counts[length] {
                    let reversed = Int(HuffmanCode.reverse(UInt16(code), length))
                    let prefix = reversed & (rootSize - 1)
                    if prefix != subtablePrefix {
                        // A new subtable for the codes that share these first bits.
                        subtableBits = HuffmanCode.subtableBits(firstLength: length, rootBits: rootBits) { remaining[$0] }
                        subtablePrefix = prefix
                        subtableStart = entries.count - start
                        entries.append(contentsOf: repeatElement(0, count: 1 << subtableBits))
                        entries[start + prefix] = UInt32(subtableStart) << 16 | linkFlag | UInt32(subtableBits) << 8 | UInt32(rootBits)
                    }
                    let entry = UInt32(sorted[next]) << 16 | UInt32(length - rootBits)
                    var slot = reversed >> rootBits
                    while slot < 1 << subtableBits {
                        entries[start + subtableStart + slot] = entry
                        slot += 1 << (length - rootBits)
                    }
                    remaining[length] -= 1
                    next += 1
                    code += 1
                }
                code <<= 1
            }
        }
        return Code(offset: start, rootBits: rootBits)
    }

    /// The next symbol of `code`, whose table is in `entries`.
    @inline(__always)
    static func decode(_ entries: UnsafePointer<UInt32>, _ code: Code, _ reader: inout VP8LBitReader) -> Int {
        reader.refill()
        let table = entries + Int(truncatingIfNeeded: code.offset)
        var entry = table[Int(truncatingIfNeeded: reader.window & UInt64(code.rootMask))]
        if entry & linkFlag != 0 {
            reader.consume(Int(truncatingIfNeeded: entry & 0xFF))
            let index = reader.window & ((1 &<< UInt64(truncatingIfNeeded: entry >> 8 & 0xF)) &- 1)
            entry = table[Int(truncatingIfNeeded: entry >> 16) &+ Int(truncatingIfNeeded: index)]
        }
        reader.consume(Int(truncatingIfNeeded: entry & 0xFF))
        return Int(truncatingIfNeeded: entry >> 16)
    }
}
