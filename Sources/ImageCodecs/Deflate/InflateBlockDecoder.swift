/// Decodes the symbols of one Huffman-coded deflate block (RFC 1951 §3.2.5)
/// into the output: a fast loop while the input and the output have room
/// enough that no step can run past either, and a careful path, one symbol at
/// a time with every bound checked, for the last bytes of each.
///
/// The fast loop follows libdeflate's design: a 64-bit bit buffer refilled
/// with one unaligned 8-byte load, table entries that carry a symbol's meaning
/// and its bit counts at once (`InflateHuffman`), up to two literals per
/// refill, the next entry looked up before the refill so the two overlap, and
/// match copies a word at a time.
/// Every distance is still checked against the output written so far, so a
/// hostile stream fails with `InflateError` the same way on both paths.
enum InflateBlockDecoder {
    /// Input bytes the fast loop keeps in hand: one step refills at most
    /// twice, each loading 8 bytes at most 7 past the previous one.
    static let inputMargin = 16
    /// Output bytes the fast loop keeps in hand: a literal, then a match of
    /// 258 written in whole words (up to 7 bytes past its end).
    static let outputMargin = 1 + 258 + 8

    static let literalMask = UInt64(1 << InflateHuffman.Kind.literalLength.primaryBits) - 1
    static let distanceMask = UInt64(1 << InflateHuffman.Kind.distance.primaryBits) - 1

    static func decode(_ reader: inout InflateBitReader, literal: InflateHuffman, distance: InflateHuffman,
                       into output: inout InflateOutput) throws {
        try literal.entries.withUnsafeBufferPointer { literalTable in
            try distance.entries.withUnsafeBufferPointer { distanceTable in
                let literals = literalTable.baseAddress!, distances = distanceTable.baseAddress!
                while true {
                    if reader.offset + inputMargin <= reader.bytes.count && output.room >= outputMargin {
                        if try fastLoop(&reader, literals, distances, &output) { return }
                    }
                    // One symbol, carefully: 48 bits cover a length code with its
                    // extra bits and a distance code with its extra bits.
                    try reader.ensure(48)
                    let entry = InflateHuffman.lookup(literals, primaryMask: literalMask, reader.buffer)
                    if entry & InflateHuffman.literalFlag != 0 {
                        reader.consume(Int(entry & 0xFF))
                        try output.append(UInt8(truncatingIfNeeded: entry >> 16))
                        continue
                    }
                    if entry & InflateHuffman.endOfBlockFlag != 0 {
                        reader.consume(Int(entry & 0xFF))
                        return
                    }
                    guard entry & InflateHuffman.invalidFlag == 0 else { throw InflateHuffman.invalidSymbolError(entry, name: "literal/length") }
                    let length = InflateHuffman.value(entry, reader.buffer)
                    reader.consume(Int(entry & 0xFF))
                    let match = InflateHuffman.lookup(distances, primaryMask: distanceMask, reader.buffer)
                    guard match & InflateHuffman.invalidFlag == 0 else { throw InflateHuffman.invalidSymbolError(match, name: "distance") }
                    let dist = InflateHuffman.value(match, reader.buffer)
                    reader.consume(Int(match & 0xFF))
                    try output.copyMatch(distance: dist, length: length)
                }
            }
        }
    }

