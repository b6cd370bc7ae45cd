/// Counts the zeros and ones coded with each coefficient probability, so
/// that the frame header can replace a default probability by the one the
/// picture's tokens call for where that saves more than the update costs.
struct VP8TokenStatistics: VP8BitSink {
    /// `[index][bit]`: how often each token probability coded a zero and a one.
    private(set) var counts = [UInt32](repeating: 0, count: VP8Tables.defaultCoefficientProbabilities.count * 2)

    mutating func put(_ bit: Bool, _ probability: UInt8) {}

    mutating func put(_ bit: Bool, _ probability: UInt8, tokenProbability index: Int) {
        counts[index * 2 + (bit ? 1 : 0)] += 1
    }

    /// The probabilities to code the tokens with: each default, or the one
    /// its counts give when coding with it, plus the update (flag and eight
    /// bits), costs fewer bits than the default and a "no update" flag.
    func updatedProbabilities() -> [UInt8] {
        var probabilities = VP8Tables.defaultCoefficientProbabilities
        for index in probabilities.indices {
            let zeros = Int(counts[index * 2]), ones = Int(counts[index * 2 + 1])
            let total = zeros + ones
            guard total > 0 else { continue }
            let old = probabilities[index], update = VP8Tables.coefficientUpdateProbabilities[index]
            let new = UInt8(min(max((zeros * 255 + total / 2) / total, 1), 255))
            func cost(_ p: UInt8) -> Int { zeros * VP8BitCost.cost(false, p) + ones * VP8BitCost.cost(true, p) }
            let keep = cost(old) + VP8BitCost.cost(false, update)
            let replace = cost(new) + VP8BitCost.cost(true, update) + 8 * 256
            if replace < keep { probabilities[index] = new }
        }
        return probabilities
    }
}
