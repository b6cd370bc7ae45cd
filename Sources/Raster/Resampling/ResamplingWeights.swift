import Foundation

/// Precomputed fixed-point weights for one axis of a separable resize: for each
/// output index, the first source index and `taps` weights (zero-padded).
///
/// The layout follows Pillow's `precompute_coeffs` (centre at `(i + 0.5) * scale`,
/// kernel widened by the scale when shrinking) so the results are comparable.
struct ResamplingWeights {
    /// Fixed-point precision of the weights: 22 bits keeps 255 × Σ|w| inside Int32.
    static let precisionBits = 22
    let taps: Int
    /// First source index per output index.
    var starts: [Int32]
    /// Number of weights actually used per output index.
    var counts: [Int32]
    /// `taps` weights per output index.
    var weights: [Int32]

    init(inputSize: Int, outputSize: Int, filter: ResamplingFilter) {
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        // Never more taps than source pixels: bounds memory for extreme downscales.
        taps = max(1, min(inputSize + 1, Int(ceil(support)) * 2 + 1))
        starts = [Int32](repeating: 0, count: outputSize)
        counts = [Int32](repeating: 0, count: outputSize)
        weights = [Int32](repeating: 0, count: outputSize * taps)
        var row = [Double](repeating: 0, count: taps)
        let one = Double(1 << Self.precisionBits)
        for i in 0..<outputSize {
            let center = (Double(i) + 0.5) * scale
            if filter == .nearest {
                starts[i] = Int32(min(inputSize - 1, Int(center)))
                counts[i] = 1
                weights[i * taps] = Int32(1 << Self.precisionBits)
                continue
            }
            let lo = min(inputSize - 1, max(0, Int(center - support + 0.5)))
            let hi = min(inputSize, Int(center + support + 0.5))
            let n = min(taps, max(0, hi - lo))
            var total = 0.0
            for k in 0..<n {
                let w = filter.weight((Double(k + lo) - center + 0.5) / filterScale)
                row[k] = w
                total += w
            }
            if total == 0 { row[0] = 1; total = 1 }
            starts[i] = Int32(lo)
            counts[i] = Int32(max(n, 1))
            for k in 0..<max(n, 1) {
                weights[i * taps + k] = Int32((row[k] / total * one).rounded())
            }
        }
    }
}
