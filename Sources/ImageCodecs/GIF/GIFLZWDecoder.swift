/// Undoes a GIF image's LZW compression straight into palette indices: codes
/// of 2 to 12 bits, least significant bit first, a table that stops growing at
/// 4096 entries (the encoder may go on with the full table until it sends a
/// clear code, the "deferred clear"), and never a write past the output.
///
/// A table entry is the previous code's string plus the first byte of the
/// next, and those bytes already sit side by side in the output: so an entry
/// is kept as where its string starts in the output and how long it is, and
/// decoding a code is a forward copy from earlier output, not a walk down a
/// chain of prefixes one dependent load per byte.
struct GIFLZWDecoder: Sendable {
    /// The table's bound: 12-bit codes.
    static let maximumCodeCount = 4096

    /// Where each entry's string starts in the output, and its length.
    private var start = [Int](repeating: 0, count: maximumCodeCount)
    private var length = [Int](repeating: 0, count: maximumCodeCount)

    /// Why decoding stopped.
    enum Outcome: Equatable {
        /// The end code, or the output is full.
        case finished
        /// The data ran out before either.
        case dataEnded
    }

    /// Decodes `data` (the image's sub-blocks joined) into `output` until it
    /// is full, the end code comes or the data runs out; returns how many
    /// indices were written and why it stopped. Literals of a code size above
    /// 8 keep their low byte, as in Chromium. Throws `GIFError.badLZWCode` for
    /// a code the table does not hold yet.
    mutating func decode(_ data: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>,
                         frame: Int) throws -> (count: Int, outcome: Outcome) {
        precondition((1...11).contains(minimumCodeSize))
        let clear = 1 << minimumCodeSize, end = clear + 1
        guard let out = output.baseAddress, output.count > 0 else { return (0, .finished) }
        let capacity = output.count
        return try start.withUnsafeMutableBufferPointer { start in
            try length.withUnsafeMutableBufferPointer { length in
                var next = clear + 2, codeSize = minimumCodeSize + 1, mask = (1 << codeSize) - 1
                // The previous code's string in the output; -1: none since a clear.
                var previousStart = -1, previousLength = 0
                var bitBuffer: UInt64 = 0, bitCount = 0, input = 0
                var written = 0
                while true {
                    // Refill: whole bytes until a code's bits are there.
                    while bitCount < codeSize {
                        guard input < data.count else { return (written, .dataEnded) }
                        bitBuffer |= UInt64(data[input]) << UInt64(bitCount)
                        input += 1
                        bitCount += 8
                    }
                    let code = Int(truncatingIfNeeded: bitBuffer) & mask
                    bitBuffer >>= UInt64(codeSize)
                    bitCount -= codeSize

                    let count: Int
                    if code < clear {
                        out[written] = UInt8(truncatingIfNeeded: code)
                        count = 1
                    } else if code == clear {
                        next = clear + 2
                        codeSize = minimumCodeSize + 1
                        mask = (1 << codeSize) - 1
                        previousStart = -1
                        continue
                    } else if code == end {
                        return (written, .finished)
                    } else if code < next && previousStart >= 0 {
                        // An entry: copy its string from where it was first written.
                        count = length[code]
                        let copied = min(count, capacity - written)
                        Self.copy(out + start[code], to: out + written, count: copied)
                        if copied < count { return (capacity, .finished) }
                    } else if code == next && previousStart >= 0 {
                        // The code being defined: the previous string plus its own first byte.
                        count = previousLength + 1
                        let copied = min(count, capacity - written)
                        Self.copy(out + previousStart, to: out + written, count: min(previousLength, copied))
                        if copied < count { return (capacity, .finished) }
                        out[written + previousLength] = out[previousStart]
                    } else {
                        throw GIFError.badLZWCode(code: code, next: next, frame: frame)
                    }

                    if previousStart >= 0 && next < Self.maximumCodeCount {
                        // The previous string and this one's first byte, side by side in the output.
                        start[next] = previousStart
                        length[next] = previousLength + 1
                        next += 1
                        if next > mask && codeSize < 12 {
                            codeSize += 1
                            mask = (1 << codeSize) - 1
                        }
                    }
                    previousStart = written
                    previousLength = count
                    written += count
                    if written == capacity { return (written, .finished) }
                }
            }
        }
    }

    /// Copies `count` bytes forward from earlier output; the ranges never
    /// overlap (an entry's string ends at or before the write position).
    @inline(__always)
    private static func copy(_ source: UnsafeMutablePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        if count <= 8 {
            for i in 0..<count { target[i] = source[i] }
        } else {
            target.update(from: source, count: count)
        }
    }
}
