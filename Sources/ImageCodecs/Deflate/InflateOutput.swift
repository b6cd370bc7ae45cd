/// The growing output of inflate, bounded by a limit the caller sets, so a
/// stream that expands without bound is an error rather than an allocation.
struct InflateOutput {
    private(set) var storage: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    let limit: Int
    /// Whether `storage` is ours to free (false while writing into the caller's buffer).
    private(set) var ownsStorage: Bool

    /// The first capacity for an output expected to be `expected` bytes.
    static func initialCapacity(expected: Int, limit: Int) -> Int { max(64, min(expected, limit)) }

    /// Writes into `buffer` (`capacity` bytes) until it is full, then into
    /// storage of its own.
    init(writingInto buffer: UnsafeMutablePointer<UInt8>, capacity: Int, limit: Int) {
        self.limit = limit
        self.capacity = capacity
        storage = buffer
        ownsStorage = false
    }

    /// Frees storage of its own, if it had to grow out of the caller's buffer.
    func deallocate() {
        if ownsStorage { storage.deallocate() }
    }

    /// A copy of what was written.
    func bytes() -> [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    @inline(__always)
    mutating func reserve(_ extra: Int) throws {
        guard extra <= limit - count else { throw InflateError.outputLimitExceeded(limit: limit) }
        if count + extra > capacity {
            let newCapacity = min(limit, max(count + extra, capacity * 2))
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: storage, count: count)
            deallocate()
            storage = grown
            ownsStorage = true
            capacity = newCapacity
        }
    }

    /// Bytes that can be written without growing (never past `limit`: capacity ≤ limit).
    @inline(__always)
    var room: Int { capacity - count }

    /// Takes as output the bytes the block decoder's fast loop wrote straight
    /// into `storage` from `count` up to `newCount` (≤ capacity).
    @inline(__always)
    mutating func commit(upTo newCount: Int) {
        assert(newCount >= count && newCount <= capacity)
        count = newCount
    }

    mutating func append(_ byte: UInt8) throws {
        try reserve(1)
        storage[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        try reserve(bytes.count)
        if let base = bytes.baseAddress { (storage + count).update(from: base, count: bytes.count) }
        count += bytes.count
    }

    /// Copies `length` bytes from `distance` back, byte by byte (the regions
    /// may overlap). The block decoder's careful path, near the end of the output.
    mutating func copyMatch(distance: Int, length: Int) throws {
        guard distance >= 1, distance <= count else {
            throw InflateError.corrupt("distance \(distance) reaches before the start of the output (\(count) bytes)")
        }
        try reserve(length)
        let destination = storage + count, source = destination - distance
        for i in 0..<length { destination[i] = source[i] }
        count += length
    }
}
