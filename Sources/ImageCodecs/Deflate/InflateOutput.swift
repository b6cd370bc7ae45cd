/// The growing output of inflate, bounded by a limit the caller sets, so a
/// stream that expands without bound is an error rather than an allocation.
struct InflateOutput {
    private(set) var storage: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    let limit: Int
    /// Whether `storage` is ours to free (false while writing into the caller's buffer).
    private(set) var ownsStorage: Bool

    /// Bytes allocated past `capacity`, so match copies may write whole 8-byte words.
    static let slack = 16

    /// The first capacity for an output expected to be `expected` bytes.
    static func initialCapacity(expected: Int, limit: Int) -> Int { max(64, min(expected, limit)) }

    /// Writes into `buffer` (which has `slack` bytes past `capacity`) until it is
    /// full, then into storage of its own.
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
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity + Self.slack)
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

    /// Appends a byte; the caller has checked `room`.
    @inline(__always)
    mutating func appendUnchecked(_ byte: UInt8) {
        storage[count] = byte
        count += 1
    }

    @inline(__always)
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

    /// Copies `length` bytes from `distance` back (the regions may overlap: byte by byte).
    @inline(__always)
    mutating func copyMatch(distance: Int, length: Int) throws {
        guard distance >= 1, distance <= count else {
            throw InflateError.corrupt("distance \(distance) reaches before the start of the output (\(count) bytes)")
        }
        try reserve(length)
        copyMatchUnchecked(distance: distance, length: length)
    }

    /// `copyMatch` when the caller has checked `room` and `1...count` holds `distance`.
    @inline(__always)
    mutating func copyMatchUnchecked(distance: Int, length: Int) {
        let destination = storage + count, source = destination - distance
        if distance >= 8 {
            // Word copies: each reads bytes at least 8 behind what it writes, so
            // overlapping matches still repeat correctly; up to 7 bytes spill into the slack.
            var i = 0
            while i < length {
                UnsafeMutableRawPointer(destination + i).storeBytes(of: UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self), as: UInt64.self)
                i += 8
            }
        } else {
            for i in 0..<length { destination[i] = source[i] }
        }
        count += length
    }
}
