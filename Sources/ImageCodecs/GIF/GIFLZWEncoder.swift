/// Compresses a frame's palette indices with GIF's variable-length LZW
/// (GIF89a appendix F): codes start one bit wider than the minimum code
/// size, grow to 12 bits, and a clear code restarts the table when it is
/// full, as the decoders (ours, browsers', gifsicle's) expect. The strings
/// are found through an open-addressed hash of (prefix code, next index), so
/// a table reset costs a 16 KiB clear, not a trie's megabytes.
struct GIFLZWEncoder {
    /// Bits of the smallest code: at least 2, enough for every palette index.
    let minimumCodeSize: Int

    /// An encoder for indices below `1 << minimumCodeSize` (2…8).
    init(minimumCodeSize: Int) {
        self.minimumCodeSize = minimumCodeSize
    }

    /// The minimum code size a palette of `colorCount` entries needs (2…8).
    static func minimumCodeSize(forColorCount colorCount: Int) -> Int {
        var bits = 2
        while 1 << bits < colorCount { bits += 1 }
        return bits
    }

    /// The LZW code stream for `indices` (each below `1 << minimumCodeSize`),
    /// packed least significant bit first, not yet cut into sub-blocks.
    func encode(_ indices: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        let tableSize = 8192  // a power of two above 4096 entries: short probe runs
        var keys = [Int32](repeating: -1, count: tableSize)
        var codes = [Int16](repeating: 0, count: tableSize)
        var output: [UInt8] = []
        output.reserveCapacity(indices.count / 2 + 16)
        var accumulator: UInt32 = 0, bitCount = 0
        var codeSize = minimumCodeSize + 1, next = end + 1

        func emit(_ code: Int) {
            accumulator |= UInt32(code) << UInt32(bitCount)
            bitCount += codeSize
            while bitCount >= 8 {
                output.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                bitCount -= 8
            }
        }

        emit(clear)
        guard var prefix = indices.first.map(Int.init) else {
            emit(end)
            if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: accumulator)) }
            return output
        }
        for position in 1..<indices.count {
            let symbol = Int(indices[position])
            let key = Int32(prefix << 8 | symbol)
            var slot = (prefix << 4 ^ symbol &* 0x9E37) & (tableSize - 1)
            var found = -1
            while keys[slot] != -1 {
                if keys[slot] == key { found = Int(codes[slot]); break }
                slot = (slot + 1) & (tableSize - 1)
            }
            if found >= 0 {
                prefix = found
                continue
            }
            emit(prefix)
            if next < 4096 {
                keys[slot] = key
                codes[slot] = Int16(next)
                // The decoder widens its codes once its table reaches the
                // next power of two; the encoder, one entry ahead, follows.
                if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
                next += 1
            } else {
                emit(clear)
                for index in keys.indices { keys[index] = -1 }
                codeSize = minimumCodeSize + 1
                next = end + 1
            }
            prefix = symbol
        }
        emit(prefix)
        // The decoder adds its entry for this last code before reading the
        // end code, and widens as it would have had the encoder added one.
        if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
        emit(end)
        if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: accumulator)) }
        return output
    }
}
