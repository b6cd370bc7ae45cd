/// Finds LZ77 matches for deflate over a 32 KiB window: greedy at low levels,
/// lazy (one byte of look-ahead, as zlib's `deflate_slow`) at higher ones.
///
/// Matches of 4 bytes or more are found through hash chains keyed by the first
/// four bytes, so a chain holds only positions that can give such a match (with
/// three-byte keys, image data with a constant alpha byte fills every chain
/// with candidates that fail on the fourth byte, and searching them was most
/// of zlib-style matching's time). Three-byte matches come from a second table
/// holding only the latest position per key. Candidates are rejected by
/// comparing four bytes at once: the first four, and the four ending where a
/// candidate must be longer than the best so far.
///
/// Positions are kept as Int32. Past 2 GiB of input they wrap and become
/// candidates that are too far away or negative (none): matching stops finding
/// anything, but every match is still checked byte by byte within the window.
struct LZ77Matcher {
    /// Search effort for one compression level.
    struct Effort {
        /// How many earlier positions with the same hash to try.
        var chain: Int
        /// A match this long ends the search at once.
        var nice: Int
        /// Below this length, also try a match one byte later (0: greedy).
        var lazy: Int
        /// When the match to improve on is this long already, the look-ahead
        /// search tries a quarter of `chain` (zlib's `good_length`).
        var good: Int = LZ77Matcher.maximumMatch
        /// Every position inside a match is indexed only when the match is at
        /// most this long (like zlib's `max_insert_length`), else only its last
        /// `insertLimit`: long runs in flat images then cost a few hashes per
        /// match, not one per byte.
        var insertLimit: Int = LZ77Matcher.maximumMatch
    }

    static let windowSize = 32_768  // a literal, not `1 << 15`: an expression makes a lazily initialised global checked on every read
    static let maximumMatch = 258
    /// Hash bits for large inputs: with fewer, collisions of different 4-byte
    /// keys make the chains longer (measured: 15 bits, 12 % slower on the
    /// benchmark photo). Smaller inputs get smaller tables, about two slots per
    /// byte, so a small image does not pay for clearing 640 KiB of tables.
    private static let maximumHashBits = 16
    private static let minimumHashBits = 10

    private let input: UnsafePointer<UInt8>
    private let count: Int
    private let effort: Effort
    /// Owns the tables below, which are copied out of it so the loop reads no class fields.
    private let tables: HashTables
    /// 32 minus the hash bits: the shift that keeps a product's top bits.
    private let hashShift: UInt32
    private let chainHead: UnsafeMutablePointer<Int32>
    private let previous: UnsafeMutablePointer<Int32>
    private let shortHead: UnsafeMutablePointer<Int32>
    /// Next position to look at; every byte before it is covered by emitted tokens.
    private var position = 0

    /// A matcher for the `count` bytes at `input`, emitting tokens from
    /// `dictionary` on: the bytes before it are a preset dictionary (zlib's
    /// `deflateSetDictionary`), indexed so that matches may reach back into it
    /// but never emitted. Only its last window can be reached, so only that is indexed.
    init(input: UnsafePointer<UInt8>, count: Int, dictionary: Int = 0, effort: Effort) {
        precondition(dictionary >= 0 && dictionary <= count, "the dictionary is a prefix of the input")
        self.input = input
        self.count = count
        self.effort = effort
        let bits = min(Self.maximumHashBits, max(Self.minimumHashBits, Int.bitWidth - count.leadingZeroBitCount + 1))
        hashShift = UInt32(32 - bits)
        // Chain links are indexed by position modulo the window: an input shorter than it needs one per byte.
        tables = HashTables(hashSize: 1 << bits, links: min(count, Self.windowSize))
        chainHead = tables.chainHead
        previous = tables.previous
        shortHead = tables.shortHead
        position = dictionary
        // Dictionary positions with four bytes before the input's end, as `fill` indexes them.
        var p = max(0, dictionary - Self.windowSize)
        while p < min(dictionary, count - 3) {
            insert(p)
            p += 1
        }
    }

    /// True once every input byte is covered by an emitted token.
    var isFinished: Bool { position == count }

    /// Appends tokens until there are at least `limit` (or the input ends);
    /// returns how many input bytes they cover.
    mutating func fill(_ tokens: inout TokenBuffer, limit: Int) -> Int {
        let start = position
        let end = count
        // Positions from here on have fewer than four bytes left: they are neither hashed nor searched.
        let hashEnd = end - 3
        let lazy = effort.lazy > 0
        let items = tokens.items, literalCounts = tokens.literalCounts
        let lengthCounts = tokens.lengthCounts, distanceCounts = tokens.distanceCounts
        var tokenCount = tokens.count
        var pos = position

        @inline(__always) func literal(_ at: Int) {
            let byte = input[at]
            items[tokenCount] = UInt32(byte)
            tokenCount &+= 1
            literalCounts[Int(byte)] &+= 1
        }
        @inline(__always) func match(_ length: Int, _ distance: Int) {
            items[tokenCount] = UInt32(truncatingIfNeeded: length &<< 16 | (distance &- 1))
            tokenCount &+= 1
            lengthCounts[length] &+= 1
            distanceCounts[TokenBuffer.distanceSymbol(distance)] &+= 1
        }
        /// Indexes the positions of `from..<matchEnd` a match covers (all of them,
        /// or its last `insertLimit` when long), stopping where hashing stops.
        @inline(__always) func skip(_ from: Int, _ matchEnd: Int, _ length: Int) {
            var p = length <= effort.insertLimit ? from : max(from, matchEnd - effort.insertLimit)
            let stop = min(matchEnd, hashEnd)
            while p < stop {
                insert(p)
                p &+= 1
            }
        }

        while pos < end && tokenCount < limit {
            guard pos < hashEnd else {
                literal(pos)
                pos += 1
                continue
            }
            var (length, distance) = search(pos, longerThan: 2, chain: effort.chain, end: end)
            if length == 0 {
                literal(pos)
                pos += 1
                continue
            }
            // Lazy evaluation: while the match one byte later is longer, emit a literal and move on.
            // `pos + 1` is indexed already when a look-ahead search there found nothing better.
            var indexed = pos + 1
            if lazy && length < effort.lazy && length < effort.nice {
                while pos + 1 < hashEnd {
                    let chain = length >= effort.good ? effort.chain >> 2 : effort.chain
                    let (next, nextDistance) = search(pos + 1, longerThan: length, chain: max(chain, 1), end: end)
                    guard next > 0 else {
                        indexed = pos + 2
                        break
                    }
                    literal(pos)
                    pos += 1
                    indexed = pos + 1
                    length = next
                    distance = nextDistance
                    if length >= effort.lazy || length >= effort.nice { break }
                }
            }
            match(length, distance)
            skip(indexed, pos + length, length)
            pos += length
        }
        tokens.count = tokenCount
        position = pos
        return pos - start
    }

