/// The meta prefix codes of a VP8L main image (RFC 9649 §6.2.2): the image
/// cut into blocks of `1 << bits` pixels square, each block coded with one of
/// a few groups of five prefix codes, so that water, land and roads, or sky
/// and foliage, each get codes fitted to them.
///
/// Groups are found as libwebp finds them, in three steps: blocks whose
/// green, red and blue entropies fall in the same of 64 bins start as one
/// group; groups are then merged pairwise, cheapest merge first, while a
/// merge saves more in stored codes than it costs in entropy; last, each
/// block moves to the group whose codes cost it least.
struct VP8LEntropyGroups {
    /// Blocks are `1 << bits` pixels square.
    let bits: Int
    /// Blocks per row.
    let blocksWide: Int
    /// The group of each block, row by row.
    private(set) var groupOfBlock: [Int]
    /// The counts of each group's tokens.
    private(set) var histograms: [VP8LHistogram]

    /// The groups of `tokens` (of an image of rows of `width` pixels) with a
    /// colour cache of `cacheBits`.
    init(_ tokens: [VP8LToken], width: Int, height: Int, cacheBits: Int, bits: Int) {
        self.bits = bits
        blocksWide = (width + (1 << bits) - 1) >> bits
        let blockCount = blocksWide * ((height + (1 << bits) - 1) >> bits)
        var blocks = [VP8LHistogram](repeating: VP8LHistogram(cacheBits: cacheBits), count: blockCount)
        var position = 0
        for token in tokens {
            let y = position / width, x = position - y * width
            blocks[(y >> bits) * blocksWide + (x >> bits)].add(token)
            position += token.kind == .copy ? Int(token.value) : 1
        }
        let used = blocks.indices.filter { blocks[$0].alphabets[0].contains { $0 > 0 } || blocks[$0].alphabets[4].contains { $0 > 0 } }

        // 1. Bins of like entropy.
        let entropies = used.map { block in (0..<3).map { VP8LHistogram.entropy(of: blocks[block].alphabets[$0]) } }
        var low = [Double](repeating: .infinity, count: 3), high = [Double](repeating: -.infinity, count: 3)
        for entropy in entropies {
            for channel in 0..<3 { low[channel] = min(low[channel], entropy[channel]); high[channel] = max(high[channel], entropy[channel]) }
        }
        var binGroup = [Int: Int](), groups: [VP8LHistogram] = [], groupOf = [Int](repeating: 0, count: blockCount)
        for (index, block) in used.enumerated() {
            var bin = 0
            for channel in 0..<3 {
                let span = high[channel] - low[channel]
                let level = span > 0 ? min(3, Int(4 * (entropies[index][channel] - low[channel]) / span)) : 0
                bin = bin * 4 + level
            }
            if let group = binGroup[bin] {
                groups[group].merge(blocks[block])
                groupOf[block] = group
            } else {
                binGroup[bin] = groups.count
                groupOf[block] = groups.count
                groups.append(blocks[block])
            }
        }

        // 2. Pairwise merges while they save bits.
        var costs = groups.map(\.estimatedBits)
        var alive = [Bool](repeating: true, count: groups.count)
        func gain(_ a: Int, _ b: Int) -> Double { groups[a].estimatedBits(mergedWith: groups[b]) - costs[a] - costs[b] }
        var gains = [[Double]](repeating: [Double](repeating: 0, count: groups.count), count: groups.count)
        for a in groups.indices { for b in (a + 1)..<groups.count { gains[a][b] = gain(a, b) } }
        while true {
            var best = 0.0, pair = (0, 0)
            for a in groups.indices where alive[a] {
                for b in (a + 1)..<groups.count where alive[b] && gains[a][b] < best { (best, pair) = (gains[a][b], (a, b)) }
            }
            guard best < 0 else { break }
            let (kept, gone) = pair
            groups[kept].merge(groups[gone])
            costs[kept] = groups[kept].estimatedBits
            alive[gone] = false
            for block in used where groupOf[block] == gone { groupOf[block] = kept }
            for other in groups.indices where alive[other] && other != kept {
                let (a, b) = (min(kept, other), max(kept, other))
                gains[a][b] = gain(a, b)
            }
        }

        // 3. Each block to the group that codes it cheapest, then counts anew.
        let survivors = groups.indices.filter { alive[$0] }
        let prices = survivors.map { groups[$0].bitsPerSymbol }
        var refined = [VP8LHistogram](repeating: VP8LHistogram(cacheBits: cacheBits), count: survivors.count)
        for block in used {
            var bestGroup = 0, bestCost = Float.infinity
            for (group, price) in prices.enumerated() {
                var cost: Float = 0
                for alphabet in 0..<5 {
                    let counts = blocks[block].alphabets[alphabet], bits = price[alphabet]
                    for symbol in counts.indices where counts[symbol] > 0 { cost += Float(counts[symbol]) * bits[symbol] }
                }
                if cost < bestCost { (bestCost, bestGroup) = (cost, group) }
            }
            groupOf[block] = bestGroup
            refined[bestGroup].merge(blocks[block])
        }
        // Groups no block chose are dropped; the numbers close up.
        var renumbered = [Int](repeating: -1, count: refined.count)
        histograms = []
        for group in refined.indices where refined[group].alphabets.contains(where: { $0.contains { $0 > 0 } }) {
            renumbered[group] = histograms.count
            histograms.append(refined[group])
        }
        groupOfBlock = groupOf.map { max(0, renumbered[$0]) }
        if histograms.isEmpty { histograms = [VP8LHistogram(cacheBits: cacheBits)] }
    }

    /// How many groups there are.
    var count: Int { histograms.count }

    /// The entropy image as VP8L stores it: each block's group in red and green.
    var image: [UInt32] {
        groupOfBlock.map { 0xFF00_0000 | UInt32($0 >> 8) << 16 | UInt32($0 & 0xFF) << 8 }
    }

    /// About how many bits the groups' streams and the entropy image cost.
    var estimatedBits: Double {
        var uses = [UInt32](repeating: 0, count: histograms.count)
        for group in groupOfBlock { uses[group] += 1 }
        return histograms.reduce(VP8LHistogram.entropy(of: uses) + 64) { $0 + $1.estimatedBits }
    }
}
