/// Reads the entropy-coded bits of a scan: removes FF 00 stuffing, stops at
/// markers, and keeps up to 64 bits buffered (left-aligned) so Huffman lookups
/// and coefficient bits rarely touch memory.
///
/// Past a marker or the end of the data it feeds zero bytes, so the 64-bit
/// lookahead can fill at the end of a scan or restart interval; a valid scan
/// consumes at most a few bits of them. A scan that keeps reading after its
/// data ran out is truncated or corrupt and throws, rather than decoding the
/// rest of the picture as grey the way libjpeg does with a warning.
struct JPEGBitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Next byte to load into `buffer`; never moves past a marker.
    var position: Int
    var buffer: UInt64 = 0
    var bitCount: Int = 0
    /// Zero bytes fed past a marker or the end of data since the scan or interval began.
    var paddingBytes = 0

    /// The most zero padding tolerated per scan or restart interval: the
    /// lookahead needs 8 bytes; beyond 64 the decoder is inventing data.
    static let maximumPadding = 64

    /// The part of the reader a hot loop keeps in registers.
    struct State {
        var buffer: UInt64
        var bitCount: Int
        var position: Int
    }

    /// The buffer, bit count and position as one value.
    var state: State {
        get { State(buffer: buffer, bitCount: bitCount, position: position) }
        set { buffer = newValue.buffer; bitCount = newValue.bitCount; position = newValue.position }
    }

    init(bytes: UnsafeBufferPointer<UInt8>, position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// Fills the buffer to at least 16 bits (to 57 or more unless an 0xFF
    /// byte is near), what every reader of at most 16 bits at a time needs.
    @inline(__always)
    mutating func refill() throws {
        if JPEGBitReader.refillWhole(bytes, &position, &buffer, &bitCount) { return }
        try refillBytewise()
    }

    /// The common case of `refill` on plain values, so hot loops can keep the
    /// reader's state in registers: when the next eight bytes lie inside the
    /// data, takes as many of them as fit whole (at least 57 bits then
    /// buffered) in one load, or, when one is 0xFF (stuffing or a marker),
    /// the bytes before it if that leaves at least 16 bits buffered (what
    /// every caller needs at most). Returns false, changing nothing, when the
    /// checked byte-by-byte path is needed.
    @inline(__always)
    static func refillWhole(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int,
                            _ buffer: inout UInt64, _ bitCount: inout Int) -> Bool {
        guard position >= 0, position &+ 8 <= bytes.count, let base = bytes.baseAddress else { return false }
        let word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
        var taken = (64 &- bitCount) &>> 3     // whole bytes that fit: 1...8 for bitCount 0...56
        // Flags the bytes of `word` that are 0xFF (the classic "has a zero
        // byte" test on ~word). A borrow can also flag the byte just before a
        // true one, never one before the first true one: the bytes before the
        // first flag never hold 0xFF.
        let marks = (~word &- 0x0101_0101_0101_0101) & word & 0x8080_8080_8080_8080
        if marks != 0 {
            taken = min(taken, marks.leadingZeroBitCount &>> 3)
            guard bitCount &+ 8 &* taken >= 16 else { return false }
        }
        guard taken > 0 else { return true }
        let bits = 8 &* taken
        buffer |= (word &>> UInt64(64 &- bits)) &<< UInt64(64 &- bitCount &- bits)
        position &+= taken
        bitCount &+= bits
        return true
    }

    /// `refill` one byte at a time: unstuffs FF 00, stops at a marker and
    /// counts the zero padding fed past it.
    @inline(never)
    mutating func refillBytewise() throws {
        while bitCount <= 56 {
            var byte: UInt8 = 0
            if position < bytes.count {
                byte = bytes[position]
                if byte == 0xFF {
                    let next: UInt8 = position + 1 < bytes.count ? bytes[position + 1] : 0xD9
                    if next == 0 {
                        position += 2
                    } else {
                        byte = 0
                        paddingBytes += 1
                    }
                } else {
                    position += 1
                }
            } else {
                paddingBytes += 1
            }
            buffer |= UInt64(byte) << UInt64(56 - bitCount)
            bitCount += 8
        }
        if paddingBytes > JPEGBitReader.maximumPadding {
            throw JPEGError.truncated("entropy-coded scan data")
        }
    }

    /// Decodes one Huffman symbol.
    @inline(__always)
    mutating func decode(_ table: JPEGHuffmanTable.Lookup) throws -> Int {
        if bitCount < 16 { try refill() }
        let entry = Int(table.fast[Int(buffer >> UInt64(64 - JPEGHuffmanTable.lookupBits))])
        if entry != 0 {
            let length = entry >> 8
            buffer <<= UInt64(length)
            bitCount -= length
            return entry & 0xFF
        }
        let (symbol, length) = try JPEGBitReader.decodeLong(buffer, table)
        buffer <<= UInt64(length)
        bitCount -= length
        return symbol
    }

    /// The symbol whose code is at the top of `buffer` (at least 16 bits
    /// buffered) and its code length. Static, so callers keep their reader's
    /// state in registers.
    @inline(__always)
    static func symbol(_ buffer: UInt64, _ table: JPEGHuffmanTable.Lookup) throws -> (symbol: Int, length: Int) {
        let entry = Int(table.fast[Int(buffer &>> UInt64(64 - JPEGHuffmanTable.lookupBits))])
        if entry != 0 { return (entry & 0xFF, entry >> 8) }
        return try decodeLong(buffer, table)
    }

    /// A code longer than the lookahead table: the symbol and code length at
    /// the top of `buffer`. Static, so callers keep their reader in registers.
    @inline(never)
    private static func decodeLong(_ buffer: UInt64, _ table: JPEGHuffmanTable.Lookup) throws -> (symbol: Int, length: Int) {
        var length = JPEGHuffmanTable.lookupBits + 1
        var code = Int32(truncatingIfNeeded: buffer >> UInt64(64 - length))
        while length <= 16 && code > table.maxCode[length] {
            length += 1
            code = Int32(truncatingIfNeeded: buffer >> UInt64(64 - length))
        }
        guard length <= 16 else { throw JPEGError.corruptScan("invalid Huffman code") }
        let index = Int(code + table.valueOffset[length])
        guard index >= 0 && index < 256 else { throw JPEGError.corruptScan("invalid Huffman code") }
        return (Int(table.symbols[index]), length)
    }

    /// Reads `count` (0...16) raw bits.
    @inline(__always)
    mutating func bits(_ count: Int) throws -> Int {
        if count == 0 { return 0 }
        if bitCount < count { try refill() }
        let value = Int(buffer >> UInt64(64 - count))
        buffer <<= UInt64(count)
        bitCount -= count
        return value
    }

    /// Reads one bit.
    @inline(__always)
    mutating func bit() throws -> Int {
        try bits(1)
    }

    /// Reads `count` (0...16) bits and sign-extends them as JPEG's EXTEND does.
    @inline(__always)
    mutating func receiveExtend(_ count: Int) throws -> Int {
        if count == 0 { return 0 }
        let value = try bits(count)
        return value < (1 << (count - 1)) ? value - (1 << count) + 1 : value
    }

    /// Throws when the decoder has used more than a byte of the zero padding:
    /// a valid scan or interval ends exactly where its data does (its last
    /// byte padded with ones), so more means the data was cut short. Keeps
    /// each block's cost in real bytes, restart markers or not.
    mutating func checkPaddingUse() throws {
        if paddingBytes * 8 - bitCount > 8 { throw JPEGError.truncated("entropy-coded scan data") }
    }

    /// Throws when the decoder has used any of the zero padding: for a scan
    /// whose data runs to the end of the file (no marker after it), where
    /// the byte of slack `checkPaddingUse` allows is not enough. The bits of
    /// a complete scan all lie before the cut; a cut that removes even one of
    /// them leaves the last blocks decoding from padding, which can take only
    /// a few bits (an all-zero code may be a short end-of-block), so only
    /// "none used" tells a whole scan from a cut one.
    mutating func checkNoPaddingUsed() throws {
        if paddingBytes * 8 > bitCount { throw JPEGError.truncated("entropy-coded scan data") }
    }

    /// Discards buffered bits and consumes the expected RSTn marker.
    mutating func restart(expected index: Int) throws {
        try checkPaddingUse()
        buffer = 0
        bitCount = 0
        paddingBytes = 0
        guard position + 1 < bytes.count else { throw JPEGError.truncated("entropy-coded scan data before RST\(index & 7)") }
        guard bytes[position] == 0xFF,
              bytes[position + 1] == UInt8(0xD0 + (index & 7)) else {
            throw JPEGError.corruptScan("missing restart marker RST\(index & 7)")
        }
        position += 2
    }
}
