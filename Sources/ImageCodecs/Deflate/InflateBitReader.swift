/// Reads deflate's LSB-first bits from a byte buffer through a 64-bit
/// accumulator. Past the end it feeds zero bits (so a lookahead near the end
/// is harmless) but counts what was consumed, so a stream that really needed
/// them is reported as truncated instead of decoded from padding.
///
/// The block decoder's fast loop works on copies of `offset`, `buffer` and
/// `count` and refills with `refillFast` while 8 bytes remain to be loaded.
struct InflateBitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to feed into `buffer` (past `bytes.count` once zeros are fed).
    var offset = 0
    /// The buffered bits, next bit lowest. Bits at and above `count` may hold
    /// the low bits of the byte at `offset` (a word refill loads whole bytes
    /// but counts only those that fit); feeding that byte again ORs in the
    /// same bits, so they never corrupt anything.
    var buffer: UInt64 = 0
    /// How many bits of `buffer` are valid (0–63).
    var count = 0
    /// Bits consumed from the start of the input: every byte fed (real or
    /// past-the-end zero) minus the bits still buffered.
    var consumedBits: Int { offset * 8 - count }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Fills `buffer` to 56–63 valid bits with one unaligned 8-byte load at
    /// `next`, which the caller has checked is at least 8 bytes from the end.
    /// Only the low 6 bits of `count` are read, so the fast loop may subtract
    /// whole table entries from it (see `InflateBlockDecoder`).
    @inline(__always)
    static func refillFast(_ buffer: inout UInt64, _ count: inout Int, _ next: inout UnsafePointer<UInt8>) {
        let word = UInt64(littleEndian: UnsafeRawPointer(next).loadUnaligned(as: UInt64.self))
        buffer |= word &<< UInt64(truncatingIfNeeded: count & 63)
        next += (~count & 63) &>> 3  // 63 − count: the whole bytes that fit
        count |= 56
    }

    /// Makes at least `bits` (≤ 56) bits available. Throws once far past the end.
    @inline(__always)
    mutating func ensure(_ bits: Int) throws {
        guard count < bits else { return }
        if offset + 8 <= bytes.count, let base = bytes.baseAddress {
            var next = base + offset
            Self.refillFast(&buffer, &count, &next)
            offset = next - base
            return
        }
        while count < bits {
            if offset < bytes.count {
                buffer |= UInt64(bytes[offset]) << UInt64(count)
            } else if offset >= bytes.count + 8 {
                throw InflateError.truncated
            }
            offset += 1
            count += 8
        }
    }

    @inline(__always)
    func peek(_ bits: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(bits)) - 1))
    }

    @inline(__always)
    mutating func consume(_ bits: Int) {
        buffer >>= UInt64(bits)
        count -= bits
    }

    @inline(__always)
    mutating func bits(_ n: Int) throws -> Int {
        guard n > 0 else { return 0 }
        try ensure(n)
        let value = Int(peek(n))
        consume(n)
        return value
    }

    /// Whether more bits were consumed than the input holds.
    var isPastEnd: Bool { consumedBits > bytes.count * 8 }

    /// The byte after the last bit consumed, rounded up to a byte boundary.
    var nextByte: Int { (consumedBits + 7) / 8 }

    /// Skips to the next byte boundary and copies `n` whole bytes (a stored block's data).
    mutating func copyBytes(_ n: Int, into output: inout InflateOutput) throws {
        let start = nextByte
        guard start <= bytes.count, n <= bytes.count - start else { throw InflateError.truncated }
        try output.append(UnsafeBufferPointer(rebasing: bytes[start..<start + n]))
        offset = start + n
        buffer = 0
        count = 0
    }
}
