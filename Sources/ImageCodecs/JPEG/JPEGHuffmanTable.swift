/// A Huffman decoding table from a DHT segment, with a 10-bit lookahead table so
/// most symbols decode with one lookup.
///
/// Storage is manually allocated so the scan decoder's hot loop reads it
/// without array bounds checks or copy-on-write checks.
final class JPEGHuffmanTable {
    /// Bits looked up at once by `fast` and `fastValue` (10: measured 10 % faster
    /// than 9 on a q90 photo; 11 gained nothing more).
    static let lookupBits = 10
    /// Indexed by the next 10 bits: `(codeLength << 8) | symbol`, or 0 when the
    /// code is longer than 10 bits.
    let fast: UnsafeMutablePointer<UInt16>
    /// Indexed by the next 10 bits, for a symbol `(run << 4) | size` with
    /// `size > 0` whose code and extra bits together fit in 10 bits: the whole
    /// coefficient at once, `(value << 16) | (run << 8) | (codeLength + size)`;
    /// for symbol 0 (AC end of block, DC zero difference) `(0xFF << 8) | codeLength`;
    /// 0 otherwise. Most AC coefficients of a photo decode with this one lookup.
    let fastValue: UnsafeMutablePointer<Int32>
    /// For each code length 1...16: the largest code of that length (-1 if none).
    let maxCode: UnsafeMutablePointer<Int32>
    /// For each code length: index into `symbols` minus the first code of that length.
    let valueOffset: UnsafeMutablePointer<Int32>
    /// The symbols in code order (256 slots, unused ones zero).
    let symbols: UnsafeMutablePointer<UInt8>

    /// Builds the table from the 16 code-length counts and the symbols of a DHT entry.
    /// Throws when the counts over-subscribe the code space or the symbol count is wrong.
    init(counts: [Int], symbols values: [UInt8]) throws {
        fast = .allocate(capacity: 1 << JPEGHuffmanTable.lookupBits)
        fast.initialize(repeating: 0, count: 1 << JPEGHuffmanTable.lookupBits)
        fastValue = .allocate(capacity: 1 << JPEGHuffmanTable.lookupBits)
        fastValue.initialize(repeating: 0, count: 1 << JPEGHuffmanTable.lookupBits)
        maxCode = .allocate(capacity: 18)
        maxCode.initialize(repeating: -1, count: 18)
        valueOffset = .allocate(capacity: 18)
        valueOffset.initialize(repeating: 0, count: 18)
        symbols = .allocate(capacity: 256)
        symbols.initialize(repeating: 0, count: 256)
        guard counts.count == 16, values.count == counts.reduce(0, +), values.count <= 256 else {
            throw JPEGError.invalidSegment("Huffman table symbol count does not match its code lengths")
        }
        for (i, v) in values.enumerated() { symbols[i] = v }
        var code: Int32 = 0
        var k: Int32 = 0
        for length in 1...16 {
            let n = Int32(counts[length - 1])
            valueOffset[length] = k - code
            if n > 0 {
                code += n
                k += n
                maxCode[length] = code - 1
                // Codes of this length must fit in `length` bits.
                guard code <= (Int32(1) << Int32(length)) else {
                    throw JPEGError.invalidSegment("Huffman table code lengths over-subscribe the code space")
                }
                if length <= JPEGHuffmanTable.lookupBits {
                    let shift = JPEGHuffmanTable.lookupBits - length
                    for c in (code - n)..<code {
                        let symbol = UInt16(symbols[Int(c + valueOffset[length])])
                        let base = Int(c) << shift
                        for j in 0..<(1 << shift) {
                            fast[base + j] = UInt16(length << 8) | symbol
                        }
                    }
                }
            }
            code <<= 1
        }
        maxCode[17] = Int32.max  // sentinel: ends the slow search
        buildFastValues()
    }

    private func buildFastValues() {
        let bits = JPEGHuffmanTable.lookupBits
        for peek in 0..<(1 << bits) {
            let entry = Int(fast[peek])
            guard entry != 0 else { continue }
            let length = entry >> 8, symbol = entry & 0xFF
            if symbol == 0 {
                // End of block (AC) or a zero difference (DC): run 0xFF marks it.
                fastValue[peek] = Int32(0xFF << 8 | length)
                continue
            }
            let run = symbol >> 4, size = symbol & 15
            guard size > 0, length + size <= bits else { continue }
            let extra = (peek >> (bits - length - size)) & ((1 << size) - 1)
            let value = extra < (1 << (size - 1)) ? extra - (1 << size) + 1 : extra
            fastValue[peek] = Int32(value) << 16 | Int32(run << 8) | Int32(length + size)
        }
    }

    /// The table's storage as plain pointers: hot loops read tables through
    /// this so they never retain and release the table object per symbol.
    /// Valid while the table is alive (the parser keeps it for the scan).
    struct Lookup {
        let fast: UnsafeMutablePointer<UInt16>
        let fastValue: UnsafeMutablePointer<Int32>
        let maxCode: UnsafeMutablePointer<Int32>
        let valueOffset: UnsafeMutablePointer<Int32>
        let symbols: UnsafeMutablePointer<UInt8>
    }

    var lookup: Lookup {
        Lookup(fast: fast, fastValue: fastValue, maxCode: maxCode, valueOffset: valueOffset, symbols: symbols)
    }

    deinit {
        fast.deallocate()
        fastValue.deallocate()
        maxCode.deallocate()
        valueOffset.deallocate()
        symbols.deallocate()
    }
}
