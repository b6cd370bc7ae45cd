/// Writes the LSB-first bit stream of deflate (RFC 1951 §3.1.1) into a byte
/// array through a 64-bit accumulator, flushed a whole word at a time.
struct BitWriter {
    private(set) var bytes: [UInt8]
    private var buffer: UInt64 = 0
    private var count: UInt64 = 0

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `length` bits of `bits` (length ≤ 32).
    @inline(__always)
    mutating func write(_ bits: UInt32, _ length: Int) {
        buffer |= UInt64(bits) << count
        count += UInt64(length)
        if count >= 32 {
            let word = UInt32(truncatingIfNeeded: buffer)
            bytes.append(UInt8(truncatingIfNeeded: word))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            bytes.append(UInt8(truncatingIfNeeded: word >> 24))
            buffer >>= 32
            count -= 32
        }
    }

    /// Pads with zero bits to the next byte boundary and flushes everything.
    mutating func alignToByte() {
        while count > 0 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count = count >= 8 ? count - 8 : 0
        }
        buffer = 0
    }

    /// Appends whole bytes (after `alignToByte()`).
    mutating func append(contentsOf raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
    }
}
