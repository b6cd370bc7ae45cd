import Foundation

/// Writes Huffman codes and raw bits MSB-first into a growable byte buffer,
/// stuffing a zero byte after every FF of entropy-coded data.
///
/// Bits gather in a 64-bit word that is written out whole, eight bytes in one
/// store, unless one of its bytes is FF (rare in coded data): then byte by byte.
struct JPEGBitWriter: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written.
    private(set) var count = 0
    /// Pending bits, right-aligned: the low `64 − free` bits are valid.
    private var buffer: UInt64 = 0
    private var free = 64

    init(reserving capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// The bytes written so far (one copy, straight from the buffer).
    var data: Data { Data(bytes: storage, count: count) }

    /// Appends the low `length` bits of `bits` (1 ≤ length ≤ 32; higher bits must be zero).
    @inline(__always)
    mutating func write(_ bits: UInt64, _ length: Int) {
        if length < free {
            buffer = buffer &<< UInt64(length) | bits
            free -= length
            return
        }
        // The word fills: complete it with the top of `bits`, keep the rest.
        let rest = length - free
        let word = buffer &<< UInt64(free) | bits &>> UInt64(rest)
        writeWord(word)
        buffer = bits
        free = 64 - rest
    }

    @inline(__always)
    private mutating func writeWord(_ word: UInt64) {
        reserve(16)
        let inverted = ~word
        // A zero byte in ~word is an FF byte in word.
        if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 == 0 {
            UnsafeMutableRawPointer(storage + count).storeBytes(of: word.bigEndian, as: UInt64.self)
            count += 8
        } else {
            for shift in stride(from: 56, through: 0, by: -8) { writeStuffedByte(UInt8(truncatingIfNeeded: word &>> UInt64(shift))) }
        }
    }

    @inline(__always)
    private mutating func writeStuffedByte(_ byte: UInt8) {
        storage[count] = byte
        count += 1
        if byte == 0xFF { storage[count] = 0; count += 1 }
    }

    /// Writes the pending bits, padding the last byte with one bits, as the
    /// standard asks before a marker and at the end of the scan.
    mutating func flush() {
        let pending = 64 - free
        guard pending > 0 else { return }
        reserve(16)
        let padded = pending + (8 - pending % 8) % 8
        let word = (buffer &<< UInt64(padded - pending)) | ((1 &<< UInt64(padded - pending)) &- 1)
        for shift in stride(from: padded - 8, through: 0, by: -8) {
            writeStuffedByte(UInt8(truncatingIfNeeded: word &>> UInt64(shift)))
        }
        buffer = 0
        free = 64
    }

    /// Appends bytes verbatim (markers and segments); pending bits must be flushed first.
    mutating func append(_ raw: [UInt8]) {
        reserve(raw.count)
        for byte in raw { storage[count] = byte; count += 1 }
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }
}
