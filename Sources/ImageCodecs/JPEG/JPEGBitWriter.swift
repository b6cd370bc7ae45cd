/// Writes Huffman codes and raw bits MSB-first, stuffing a zero byte after
/// every FF, into a preallocated growable byte buffer.
struct JPEGBitWriter {
    var bytes: [UInt8]
    private var buffer: UInt64 = 0
    private var count = 0

    init(reserving capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `length` bits of `value` (length ≤ 32).
    @inline(__always)
    mutating func write(_ value: UInt32, _ length: Int) {
        buffer = (buffer << UInt64(length)) | UInt64(value & UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(length)) - 1))
        count += length
        while count >= 8 {
            count -= 8
            let byte = UInt8(truncatingIfNeeded: buffer >> UInt64(count))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
    }

    /// Pads the last byte with one bits, as the standard asks before a marker.
    mutating func flush() {
        if count > 0 { write(0x7F, 8 - count) }
        buffer = 0
    }

    /// Appends bytes verbatim (markers and segments).
    mutating func append(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }
}
