/// A Huffman decoding table for inflate, laid out so the hot loop resolves a
/// symbol with one lookup: `1 << primaryBits` entries indexed by the next
/// input bits, then subtables for the few longer codes. Each 32-bit entry says
/// at once what the symbol means (a literal byte, a length or distance base
/// with its extra-bit count, end of block, a reserved symbol) and how many
/// bits to consume, so no second table is read per symbol.
///
/// Entry layout, literals (bit 31 set):
///
///     bits 24–25   how many literals: 1, or 2 when a second literal's code
///                  fits in the primary index bits after the first
///     bits 16–23   the second literal
///     bits 8–15    the (first) literal
///     bits 0–7     bits to consume
///
/// every other entry (bit 31 clear):
///
///     bits 16–30   value: length or distance base, code-length symbol,
///                  reserved symbol, or a subtable's offset
///     bit 15       link to a subtable
///     bit 14       end of block
///     bit 13       invalid: a reserved symbol, or a bit pattern that is no code
///     bits 8–11    code length, where the extra bits start (a link: the subtable's index bits)
///     bits 0–7     bits to consume, code and extra bits (a link: `primaryBits`)
///
/// Subtable entries hold the full code length, so an entry is always applied
/// to the bit buffer as it was before the lookup. Decoding two literals with
/// one lookup halves the serial chain (lookup, shift, lookup) that bounds a
/// literal-heavy stream, such as a photo's pixels.
struct InflateHuffman {
    /// What a table's symbols mean.
    enum Kind {
        /// Literal bytes, end of block and match lengths (symbols 0–287).
        case literalLength
        /// Match distances (symbols 0–31).
        case distance
        /// The code-length alphabet of a dynamic block header (symbols 0–18).
        case codeLength

        /// Index bits of the primary table: libdeflate's choice for the first
        /// two (8 KiB and 1 KiB tables that stay in L1, with few subtables);
        /// code-length codes are at most 7 bits, so they never need one.
        var primaryBits: Int {
            switch self {
            case .literalLength: return 11
            case .distance: return 8
            case .codeLength: return 7
            }
        }
    }

    static let literalFlag: UInt32 = 1 << 31
    static let linkFlag: UInt32 = 1 << 15
    static let endOfBlockFlag: UInt32 = 1 << 14
    static let invalidFlag: UInt32 = 1 << 13
    /// Any entry that is neither a literal nor a plain length or distance
    /// (meaningful only once the literal flag is known to be clear).
    static let exceptionalFlags: UInt32 = linkFlag | endOfBlockFlag | invalidFlag
    /// The value of an invalid entry that no code reaches (incomplete code sets).
    static let noCode: UInt32 = 0x7FFF

    /// The primary table followed by the subtables.
    private(set) var entries: [UInt32]
    let primaryBits: Int

    /// Builds the table, refusing over-subscribed code sets and incomplete ones
    /// (but for the one-code case RFC 1951 permits for distances).
    init(lengths: ArraySlice<UInt8>, kind: Kind, name: String) throws {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left = left * 2 - counts[length]
            if left < 0 { throw InflateError.corrupt("\(name) code lengths are over-subscribed") }
        }
        let used = counts.reduce(0, +)
        if left > 0 && used > 1 { throw InflateError.corrupt("\(name) code lengths are incomplete") }

        // Symbols in canonical order: by code length, then by symbol.
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        var sorted = [Int](repeating: 0, count: used)
        for (symbol, length) in zip(lengths.indices, lengths) where length > 0 {
            sorted[offsets[Int(length)]] = symbol - lengths.startIndex
            offsets[Int(length)] += 1
        }

