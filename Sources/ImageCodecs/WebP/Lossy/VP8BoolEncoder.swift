/// The boolean entropy coder of RFC 6386 section 7, the inverse of
/// `VP8BoolDecoder`: each bit narrows an interval by its probability, and
/// whole bytes leave the low end of the interval as it is renormalised.
///
/// A carry out of the low end can reach bytes already produced; like
/// libwebp's writer, bytes of 0xFF are held back (`pendingFFs`) until the
/// next byte shows whether the carry turns them into 0x00s.
struct VP8BoolEncoder: VP8BitSink {
    private(set) var bytes: [UInt8] = []
    /// The interval's size minus one (127...254 between bits).
    private var range: UInt32 = 255 - 1
    /// The interval's low end; bits above `8 + bitCount` are ready to leave.
    private var low: Int64 = 0
    /// Bits in `low` past the byte being formed (negative: not a byte yet).
    private var bitCount = -8
    /// 0xFF bytes not yet written, waiting for a possible carry.
    private var pendingFFs = 0

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func put(_ bit: Bool, _ probability: UInt8) {
        let split = (range &* UInt32(probability)) >> 8
        if bit {
            low += Int64(split) + 1
            range -= split + 1
        } else {
            range = split
        }
        if range < 127 {
            // Shift until range + 1 is 128...255 again.
            let shift = (range + 1).leadingZeroBitCount - 24
            range = ((range + 1) << UInt32(shift)) - 1
            low <<= Int64(shift)
            bitCount += shift
            if bitCount > 0 { flush() }
        }
    }

    /// Moves the completed byte out of `low`, settling any carry.
    private mutating func flush() {
        let shift = Int64(8 + bitCount)
        let byte = Int(low >> shift)
        low -= Int64(byte) << shift
        bitCount -= 8
        if byte & 0xFF != 0xFF {
            if byte & 0x100 != 0, !bytes.isEmpty { bytes[bytes.count - 1] &+= 1 }
            if pendingFFs > 0 {
                bytes.append(contentsOf: repeatElement(byte & 0x100 != 0 ? 0x00 : 0xFF, count: pendingFFs))
                pendingFFs = 0
            }
            bytes.append(UInt8(truncatingIfNeeded: byte))
        } else {
            pendingFFs += 1
        }
    }

    /// Ends the stream (enough zero bits to pin the interval down) and
    /// returns its bytes.
    mutating func finish() -> [UInt8] {
        putLiteral(0, 9 - bitCount)
        bitCount = 0
        flush()
        // A last 0xFF held back for a carry that can no longer come.
        bytes.append(contentsOf: repeatElement(0xFF, count: pendingFFs))
        pendingFFs = 0
        return bytes
    }
}