    /// Decodes while `inputMargin` input bytes and `outputMargin` output bytes
    /// remain; returns whether the block ended.
    @inline(__always)
    private static func fastLoop(_ reader: inout InflateBitReader, _ literals: UnsafePointer<UInt32>, _ distances: UnsafePointer<UInt32>,
                                 _ output: inout InflateOutput) throws -> Bool {
        // Everything the loop touches in locals, so it stays in registers.
        var buffer = reader.buffer, count = reader.count
        let input = reader.bytes.baseAddress!, inputEnd = input + (reader.bytes.count - inputMargin)
        var next = input + reader.offset
        let start = output.storage
        var out = start + output.count
        let outEnd = out + (output.room - outputMargin)
        defer {
            reader.buffer = buffer
            reader.count = count & 63
            reader.offset = next - input
            output.commit(upTo: out - start)
        }
        /// Consumes an entry's bits. libdeflate's trick: the shift reads only
        /// the low 6 bits of the entry (its bit count, at most 28), and the
        /// whole entry is subtracted from `count`, whose low 6 bits stay the
        /// true count (never negative, below 64); the bits above are left as
        /// garbage rather than masked off at every symbol.
        @inline(__always) func consume(_ entry: UInt32) {
            buffer &>>= UInt64(entry)
            count &-= Int(entry)
        }
        /// Writes a literal entry's byte.
        @inline(__always) func store(_ entry: UInt32) {
            out.pointee = UInt8(truncatingIfNeeded: entry >> 16)
            out += 1
        }
        /// The primary literal/length entry for the next bits, which must hold
        /// at least its index bits (so it can be looked up before a refill).
        @inline(__always) func lookAhead() -> UInt32 {
            literals[Int(truncatingIfNeeded: buffer & literalMask)]
        }
        InflateBitReader.refillFast(&buffer, &count, &next)
        var entry = lookAhead()
        while next <= inputEnd && out <= outEnd {
            // 56 bits in hand after the refill: two literals of at most 15
            // bits, or one and a length code with its extra bits (at most 20).
            // (A third literal per refill measured no faster: the
            // literal-or-match branch, not the refill, is what costs.)
            InflateBitReader.refillFast(&buffer, &count, &next)
            if entry & InflateHuffman.literalFlag != 0 {
                consume(entry); store(entry)
                entry = lookAhead()
                if entry & InflateHuffman.literalFlag != 0 {
                    consume(entry); store(entry)
                    entry = lookAhead()
                    continue
                }
            }
            if entry & InflateHuffman.exceptionalFlags != 0 {
                if entry & InflateHuffman.linkFlag != 0 {
                    entry = InflateHuffman.lookup(literals, primaryMask: literalMask, buffer)
                    if entry & InflateHuffman.literalFlag != 0 {
                        consume(entry); store(entry)
                        entry = lookAhead()
                        continue
                    }
                }
                if entry & InflateHuffman.endOfBlockFlag != 0 {
                    consume(entry)
                    return true
                }
                if entry & InflateHuffman.invalidFlag != 0 { throw InflateHuffman.invalidSymbolError(entry, name: "literal/length") }
            }
            let length = InflateHuffman.value(entry, buffer)
            consume(entry)
            // A distance code with its extra bits takes up to 28 bits.
            InflateBitReader.refillFast(&buffer, &count, &next)
            let match = InflateHuffman.lookup(distances, primaryMask: distanceMask, buffer)
            if match & InflateHuffman.invalidFlag != 0 { throw InflateHuffman.invalidSymbolError(match, name: "distance") }
            let dist = InflateHuffman.value(match, buffer)
            consume(match)
            entry = lookAhead()
            guard dist <= out - start else {
                throw InflateError.corrupt("distance \(dist) reaches before the start of the output (\(out - start) bytes)")
            }
            copyMatch(to: out, distance: dist, length: length)
            out += length
        }
        return false
    }

    /// Copies a match of `length` (3–258) from `distance` (≥ 1) back, writing up
    /// to 7 bytes past its end (the output margin allows for them).
    @inline(__always)
    private static func copyMatch(to destination: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
        let target = UnsafeMutableRawPointer(destination)
        var source = UnsafeRawPointer(destination.advanced(by: 0 &- distance))
        if distance >= 8 {
            // Each word read lies at least 8 bytes behind the one written, so
            // overlapping matches repeat correctly. Most matches are short:
            // two words without a loop test.
            target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            target.storeBytes(of: (source + 8).loadUnaligned(as: UInt64.self), toByteOffset: 8, as: UInt64.self)
            var i = 16
            source += 16
            while i < length {
                target.storeBytes(of: source.loadUnaligned(as: UInt64.self), toByteOffset: i, as: UInt64.self)
                source += 8
                i &+= 8
            }
        } else {
            // A run with a period of `distance` bytes: its first 8 bytes as one
            // word, stored at steps of the largest multiple of the period that
            // fits in 8 (8, 8, 6, 8, 5, 6, 7), so nothing written is read back.
            let bits = UInt64(truncatingIfNeeded: distance &* 8)
            var pattern = UInt64(littleEndian: source.loadUnaligned(as: UInt64.self)) & ((1 &<< bits) &- 1)
            var shift = bits
            while shift < 64 {
                pattern |= pattern &<< shift
                shift &*= 2
            }
            pattern = pattern.littleEndian
            let step = Int(truncatingIfNeeded: (0x0706_0508_0608_0808 as UInt64) &>> bits & 0xFF)
            var i = 0
            while i < length {
                target.storeBytes(of: pattern, toByteOffset: i, as: UInt64.self)
                i &+= step
            }
        }
    }
}
