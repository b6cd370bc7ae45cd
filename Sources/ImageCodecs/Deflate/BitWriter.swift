/// Writes the LSB-first bit stream of deflate (RFC 1951 §3.1.1) into a
/// growable buffer it owns.
///
/// Bits gather in a 64-bit word; `flush()` stores the whole word in one
/// unaligned 8-byte store and advances by the complete bytes in it, so at most
/// 7 bits stay pending and 56 more can be added before the next flush (one
/// match, length and distance with their extra bits, is at most 48). The
/// buffer keeps 8 bytes of slack past `count` for those stores.
struct BitWriter: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Whole bytes written.
    private(set) var count = 0
    /// Pending bits, the first in the lowest bit.
    private var buffer: UInt64 = 0
    /// How many bits of `buffer` are pending (0…63).
    private var pending = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity + 8)
    }

    deinit { storage.deallocate() }

    /// Makes room for `bytes` more bytes (plus what is pending), so the
    /// unchecked `add`/`flush` pairs that follow stay inside the buffer.
    mutating func reserve(_ bytes: Int) {
        let needed = count + 8 + bytes
        guard needed > capacity else { return }
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger + 8)
        moved.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    /// Adds the low `length` bits of `bits` (higher bits zero) without
    /// flushing: the caller keeps `pending + length ≤ 64` between flushes.
    @inline(__always)
    mutating func add(_ bits: UInt64, _ length: Int) {
        buffer |= bits &<< UInt64(truncatingIfNeeded: pending)
        pending &+= length
    }

    /// Stores the complete bytes of the pending bits (space for them must have been reserved).
    @inline(__always)
    mutating func flush() {
        UnsafeMutableRawPointer(storage + count).storeBytes(of: buffer.littleEndian, as: UInt64.self)
        let bytes = pending &>> 3
        count &+= bytes
        buffer = bytes == 8 ? 0 : buffer &>> UInt64(truncatingIfNeeded: bytes &<< 3)
        pending &= 7
    }

    /// Appends the low `length` bits of `bits` (length ≤ 32), reserving as needed.
    mutating func write(_ bits: UInt32, _ length: Int) {
        reserve(8)
        add(UInt64(bits), length)
        flush()
    }

    /// Pads with zero bits to the next byte boundary and flushes everything.
    mutating func alignToByte() {
        reserve(8)
        pending = (pending + 7) & ~7
        flush()
    }

    /// Appends whole bytes (after `alignToByte()`).
    mutating func append(contentsOf raw: UnsafeBufferPointer<UInt8>) {
        guard let base = raw.baseAddress, raw.count > 0 else { return }
        reserve(raw.count)
        (storage + count).update(from: base, count: raw.count)
        count += raw.count
    }

    /// The bytes written (pending bits excluded: align first).
    var bytes: [UInt8] {
        [UInt8](UnsafeBufferPointer(start: storage, count: count))
    }
}
