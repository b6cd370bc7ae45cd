import Foundation

/// The symbol counts of a VP8L token stream in its five alphabets (green
/// with length prefixes and cache indices, red, blue, alpha, distance
/// prefixes), and what coding them is estimated to cost.
struct VP8LHistogram {
    /// Counts per alphabet, in the order their prefix codes are stored.
    var alphabets: [[UInt32]]
    /// Extra bits of lengths and distances.
    var extraBits = 0

    /// An empty histogram for a colour cache of `cacheBits` (0: none).
    init(cacheBits: Int) {
        alphabets = [[UInt32](repeating: 0, count: 256 + 24 + (cacheBits > 0 ? 1 << cacheBits : 0)),
                     [UInt32](repeating: 0, count: 256), [UInt32](repeating: 0, count: 256),
                     [UInt32](repeating: 0, count: 256), [UInt32](repeating: 0, count: 40)]
    }

    /// The counts of `tokens`.
    init(_ tokens: some Sequence<VP8LToken>, cacheBits: Int) {
        self.init(cacheBits: cacheBits)
        for token in tokens { add(token) }
    }

    /// Counts `token`'s symbols.
    mutating func add(_ token: VP8LToken) {
        switch token.kind {
        case .literal:
            alphabets[0][Int((token.value >> 8) & 0xFF)] += 1
            alphabets[1][Int((token.value >> 16) & 0xFF)] += 1
            alphabets[2][Int(token.value & 0xFF)] += 1
            alphabets[3][Int(token.value >> 24)] += 1
        case .cacheIndex:
            alphabets[0][256 + 24 + Int(token.value)] += 1
        case .copy:
            let length = VP8LToken.prefix(Int(token.value)), distance = VP8LToken.prefix(Int(token.distanceCode))
            alphabets[0][256 + length.symbol] += 1
            alphabets[4][distance.symbol] += 1
            extraBits += length.extraBitCount + distance.extraBitCount
        }
    }

    /// Adds every count of `other`.
    mutating func merge(_ other: VP8LHistogram) {
        for alphabet in 0..<5 {
            for symbol in alphabets[alphabet].indices { alphabets[alphabet][symbol] &+= other.alphabets[alphabet][symbol] }
        }
        extraBits += other.extraBits
    }

    /// About how many bits the stream costs coded alone: each alphabet's
    /// Shannon entropy, the extra bits, and about 4 bits per symbol used
    /// (8 for an alphabet of one) for storing the codes themselves.
    var estimatedBits: Double {
        alphabets.reduce(Double(extraBits)) { $0 + Self.cost(of: $1) }
    }

    /// `estimatedBits` of this histogram and `other` merged, without merging them.
    func estimatedBits(mergedWith other: VP8LHistogram) -> Double {
        var total = Double(extraBits + other.extraBits)
        for alphabet in 0..<5 {
            let a = alphabets[alphabet], b = other.alphabets[alphabet]
            var sum: UInt32 = 0, sumOfXLogX = 0.0, used = 0
            for symbol in a.indices {
                let count = a[symbol] &+ b[symbol]
                guard count > 0 else { continue }
                sum &+= count
                sumOfXLogX += Self.xLogX(count)
                used += 1
            }
            total += used <= 1 ? 8 : Self.xLogX(sum) - sumOfXLogX + Double(used) * 4
        }
        return total
    }

    /// The bits coding each symbol costs under codes made from these counts
    /// (a symbol never seen costs 20), per alphabet.
    var bitsPerSymbol: [[Float]] {
        alphabets.map { counts in
            let sum = counts.reduce(0, &+)
            guard sum > 0 else { return [Float](repeating: 20, count: counts.count) }
            let total = Float(sum)
            return counts.map { $0 == 0 ? 20 : min(20, max(0, -log2(Float($0) / total))) }
        }
    }

    /// The Shannon entropy of `counts` in bits, summed over every symbol counted.
    static func entropy(of counts: [UInt32]) -> Double {
        var sum: UInt32 = 0, sumOfXLogX = 0.0
        for count in counts where count > 0 {
            sum &+= count
            sumOfXLogX += xLogX(count)
        }
        return xLogX(sum) - sumOfXLogX
    }

    private static func cost(of counts: [UInt32]) -> Double {
        var sum: UInt32 = 0, sumOfXLogX = 0.0, used = 0
        for count in counts where count > 0 {
            sum &+= count
            sumOfXLogX += xLogX(count)
            used += 1
        }
        return used <= 1 ? 8 : xLogX(sum) - sumOfXLogX + Double(used) * 4
    }

    /// n log₂ n, for counts below 65,536 from a table.
    @inline(__always)
    static func xLogX(_ n: UInt32) -> Double {
        n < 65536 ? Double(xLogXTable[Int(n)]) : Double(n) * log2(Double(n))
    }

    private static let xLogXTable: [Float] = (0..<65536).map { $0 == 0 ? 0 : Float(Double($0) * log2(Double($0))) }
}
