/// A Huffman decoding table for inflate, laid out so the hot loop resolves a
/// symbol with one lookup: `1 << primaryBits` entries indexed by the next
/// input bits, then subtables for the few longer codes. Each 32-bit entry says
/// at once what the symbol means (a literal byte, a length or distance base
/// with its extra-bit count, end of block, a reserved symbol) and how many
/// bits to consume, so no second table is read per symbol.
///
/// Entry layout:
///
///     bit 31       literal: bits 16–23 hold the byte
///     bits 16–30   value: length or distance base, code-length symbol,
///                  reserved symbol, or a subtable's offset
///     bit 15       link to a subtable
///     bit 14       end of block
///     bit 13       invalid: a reserved symbol, or a bit pattern that is no code
///     bits 8–11    code length, where the extra bits start (a link: the subtable's index bits)
///     bits 0–7     bits to consume, code and extra bits (a link: `primaryBits`)
///
/// Subtable entries hold the full code length, so an entry is always applied
/// to the bit buffer as it was before the lookup.
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
    /// Any entry that is neither a literal nor a plain length or distance.
    static let exceptionalFlags: UInt32 = linkFlag | endOfBlockFlag | invalidFlag
    /// The value of an invalid entry that no code reaches (incomplete code sets).
    static let noCode: UInt32 = 0x7FFF

    /// The primary table followed by the subtables.
    private(set) var entries: [UInt32]
    let primaryBits: Int

    /// Builds the table, refusing over-subscribed code sets and incomplete ones
    /// (but for the one-code case RFC 1951 permits for distances). A dynamic
    /// block builds two, so this works in stack scratch space and fills the
    /// table through a pointer.
    init(lengths: ArraySlice<UInt8>, kind: Kind, name: String) throws {
        let primaryBits = kind.primaryBits, primarySize = 1 << primaryBits
        self.primaryBits = primaryBits
        entries = try withUnsafeTemporaryAllocation(of: Int.self, capacity: 32 + lengths.count) { scratch in
            // counts[0...15], then offsets[16...31], then the symbols in canonical order.
            let counts = scratch.baseAddress!, offsets = counts + 16, sorted = counts + 32
            counts.initialize(repeating: 0, count: 32)
            for length in lengths { counts[Int(length)] += 1 }
            counts[0] = 0
            var left = 1
            for length in 1...15 {
                left = left * 2 - counts[length]
                if left < 0 { throw InflateError.corrupt("\(name) code lengths are over-subscribed") }
            }
            var used = 0, long = 0
            for length in 1...15 {
                used += counts[length]
                if length > primaryBits { long += counts[length] }
            }
            if left > 0 && used > 1 { throw InflateError.corrupt("\(name) code lengths are incomplete") }
            // Symbols in canonical order: by code length, then by symbol.
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            var symbol = 0
            for length in lengths {
                if length > 0 {
                    sorted[offsets[Int(length)]] = symbol
                    offsets[Int(length)] += 1
                }
                symbol += 1
            }
            // Each long code needs at most one subtable of at most 2^(15 − primaryBits) entries.
            let bound = primarySize + long << (15 - primaryBits)
            return [UInt32](unsafeUninitializedCapacity: bound) { table, initialized in
                initialized = Self.fill(table.baseAddress!, counts: counts, sorted: sorted, primaryBits: primaryBits, kind: kind)
            }
        }
    }

    /// Writes the primary table and the subtables; returns the entries used.
    /// `counts` is consumed (it counts the codes of each length not yet placed,
    /// which sizes the subtables).
    private static func fill(_ table: UnsafeMutablePointer<UInt32>, counts: UnsafeMutablePointer<Int>, sorted: UnsafePointer<Int>,
                             primaryBits: Int, kind: Kind) -> Int {
        let primarySize = 1 << primaryBits
        let empty = invalidFlag | noCode << 16
        var code = 0, next = 0
        // Short codes, libdeflate's way: with the codes of each length placed
        // in the first 2^length slots (one slot each), doubling the table
        // repeats every code into all the slots that end in its bits.
        table.initialize(repeating: empty, count: 2)
        for length in 1...primaryBits {
            if length > 1 { (table + (1 << (length - 1))).initialize(from: table, count: 1 << (length - 1)) }
            for _ in 0..<counts[length] {
                table[Int(HuffmanCode.reverse(UInt16(code), length))] = Self.entry(symbol: sorted[next], codeLength: length, kind: kind)
                next += 1
                code += 1
            }
            code <<= 1
        }
        var size = primarySize
        var subtablePrefix = -1, subtableStart = 0, subtableBits = 0
        for length in primaryBits + 1..<16 {
            for _ in 0..<counts[length] {
                let entry = Self.entry(symbol: sorted[next], codeLength: length, kind: kind)
                next += 1
                let reversed = Int(HuffmanCode.reverse(UInt16(code), length))
                let prefix = reversed & (primarySize - 1)
                if prefix != subtablePrefix {
                    // A new subtable for the codes that share these first bits.
                    subtableBits = HuffmanCode.subtableBits(firstLength: length, rootBits: primaryBits) { counts[$0] }
                    subtablePrefix = prefix
                    subtableStart = size
                    (table + size).initialize(repeating: empty, count: 1 << subtableBits)
                    size += 1 << subtableBits
                    table[prefix] = linkFlag | UInt32(subtableStart) << 16 | UInt32(subtableBits) << 8 | UInt32(primaryBits)
                }
                var slot = reversed >> primaryBits
                while slot < 1 << subtableBits {
                    table[subtableStart + slot] = entry
                    slot += 1 << (length - primaryBits)
                }
                counts[length] -= 1
                code += 1
            }
            code <<= 1
        }
        return size
    }

    /// The entry for `symbol` with a code of `codeLength` bits.
    @inline(__always)
    private static func entry(symbol: Int, codeLength: Int, kind: Kind) -> UInt32 {
        let length = UInt32(codeLength)
        switch kind {
        case .literalLength:
            if symbol < 256 { return literalFlag | UInt32(symbol) << 16 | length << 8 | length }
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
        guard entry & linkFlag != 0 else { return entry }
        let index = (bits &>> UInt64(entry & 0xFF)) & ((1 &<< UInt64(entry >> 8 & 0xF)) &- 1)
        return table[Int(truncatingIfNeeded: entry >> 16) &+ Int(truncatingIfNeeded: index)]
    }

    /// The base plus extra bits of a length or distance entry, read from `bits`
    /// as they were before the entry was consumed.
    @inline(__always)
    static func value(_ entry: UInt32, _ bits: UInt64) -> Int {
        let extra = (bits & ((1 &<< UInt64(entry & 0xFF)) &- 1)) &>> UInt64(entry >> 8 & 0xF)
        return Int(truncatingIfNeeded: entry >> 16) &+ Int(truncatingIfNeeded: extra)
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
