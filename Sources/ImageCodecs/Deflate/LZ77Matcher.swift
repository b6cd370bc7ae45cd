/// Finds LZ77 matches for deflate: a 32 KiB window indexed by hash chains of
/// 3-byte prefixes, greedy at low levels and lazy (one byte of look-ahead, as
/// zlib's `deflate_slow`) at higher ones.
struct LZ77Matcher {
    /// Search effort for one compression level.
    struct Effort {
        /// How many earlier positions with the same hash to try.
        var chain: Int
        /// A match this long ends the search at once.
        var nice: Int
        /// Below this length, also try a match one byte later (0: greedy).
        var lazy: Int
        /// Greedy levels index every position inside a match only when it is at
        /// most this long (like zlib's `max_insert_length`), else only its last
        /// `insertLimit`: long runs in flat images then cost a few hashes per
        /// match, not one per byte.
        var insertLimit: Int = LZ77Matcher.maximumMatch
    }

    static let windowSize = 32_768  // a literal, not `1 << 15`: an expression makes a lazily initialised global checked on every read
    private static let hashBits = 15
    private static let minimumMatch = 3
    static let maximumMatch = 258

    private let input: UnsafePointer<UInt8>
    private let count: Int
    private let effort: Effort
    private let chains = HashChains(hashSize: 1 << LZ77Matcher.hashBits, windowSize: LZ77Matcher.windowSize)
    /// Next position to look at.
    private var position = 0
    /// Bytes covered by tokens emitted so far.
    private var emitted = 0
    /// Lazy state: a match found at `position - 1` not yet emitted.
    private var pendingLength = 0
    private var pendingDistance = 0
    private var hasPending = false

    init(input: UnsafePointer<UInt8>, count: Int, effort: Effort) {
        self.input = input
        self.count = count
        self.effort = effort
    }

    /// True once every input byte is covered by an emitted token.
    var isFinished: Bool { emitted == count }

    /// Appends up to about `limit` tokens; returns how many input bytes they cover.
    mutating func fill(_ tokens: inout TokenBuffer, limit: Int) -> Int {
        let start = emitted
        let lazy = effort.lazy > 0
        let head = chains.head, previous = chains.previous
        do {
            var pos = position
            let end = count
            while pos < end && tokens.items.count < limit {
                var length = 0, distance = 0
                if pos + Self.minimumMatch <= end {
                    let candidate = insert(pos, head: head, previous: previous)
                    if !lazy || !hasPending || pendingLength < effort.lazy {
                        (length, distance) = longestMatch(at: pos, candidate: Int(candidate), atLeast: hasPending ? pendingLength : Self.minimumMatch - 1, previous: previous)
                    }
                }
                if !lazy {
                    if length >= Self.minimumMatch {
                        tokens.items.append(UInt32(length) << 16 | UInt32(distance - 1))
                        // A long match indexes only its last positions, so the next search still finds this run.
                        let from = length <= effort.insertLimit ? pos + 1 : pos + length - effort.insertLimit
                        for p in from..<max(from, min(pos + length, end - Self.minimumMatch + 1)) {
                            _ = insert(p, head: head, previous: previous)
                        }
                        pos += length
                    } else {
                        tokens.items.append(UInt32(input[pos]))
                        pos += 1
                    }
                    emitted = pos
                } else if hasPending && pendingLength >= Self.minimumMatch && length <= pendingLength {
                    // The match that started one byte earlier is at least as good: take it.
                    tokens.items.append(UInt32(pendingLength) << 16 | UInt32(pendingDistance - 1))
                    let matchEnd = pos - 1 + pendingLength
                    let from = pendingLength <= effort.insertLimit ? pos + 1 : max(pos + 1, matchEnd - effort.insertLimit)
                    for p in from..<max(from, min(matchEnd, end - Self.minimumMatch + 1)) {
                        _ = insert(p, head: head, previous: previous)
                    }
                    pos = matchEnd
                    emitted = pos
                    hasPending = false
                    pendingLength = 0
                } else {
                    if hasPending {
                        tokens.items.append(UInt32(input[pos - 1]))
                        emitted = pos
                    }
                    hasPending = true
                    pendingLength = length
                    pendingDistance = distance
                    pos += 1
                }
            }
            if pos >= end && hasPending {
                tokens.items.append(UInt32(input[end - 1]))
                emitted = end
                hasPending = false
            }
            position = pos
        }
        return emitted - start
    }

    /// Records `pos` under its hash; returns the previous position with that hash.
    @inline(__always)
    private func insert(_ pos: Int, head: UnsafeMutablePointer<Int32>, previous: UnsafeMutablePointer<Int32>) -> Int32 {
        let key = UInt32(input[pos]) | UInt32(input[pos + 1]) << 8 | UInt32(input[pos + 2]) << 16
        let hash = Int((key &* 0x9E37_79B1) >> (32 - UInt32(Self.hashBits)))
        let candidate = head[hash]
        previous[pos & (Self.windowSize - 1)] = candidate
        head[hash] = Int32(pos)
        return candidate
    }

    /// The longest match for `pos` longer than `atLeast`, following the chain from `candidate`.
    @inline(__always)
    private func longestMatch(at pos: Int, candidate start: Int, atLeast: Int, previous: UnsafeMutablePointer<Int32>) -> (Int, Int) {
        let limit = min(Self.maximumMatch, count - pos)
        var best = atLeast, bestDistance = 0
        guard best < limit else { return (0, 0) }
        var candidate = start
        var chain = effort.chain
        let here = input + pos
        while candidate >= 0 && chain > 0 {
            let distance = pos - candidate
            guard distance > 0 && distance <= Self.windowSize else { break }
            let there = input + candidate
            if there[best] == here[best] && there[0] == here[0] && there[1] == here[1] {
                let length = Self.matchLength(here, there, limit: limit)
                if length > best {
                    best = length
                    bestDistance = distance
                    if length >= effort.nice || length == limit { break }
                }
            }
            let next = Int(previous[candidate & (Self.windowSize - 1)])
            guard next < candidate else { break }  // a slot reused by a newer position
            candidate = next
            chain -= 1
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
            if x != y { return length + (x ^ y).trailingZeroBitCount / 8 }
            length += 8
        }
        while length < limit && a[length] == b[length] { length += 1 }
        return length
    }
}

/// The hash heads and per-position chain links, in memory the matcher owns
/// (raw buffers, so the hot loop indexes them without bounds checks or
/// copy-on-write checks; every index is masked to the buffer's size).
private final class HashChains {
    let head: UnsafeMutablePointer<Int32>
    let previous: UnsafeMutablePointer<Int32>
    private let hashSize: Int
    private let windowSize: Int

    init(hashSize: Int, windowSize: Int) {
        self.hashSize = hashSize
        self.windowSize = windowSize
        head = .allocate(capacity: hashSize)
        head.initialize(repeating: -1, count: hashSize)
        previous = .allocate(capacity: windowSize)
        previous.initialize(repeating: -1, count: windowSize)
    }

    deinit {
        head.deallocate()
        previous.deallocate()
    }
}
