/// A Huffman decoding table for inflate: one lookup of `primaryBits` bits
/// resolves every code that short (nearly all symbols in practice); longer
/// codes finish with the canonical-code walk over per-length counts.
struct InflateHuffman {
    static let primaryBits = 10
    /// `symbol << 4 | length` for codes of ≤ `primaryBits` bits; 0 marks a longer code.
    private(set) var primary: [UInt16]
    /// Codes per length 0…15 and the symbols in canonical order, for the long path.
    private var counts: [UInt16]
    private var symbols: [UInt16]

    /// Builds the table, refusing over-subscribed code sets and incomplete ones
    /// (but for the one-code case RFC 1951 permits for distances).
    init(lengths: ArraySlice<UInt8>, name: String) throws {
        var counts = [UInt16](repeating: 0, count: 16)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left = left * 2 - Int(counts[length])
            if left < 0 { throw InflateError.corrupt("\(name) code lengths are over-subscribed") }
        }
        let used = counts.reduce(0) { $0 + Int($1) }
        if left > 0 && used > 1 { throw InflateError.corrupt("\(name) code lengths are incomplete") }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + Int(counts[length]) }
        var symbols = [UInt16](repeating: 0, count: lengths.count)
        var primary = [UInt16](repeating: 0, count: 1 << Self.primaryBits)
        // First code of each length (RFC 1951 §3.2.2).
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1...15 {
            code = (code + Int(counts[bits - 1])) << 1
            nextCode[bits] = code
        }
        for (offset, length) in lengths.enumerated() where length > 0 {
            let symbol = offset
            symbols[offsets[Int(length)]] = UInt16(symbol)
            offsets[Int(length)] += 1
            let value = nextCode[Int(length)]
            nextCode[Int(length)] += 1
            if Int(length) <= Self.primaryBits {
                // Fill every primary slot whose low `length` bits are this code, reversed.
                let reversed = Int(HuffmanCode.reverse(UInt16(value), Int(length)))
                var slot = reversed
                while slot < 1 << Self.primaryBits {
                    primary[slot] = UInt16(symbol) << 4 | UInt16(length)
                    slot += 1 << Int(length)
                }
            }
        }
        self.primary = primary
        self.counts = counts
        self.symbols = symbols
    }

    /// Decodes one symbol. Throws for bit patterns that are no code.
    @inline(__always)
    func decode(_ reader: inout InflateBitReader) throws -> Int {
        try reader.ensure(15)
        return try decodeBuffered(&reader)
    }

    /// Decodes one symbol when at least 15 bits are already buffered.
    @inline(__always)
    func decodeBuffered(_ reader: inout InflateBitReader) throws -> Int {
        let entry = primary[Int(reader.peek(Self.primaryBits))]
        if entry != 0 {
            reader.consume(Int(entry & 15))
            return Int(entry >> 4)
        }
        // A code longer than the primary table: walk the canonical code.
        var code = 0, first = 0, index = 0
        for length in 1...15 {
            code |= Int(reader.peek(length) >> (length - 1)) & 1
            let count = Int(counts[length])
            if code - first < count {
                reader.consume(length)
                return Int(symbols[index + code - first])
            }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw InflateError.corrupt("a bit pattern that is no code")
    }
}