    @inline(__always)
    private func load32(_ p: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
    }

    @inline(__always)
    private func chainHash(_ word: UInt32) -> Int {
        Int(truncatingIfNeeded: (word &* 0x1E35_A7BD) &>> hashShift)
    }

    @inline(__always)
    private func shortHash(_ word: UInt32) -> Int {
        Int(truncatingIfNeeded: ((word & 0xFF_FFFF) &* 0x9E37_79B1) &>> hashShift)
    }

    /// Indexes position `pos` (which has four bytes) in both tables.
    @inline(__always)
    private func insert(_ pos: Int) {
        let word = load32(input + pos)
        let key = chainHash(word)
        previous[pos & (Self.windowSize - 1)] = chainHead[key]
        chainHead[key] = Int32(truncatingIfNeeded: pos)
        shortHead[shortHash(word)] = Int32(truncatingIfNeeded: pos)
    }

    /// Indexes `pos` (which has four bytes), then returns the longest match there
    /// longer than `atLeast` bytes, trying at most `chain` chained positions;
    /// (0, 0) when there is none.
    @inline(__always)
    private func search(_ pos: Int, longerThan atLeast: Int, chain: Int, end: Int) -> (Int, Int) {
        let here = input + pos
        let word = load32(here)
        let key = chainHash(word), shortKey = shortHash(word)
        var candidate = Int(chainHead[key])
        previous[pos & (Self.windowSize - 1)] = Int32(truncatingIfNeeded: candidate)
        chainHead[key] = Int32(truncatingIfNeeded: pos)
        let shortCandidate = Int(shortHead[shortKey])
        shortHead[shortKey] = Int32(truncatingIfNeeded: pos)

        let limit = min(Self.maximumMatch, end - pos)
        var best = atLeast, bestDistance = 0
        if best < 3 && shortCandidate >= 0 && pos - shortCandidate <= Self.windowSize
            && (load32(input + shortCandidate) ^ word) & 0xFF_FFFF == 0 {
            best = 3
            bestDistance = pos - shortCandidate
        }
        guard best < limit else { return (0, 0) }
        var left = chain
        while candidate >= 0 && left > 0 {
            let distance = pos - candidate
            guard distance <= Self.windowSize else { break }
            let there = input + candidate
            // The four bytes ending at index `best` must agree for a longer match, and so must the first four.
            let probe = max(best, 3) - 3
            if load32(there + probe) == load32(here + probe) && load32(there) == word {
                let length = 4 + Self.matchLength(here + 4, there + 4, limit: limit - 4)
                if length > best {
                    best = length
                    bestDistance = distance
                    if length >= effort.nice || length == limit { break }
                }
            }
            let next = Int(previous[candidate & (Self.windowSize - 1)])
            guard next < candidate else { break }  // a slot reused by a newer position
            candidate = next
            left -= 1
        }
        return bestDistance == 0 ? (0, 0) : (best, bestDistance)
    }

    /// How many bytes at `a` and `b` agree, up to `limit`, eight at a time.
    @inline(__always)
    private static func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
        var length = 0
        while length + 8 <= limit {
            let x = UnsafeRawPointer(a + length).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(b + length).loadUnaligned(as: UInt64.self)
            if x != y { return length + (UInt64(littleEndian: x) ^ UInt64(littleEndian: y)).trailingZeroBitCount / 8 }
            length += 8
        }
        while length < limit && a[length] == b[length] { length += 1 }
        return length
    }
}

/// The matcher's hash tables, in memory it owns (raw buffers, so the hot loop
/// indexes them without bounds or copy-on-write checks; every index is a hash
/// masked to the table's size, or a position masked to the window, which for an
/// input shorter than the window is below its length). Positions are stored as
/// Int32, -1 for none.
private final class HashTables {
    /// Latest position per four-byte hash.
    let chainHead: UnsafeMutablePointer<Int32>
    /// Per position (modulo the window), the previous one with the same four-byte hash.
    let previous: UnsafeMutablePointer<Int32>
    /// Latest position per three-byte hash.
    let shortHead: UnsafeMutablePointer<Int32>

    init(hashSize: Int, links: Int) {
        chainHead = .allocate(capacity: hashSize)
        chainHead.initialize(repeating: -1, count: hashSize)
        previous = .allocate(capacity: links)
        previous.initialize(repeating: -1, count: links)
        shortHead = .allocate(capacity: hashSize)
        shortHead.initialize(repeating: -1, count: hashSize)
    }

    deinit {
        chainHead.deallocate()
        previous.deallocate()
        shortHead.deallocate()
    }
}
