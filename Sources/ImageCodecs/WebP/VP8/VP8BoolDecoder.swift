/// The boolean entropy decoder of RFC 6386 section 7: every field of a VP8
/// frame after the first ten bytes is a sequence of bits, each read with its
/// own probability (out of 256) of being zero.
///
/// The window is 64 bits wide and refilled seven bytes at a time, so most
/// reads are a multiply, a compare and a shift. `range` is kept minus one
/// (127...254) as libwebp keeps it, which makes the split a single multiply.
///
/// Past the end of its partition the decoder reads zero bits, as libwebp does:
/// the first refill past the end shifts in one zero byte and sets `isPastEnd`;
/// later ones add nothing. libwebp (and so `dwebp`) then refuses the frame
/// ("premature end of file"); the frame decoder checks `isPastEnd` after each
/// macroblock row and does the same, so a truncated stream is an error, never
/// a picture made of guessed bits, and a corrupt one costs at most one row.
struct VP8BoolDecoder {
    /// Unread bits; the top `bits + 8` of them are the current window.
    private var value: UInt64 = 0
    /// Bits in `value` below the 8-bit window; negative means refill first.
    private var bits = -8
    /// The interval's size minus one.
    private var range: UInt32 = 255 - 1
    private let start: UnsafePointer<UInt8>?
    private var position = 0
    private let count: Int
    /// True once a read needed bits beyond the partition's last byte.
    private(set) var isPastEnd = false

    /// A decoder over `bytes`, which must stay valid while it is used.
    init(_ bytes: UnsafeRawBufferPointer) {
        start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        count = bytes.count
        refill()
    }

    /// Adds bits to the window: seven bytes while eight remain (one 64-bit
    /// load), then byte by byte, then one zero byte, then nothing.
    @inline(__always)
    private mutating func refill() {
        if let start, count - position >= 8 {
            let word = UInt64(bigEndian: UnsafeRawPointer(start + position).loadUnaligned(as: UInt64.self))
            position += 7
            value = value << 56 | word >> 8
            bits += 56
        } else {
            refillSlowly()
        }
    }

    private mutating func refillSlowly() {
        if let start, position < count {
            value = value << 8 | UInt64(start[position])
            position += 1
            bits += 8
        } else if !isPastEnd {
            value <<= 8
            bits += 8
            isPastEnd = true
        } else {
            bits = 0
        }
    }

    /// One bit that is zero with probability `probability / 256`.
    @inline(__always)
    mutating func readBit(_ probability: UInt8) -> Bool {
        if bits < 0 { refill() }
        let split = (range &* UInt32(probability)) >> 8
        let window = UInt32(truncatingIfNeeded: value &>> UInt64(bits))
        let bit = window > split
        var newRange: UInt32
        if bit {
            newRange = range &- split
            value &-= UInt64(split &+ 1) &<< UInt64(bits)
        } else {
            newRange = split &+ 1
        }
        // Renormalise so the range is 128...255 again. (Masking shifts: the
        // amounts are in range, and Swift's checked ones cost a branch per bit.)
        let shift = newRange.leadingZeroBitCount &- 24
        newRange &<<= UInt32(shift)
        bits &-= shift
        range = newRange &- 1
        return bit
    }

    /// A coefficient's sign (an even bit; set means negative) applied to
    /// `magnitude`, without a branch: signs are as unpredictable as coin tosses.
    ///
    /// This is libwebp's `VP8GetSigned`, and it is what makes our planes equal
    /// libwebp's: it always shifts one bit, and where `readBit(128)` would not
    /// shift (range 255 and a zero bit, which leaves a range of exactly 128)
    /// it keeps the same interval as 256 one bit further on. The next split is
    /// then computed from that range, as libwebp computes it.
    @inline(__always)
    mutating func readSign(_ magnitude: Int32) -> Int32 {
        if bits < 0 { refill() }
        let split = range >> 1
        let window = UInt32(truncatingIfNeeded: value &>> UInt64(bits))
        let mask = Int32(bitPattern: split &- window) &>> 31  // all ones when the bit is set
        let negative = UInt32(bitPattern: mask)
        value &-= UInt64((split &+ 1) & negative) &<< UInt64(bits)
        bits &-= 1
        range = (range &+ negative) | 1
        return (magnitude ^ mask) &- mask
    }

    /// An even bit (probability one half), as the header's flags are coded.
    @inline(__always)
    mutating func readFlag() -> Bool { readBit(128) }

    /// An unsigned `count`-bit number, most significant bit first.
    mutating func readLiteral(_ count: Int) -> Int {
        var result = 0
        for _ in 0..<count { result = result << 1 | (readFlag() ? 1 : 0) }
        return result
    }

    /// A `count`-bit magnitude followed by a sign bit (set means negative).
    mutating func readSignedLiteral(_ count: Int) -> Int {
        let magnitude = readLiteral(count)
        return readFlag() ? -magnitude : magnitude
    }

    /// A field that may be absent: a flag, then (if set) a signed literal; 0 if absent.
    mutating func readOptionalSigned(_ count: Int) -> Int {
        readFlag() ? readSignedLiteral(count) : 0
    }
}
