/// What coding a block's levels costs under a set of token probabilities,
/// from tables built once per set (as libwebp's `VP8CalculateLevelCosts`
/// does) rather than by walking the token tree bit by bit for every
/// candidate the mode search tries.
///
/// A level's cost splits in two: the bits of the token tree, which depend on
/// the probabilities (a table per plane, band and context of each of the
/// eleven tokens, and the "more levels" / "end of block" bit), and the bits
/// with fixed probabilities (the sign and a category's extra bits), which
/// depend on the level alone. `cost(_:first:plane:context:)` gives exactly
/// what `VP8TokenWriter.putBlock` into a `VP8BitCost` would count.
final class VP8LevelCosts {
    /// The largest level that is coded (`VP8QuantizerMatrix.maximumLevel`).
    private static let maximumLevel = Int(VP8QuantizerMatrix.maximumLevel)
    /// Plane × band × context slots; each holds 11 token costs.
    private static let slots = 4 * 8 * 3

    /// Each level's token (0...4 itself, 5: category 1, 6: category 2, 7...10:
    /// categories 3...6).
    private static let tokens: [UInt8] = (0...maximumLevel).map { v in
        switch v {
        case 0...4: UInt8(v)
        case 5...6: 5
        case 7...10: 6
        case 11...18: 7
        case 19...34: 8
        case 35...66: 9
        default: 10
        }
    }

    /// Each level's bits of fixed probability: its sign and its category's extra bits.
    private static let fixedCosts: [Int32] = (0...maximumLevel).map { v in
        guard v > 0 else { return 0 }
        var cost = VP8BitCost.cost(false, 128)
        switch v {
        case 0...4: break
        case 5...6: cost += VP8BitCost.cost(v == 6, 159)
        case 7...10: cost += VP8BitCost.cost(v >= 9, 165) + VP8BitCost.cost((v - 7) & 1 == 1, 145)
        default:
            let category = v < 19 ? 0 : v < 35 ? 1 : v < 67 ? 2 : 3
            let extra = v - (3 + (8 << category))
            let probabilities = VP8CoefficientReader.categoryProbabilities[category]
            for (i, probability) in probabilities.enumerated() {
                cost += VP8BitCost.cost((extra >> (probabilities.count - 1 - i)) & 1 == 1, probability)
            }
        }
        return Int32(cost)
    }

    /// `[slot * 11 + token]`: the token tree's bits after the first node.
    private let tokenCosts: UnsafeMutablePointer<Int32>
    /// `[slot]`: the first node's bit, "end of block" and "more levels".
    private let endCosts: UnsafeMutablePointer<Int32>
    private let moreCosts: UnsafeMutablePointer<Int32>

    /// The tables for `probabilities` (`[plane][band][context][node]`, 1056 entries).
    init(_ probabilities: [UInt8]) {
        tokenCosts = .allocate(capacity: Self.slots * 11)
        endCosts = .allocate(capacity: Self.slots)
        moreCosts = .allocate(capacity: Self.slots)
        for slot in 0..<Self.slots {
            let p = Array(probabilities[(slot * 11)..<(slot * 11 + 11)])
            func c(_ bit: Bool, _ node: Int) -> Int32 { Int32(VP8BitCost.cost(bit, p[node])) }
            endCosts[slot] = c(false, 0)
            moreCosts[slot] = c(true, 0)
            let large = c(true, 1) + c(true, 2)
            let costs: [Int32] = [
                c(false, 1),
                c(true, 1) + c(false, 2),
                large + c(false, 3) + c(false, 4),
                large + c(false, 3) + c(true, 4) + c(false, 5),
                large + c(false, 3) + c(true, 4) + c(true, 5),
                large + c(true, 3) + c(false, 6) + c(false, 7),
                large + c(true, 3) + c(false, 6) + c(true, 7),
                large + c(true, 3) + c(true, 6) + c(false, 8) + c(false, 9),
                large + c(true, 3) + c(true, 6) + c(false, 8) + c(true, 9),
                large + c(true, 3) + c(true, 6) + c(true, 8) + c(false, 10),
                large + c(true, 3) + c(true, 6) + c(true, 8) + c(true, 10),
            ]
            (tokenCosts + slot * 11).initialize(from: costs, count: 11)
        }
    }

    deinit {
        tokenCosts.deallocate()
        endCosts.deallocate()
        moreCosts.deallocate()
    }

    /// The cost (1/256 bit) of `levels` (zigzag order, each within
    /// ±`VP8QuantizerMatrix.maximumLevel`) from position `first` in `plane`
    /// (`VP8CoefficientReader.Plane`) with the neighbours' `context`
    /// (0...2), and whether any of them is non-zero.
    @inline(__always)
    func cost(_ levels: UnsafePointer<Int16>, first: Int, plane: Int, context: Int) -> (cost: Int, nonZero: Bool) {
        var last = -1
        for n in stride(from: 15, through: first, by: -1) where levels[n] != 0 { last = n; break }
        let base = plane * 24
        var slot = base + VP8CoefficientReader.band(first) * 3 + context
        guard last >= 0 else { return (Int(endCosts[slot]), false) }
        var total = moreCosts[slot]
        var n = first
        // Positions are at most 16 and levels bounded by the quantiser: no overflow, no index out of range.
        return Self.tokens.withUnsafeBufferPointer { tokens in
            Self.fixedCosts.withUnsafeBufferPointer { fixed in
                while true {
                    let v = min(Int(levels[n].magnitude), Self.maximumLevel)
                    total &+= tokenCosts[slot * 11 + Int(tokens[v])] &+ fixed[v]
                    n += 1
                    let band = VP8CoefficientReader.band(n) * 3
                    if v == 0 {
                        slot = base + band
                        continue
                    }
                    if n == 16 { break }
                    slot = base + band + (v == 1 ? 1 : 2)
                    if n > last {
                        total &+= endCosts[slot]
                        break
                    }
                    total &+= moreCosts[slot]
                }
                return (Int(total), true)
            }
        }
    }
}
