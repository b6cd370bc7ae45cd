/// Undoes a GIF image's LZW compression straight into palette indices: codes
/// of 3 to 12 bits, least significant bit first, a table that stops growing at
/// 4096 entries (the encoder may go on with the full table until it sends a
/// clear code, the "deferred clear"), and never a write past the output.
///
/// Each string is written back to front from its last byte, following the
/// prefix chain, so a code costs one pass over its string; the table keeps
/// each entry's length and first byte for that.
struct GIFLZWDecoder: Sendable {
    /// The table's bound: 12-bit codes.
    static let maximumCodeCount = 4096

    private var prefix = [UInt16](repeating: 0, count: maximumCodeCount)
    private var suffix = [UInt8](repeating: 0, count: maximumCodeCount)
    private var first = [UInt8](repeating: 0, count: maximumCodeCount)
    private var length = [UInt16](repeating: 0, count: maximumCodeCount)

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
        return try prefix.withUnsafeMutableBufferPointer { prefix in
            try suffix.withUnsafeMutableBufferPointer { suffix in
                try first.withUnsafeMutableBufferPointer { first in
                    try length.withUnsafeMutableBufferPointer { length in
                        for code in 0..<clear {
                            suffix[code] = UInt8(truncatingIfNeeded: code)
                            first[code] = UInt8(truncatingIfNeeded: code)
                            length[code] = 1
                        }
                        var next = clear + 2, codeSize = minimumCodeSize + 1, mask = (1 << codeSize) - 1
                        var previous = -1
                        var bitBuffer: UInt64 = 0, bitCount = 0, input = 0
                        var written = 0
                        let capacity = output.count
                        guard let out = output.baseAddress, capacity > 0 else { return (0, .finished) }
                        while true {
                            // Refill: whole bytes until a code's bits are there.
                            while bitCount < codeSize {
                                guard input < data.count else { return (written, .dataEnded) }
                                bitBuffer |= UInt64(data[input]) << UInt64(bitCount)
                                input += 1
                                bitCount += 8
                            }
                            let code = Int(bitBuffer & UInt64(mask))
                            bitBuffer >>= UInt64(codeSize)
                            bitCount -= codeSize

                            if code == clear {
                                next = clear + 2
                                codeSize = minimumCodeSize + 1
                                mask = (1 << codeSize) - 1
                                previous = -1
                                continue
                            }
                            if code == end { return (written, .finished) }

                            // The string `code` stands for: a table entry, or (the
                            // one code not in the table yet) the previous string
                            // plus its own first byte.
                            let stringCode: Int, extra: Int
                            if code < next && (previous >= 0 || code < clear) {
                                stringCode = code
                                extra = 0
                            } else if code == next && previous >= 0 {
                                stringCode = previous
                                extra = 1
                            } else {
                                throw GIFError.badLZWCode(code: code, next: next, frame: frame)
                            }
                            let count = Int(length[stringCode])
                            let room = capacity - written
                            if count + extra <= room {
                                var k = stringCode, p = written + count - 1
                                while p > written {
                                    out[p] = suffix[k]
                                    k = Int(prefix[k])
                                    p -= 1
                                }
                                out[written] = first[stringCode]
                                if extra == 1 { out[written + count] = first[stringCode] }
                            } else {
                                // The last string overruns the image: keep the bytes that fit.
                                var k = stringCode, p = count - 1
                                if extra == 1, count < room { out[written + count] = first[stringCode] }
                                while p >= 0 {
                                    if p < room { out[written + p] = suffix[k] }
                                    k = Int(prefix[k])
                                    p -= 1
                                }
                                return (capacity, .finished)
                            }
                            written += count + extra

                            if previous >= 0 && next < Self.maximumCodeCount {
                                prefix[next] = UInt16(previous)
                                suffix[next] = first[stringCode]
                                first[next] = first[previous]
                                length[next] = length[previous] &+ 1
                                next += 1
                                if next > mask && codeSize < 12 {
                                    codeSize += 1
                                    mask = (1 << codeSize) - 1
                                }
                            }
                            previous = code
                            if written == capacity { return (written, .finished) }
                        }
                    }
                }
            }
        }
    }
}
