import Foundation

/// Writes Huffman codes and raw bits MSB-first into a growable byte buffer,
/// stuffing a zero byte after every FF of entropy-coded data.
///
/// Bits gather in a 64-bit word that is written out whole, eight bytes in one
/// store, unless one of its bytes is FF (rare in coded data): then byte by byte.
/// Hot loops write through a `Cursor` (`withCursor`), a copy of the output
/// position and pending bits small enough to live in registers, with room
/// reserved beforehand so no write needs a capacity test.
struct JPEGBitWriter: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written.
    private(set) var count = 0
    /// Pending bits, right-aligned: the low `64 − free` bits are valid.
    private var buffer: UInt64 = 0
    private var free = 64

    /// More than one block of a baseline scan can take: at most 66 symbols
    /// (DC, 63 AC or ZRL, EOB) of at most 16 code bits and 11 value bits
    /// (223 bytes), doubled for stuffing, and the word still pending.
    static let blockRoom = 512

    init(reserving capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// The bytes written so far (one copy, straight from the buffer).
    var data: Data { Data(bytes: storage, count: count) }

    /// Where bits go, as a value: the next byte to write and the pending bits.
    /// Only valid inside `withCursor`, which guarantees the room it writes into.
    struct Cursor {
        var output: UnsafeMutablePointer<UInt8>
        var buffer: UInt64
        var free: Int

        /// Appends the low `length` bits of `bits` (1 ≤ length ≤ 32; higher bits must be zero).
        @inline(__always)
        mutating func write(_ bits: UInt64, _ length: Int) {
            if length < free {
                buffer = buffer &<< UInt64(truncatingIfNeeded: length) | bits
                free &-= length
                return
            }
            // The word fills: complete it with the top of `bits`, keep the rest.
            let rest = length &- free
            let word = buffer &<< UInt64(truncatingIfNeeded: free) | bits &>> UInt64(truncatingIfNeeded: rest)
            writeWord(word)
            buffer = bits
            free = 64 &- rest
        }

        @inline(__always)
        private mutating func writeWord(_ word: UInt64) {
            let inverted = ~word
            // A zero byte in ~word is an FF byte in word.
            if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 == 0 {
                UnsafeMutableRawPointer(output).storeBytes(of: word.bigEndian, as: UInt64.self)
                output += 8
            } else {
                writeStuffed(word, bytes: 8)
            }
        }

        /// The low `bytes` bytes of `word`, most significant first, a zero after each FF.
        private mutating func writeStuffed(_ word: UInt64, bytes: Int) {
            var shift = UInt64(bytes * 8)
            while shift > 0 {
                shift &-= 8
                let byte = UInt8(truncatingIfNeeded: word &>> shift)
                output.pointee = byte
                output += 1
                if byte == 0xFF { output.pointee = 0; output += 1 }
            }
        }

        /// Writes the pending bits, padding the last byte with one bits.
        mutating func flush() {
            let pending = 64 &- free
            guard pending > 0 else { return }
            let padded = (pending &+ 7) & ~7
            writeStuffed((buffer &<< UInt64(padded &- pending)) | ((1 &<< UInt64(padded &- pending)) &- 1), bytes: padded / 8)
            buffer = 0
            free = 64
        }
    }

    /// Runs `body` with a cursor that may write up to `room` bytes (stuffing
    /// included), then takes back its position and pending bits.
    @inline(__always)
    mutating func withCursor<Result>(room: Int, _ body: (inout Cursor) -> Result) -> Result {
        reserve(room)
        var cursor = Cursor(output: storage + count, buffer: buffer, free: free)
        let result = body(&cursor)
        count = cursor.output - storage
        buffer = cursor.buffer
        free = cursor.free
        return result
    }

    /// Appends the low `length` bits of `bits` (1 ≤ length ≤ 32; higher bits must be zero).
    @inline(__always)
    mutating func write(_ bits: UInt64, _ length: Int) {
        withCursor(room: 16) { $0.write(bits, length) }
    }

    /// Writes the pending bits, padding the last byte with one bits, as the
    /// standard asks before a marker and at the end of the scan.
    mutating func flush() {
        withCursor(room: 16) { $0.flush() }
    }

    /// Appends bytes verbatim (markers and segments); pending bits must be flushed first.
    mutating func append(_ raw: [UInt8]) {
        reserve(raw.count)
        for byte in raw { storage[count] = byte; count += 1 }
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(count + extra) }
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
