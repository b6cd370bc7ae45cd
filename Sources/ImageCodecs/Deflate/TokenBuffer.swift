/// One block's LZ77 output and its symbol statistics, in memory it owns (raw
/// buffers: the matcher's hot loop appends without bounds or uniqueness checks).
///
/// A token is a literal byte (< 256) or a match packed as
/// `length << 16 | (distance - 1)`. The counts are kept as tokens are added,
/// so the block's Huffman codes need no second pass over them.
struct TokenBuffer: ~Copyable {
    /// Room for `limit` tokens plus what one more step of the matcher can add.
    let capacity: Int
    let items: UnsafeMutablePointer<UInt32>
    var count = 0
    /// Literal bytes 0–255.
    let literalCounts: UnsafeMutablePointer<UInt32>
    /// Matches by length 0…258 (0–2 stay zero).
    let lengthCounts: UnsafeMutablePointer<UInt32>
    /// Matches by distance symbol 0–29.
    let distanceCounts: UnsafeMutablePointer<UInt32>
    private static let countSlots = 256 + 259 + 30

    /// A buffer for blocks of about `limit` tokens.
    init(limit: Int) {
        // The lazy matcher may add up to a maximum match length of literals before it stops.
        capacity = limit + 2 * LZ77Matcher.maximumMatch
        items = .allocate(capacity: capacity)
        literalCounts = .allocate(capacity: Self.countSlots)
        literalCounts.initialize(repeating: 0, count: Self.countSlots)
        lengthCounts = literalCounts + 256
        distanceCounts = lengthCounts + 259
    }

    deinit {
        items.deallocate()
        literalCounts.deallocate()
    }

    /// Empties the buffer for the next block.
    mutating func removeAll() {
        count = 0
        literalCounts.update(repeating: 0, count: Self.countSlots)
    }

    /// The distance symbol (0–29) of a match distance 1…32768, by arithmetic
    /// rather than a table: past distance 4 each pair of symbols spans a power of two.
    @inline(__always)
    static func distanceSymbol(_ distance: Int) -> Int {
        let x = distance &- 1
        if x < 4 { return x }
        let top = Int.bitWidth &- 1 &- x.leadingZeroBitCount
        return top &* 2 &+ ((x &>> (top &- 1)) & 1)
    }
}
