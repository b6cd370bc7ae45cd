import Foundation

/// Counts what bits would cost, in 1/256ths of a bit, instead of coding
/// them: the rate of the encoder's rate–distortion choices.
struct VP8BitCost: VP8BitSink {
    /// The cost so far, in 1/256 bit.
    var total = 0

    @inline(__always)
    mutating func put(_ bit: Bool, _ probability: UInt8) {
        total += Self.cost(bit, probability)
    }

    /// −log2 of the bit's probability, times 256.
    @inline(__always)
    static func cost(_ bit: Bool, _ probability: UInt8) -> Int {
        Int(zeroCosts[bit ? 256 - Int(probability) : Int(probability)])
    }

    /// `zeroCosts[p]`: the cost of a bit whose own probability is p/256
    /// (a one of probability p costs `zeroCosts[256 − p]`; p = 0 is never
    /// coded and is given the cost of p = 1).
    private static let zeroCosts: [UInt16] = (0...256).map { p in
        UInt16((-log2(Double(max(p, 1)) / 256) * 256).rounded())
    }
}