        let primaryBits = kind.primaryBits, primarySize = 1 << primaryBits
        let empty = Self.invalidFlag | Self.noCode << 16
        var entries = [UInt32](repeating: empty, count: primarySize)
        var remaining = counts  // codes of each length not yet placed: sizes the subtables
        var code = 0, next = 0
        var subtablePrefix = -1, subtableStart = 0, subtableBits = 0
        for length in 1...15 {
            for _ in 0..<counts[length] {
                let entry = Self.entry(symbol: sorted[next], codeLength: length, kind: kind)
                next += 1
                let reversed = Int(HuffmanCode.reverse(UInt16(code), length))
                if length <= primaryBits {
                    // Every primary slot whose low `length` bits are this code.
                    var slot = reversed
                    while slot < primarySize {
                        entries[slot] = entry
                        slot += 1 << length
                    }
                } else {
                    let prefix = reversed & (primarySize - 1)
                    if prefix != subtablePrefix {
                        // A new subtable for the codes that share these first
                        // bits: canonical order places them together, and it
                        // needs as many index bits as the longest of them has
                        // beyond `primaryBits` (zlib's inflate_table sizing).
                        subtableBits = length - primaryBits
                        var free = (1 << subtableBits) - remaining[length]
                        while free > 0 && primaryBits + subtableBits < 15 {
                            subtableBits += 1
                            free = free * 2 - remaining[primaryBits + subtableBits]
                        }
                        subtablePrefix = prefix
                        subtableStart = entries.count
                        entries.append(contentsOf: repeatElement(empty, count: 1 << subtableBits))
                        entries[prefix] = Self.linkFlag | UInt32(subtableStart) << 16 | UInt32(subtableBits) << 8 | UInt32(primaryBits)
                    }
                    var slot = reversed >> primaryBits
                    while slot < 1 << subtableBits {
                        entries[subtableStart + slot] = entry
                        slot += 1 << (length - primaryBits)
                    }
                }
                remaining[length] -= 1
                code += 1
            }
            code <<= 1
        }
        if kind == .literalLength { Self.pairLiterals(&entries, primaryBits: primaryBits) }
        self.entries = entries
        self.primaryBits = primaryBits
    }

    /// Makes each primary literal entry whose code leaves room for a second
    /// literal's whole code in the index bits a two-literal entry. Slots are
    /// visited from the top: the second code's slot, `index >> firstLength`,
    /// is lower, so it still holds a single literal when read.
    private static func pairLiterals(_ entries: inout [UInt32], primaryBits: Int) {
        entries.withUnsafeMutableBufferPointer { table in
            var index = (1 << primaryBits) - 1
            while index >= 0 {
                let first = table[index]
                let firstLength = first & 0xFF
                if first & literalFlag != 0 && firstLength < primaryBits {
                    let second = table[index >> firstLength]
                    let total = firstLength + (second & 0xFF)
                    if second & literalFlag != 0 && total <= primaryBits {
                        table[index] = literalFlag | 2 << 24 | (second & 0xFF00) << 8 | (first & 0xFF00) | total
                    }
                }
                index -= 1
            }
        }
    }

    /// The entry for `symbol` with a code of `codeLength` bits.
    private static func entry(symbol: Int, codeLength: Int, kind: Kind) -> UInt32 {
        let length = UInt32(codeLength)
        switch kind {
        case .literalLength:
            if symbol < 256 { return literalFlag | 1 << 24 | UInt32(symbol) << 8 | length }
            if symbol == 256 { return endOfBlockFlag | length << 8 | length }
            if symbol > 285 { return invalidFlag | UInt32(symbol) << 16 | length << 8 | length }
            let index = symbol - 257
            return UInt32(DeflateTables.lengthBase[index]) << 16 | length << 8 | (length + UInt32(DeflateTables.lengthExtra[index]))
        case .distance:
            if symbol > 29 { return invalidFlag | UInt32(symbol) << 16 | length << 8 | length }
            return UInt32(DeflateTables.distanceBase[symbol]) << 16 | length << 8 | (length + UInt32(DeflateTables.distanceExtra[symbol]))
        case .codeLength:
            return UInt32(symbol) << 16 | length << 8 | length
        }
    }

    /// The entry for the code at the bottom of `bits` (which must hold every
    /// bit the code and its extra bits take; past the input's end, zeros),
    /// following a link into its subtable.
    @inline(__always)
    static func lookup(_ table: UnsafePointer<UInt32>, primaryMask: UInt64, _ bits: UInt64) -> UInt32 {
        let entry = table[Int(truncatingIfNeeded: bits & primaryMask)]
        guard entry & (literalFlag | linkFlag) == linkFlag else { return entry }
        let index = (bits &>> UInt64(entry & 0xFF)) & ((1 &<< UInt64(entry >> 8 & 0xF)) &- 1)
        return table[Int(truncatingIfNeeded: entry >> 16) &+ Int(truncatingIfNeeded: index)]
    }

    /// The base plus extra bits of a length or distance entry, read from `bits`
    /// as they were before the entry was consumed.
    @inline(__always)
    static func value(_ entry: UInt32, _ bits: UInt64) -> Int {
        let extra = (bits & ((1 &<< UInt64(entry & 0xFF)) &- 1)) &>> UInt64(entry >> 8 & 0xF)
        return Int(truncatingIfNeeded: entry >> 16 & 0x7FFF) &+ Int(truncatingIfNeeded: extra)
    }

    /// Why an invalid entry cannot be decoded.
    static func invalidSymbolError(_ entry: UInt32, name: String) -> InflateError {
        let symbol = entry >> 16 & 0x7FFF
        if symbol == noCode { return .corrupt("a bit pattern that is no \(name) code") }
        return .corrupt("\(name) symbol \(symbol) is reserved")
    }

    /// Decodes one symbol of a code-length table (dynamic block headers).
    func decodeCodeLength(_ reader: inout InflateBitReader) throws -> Int {
        try reader.ensure(7)
        let entry = entries.withUnsafeBufferPointer {
            Self.lookup($0.baseAddress!, primaryMask: UInt64(1 << primaryBits) - 1, reader.buffer)
        }
        guard entry & Self.invalidFlag == 0 else { throw Self.invalidSymbolError(entry, name: "code-length") }
        reader.consume(Int(entry & 0xFF))
        return Int(entry >> 16)
    }
}
