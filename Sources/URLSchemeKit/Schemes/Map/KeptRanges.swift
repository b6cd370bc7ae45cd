/// Ranges read, by offset, kept until their bytes pass the capacity (the
/// oldest dropped first).
struct KeptRanges {
    let capacity: Int
    private var ranges: [UInt64: [UInt8]] = [:]
    private var order: [UInt64] = []
    private var total = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The bytes of `range` when one kept range holds them all.
    func bytes(in range: Range<UInt64>) -> [UInt8]? {
        if let exact = ranges[range.lowerBound], exact.count >= range.count { return Array(exact.prefix(range.count)) }
        // The opening prefix holds the header and root directory: reads inside it are sliced out.
        if let prefix = ranges[0], range.upperBound <= UInt64(prefix.count) {
            return Array(prefix[Int(range.lowerBound)..<Int(range.upperBound)])
        }
        return nil
    }

    mutating func insert(_ bytes: [UInt8], at offset: UInt64) {
        guard bytes.count <= capacity, ranges[offset] == nil else { return }
        while total + bytes.count > capacity, !order.isEmpty {
            let oldest = order.removeFirst()
            total -= ranges.removeValue(forKey: oldest)?.count ?? 0
        }
        ranges[offset] = bytes
        order.append(offset)
        total += bytes.count
    }
}
