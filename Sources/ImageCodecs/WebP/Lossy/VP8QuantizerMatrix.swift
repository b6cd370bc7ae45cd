/// How the encoder rounds one kind of block's coefficients (luma, Y2 or
/// chroma) to levels: a division by the dequantisation step in 17-bit fixed
/// point, with a rounding bias below one half (a coefficient just over a
/// half step costs more bits than its error saves), and for luma a slight
/// boost of the high frequencies, which quantisation would otherwise flatten.
struct VP8QuantizerMatrix {
    private static let fractionBits: Int32 = 17
    /// The largest level the encoder codes (category 6 reaches 2114).
    static let maximumLevel: Int32 = 2047

    /// The dequantisation steps of the DC and the AC coefficients.
    let step: (dc: Int32, ac: Int32)
    private let reciprocal: (dc: Int32, ac: Int32)
    private let bias: (dc: Int32, ac: Int32)
    /// At or below this magnitude a coefficient becomes level 0.
    private let zeroThreshold: (dc: Int32, ac: Int32)
    /// Added to each magnitude (raster order) before rounding.
    private let sharpening: [Int32]

    /// `biases` are the rounding offsets in 1/256 of a step (DC, AC).
    init(dc: Int32, ac: Int32, biases: (dc: Int32, ac: Int32), sharpens: Bool) {
        step = (dc, ac)
        let one: Int32 = 1 << Self.fractionBits
        reciprocal = (one / dc, one / ac)
        bias = (biases.dc << (Self.fractionBits - 8), biases.ac << (Self.fractionBits - 8))
        zeroThreshold = ((one - 1 - bias.dc) / reciprocal.dc, (one - 1 - bias.ac) / reciprocal.ac)
        // Up to 90/2048 of a step, rising with the frequency (row + column).
        sharpening = (0..<16).map { (j: Int) -> Int32 in
            guard sharpens else { return 0 }
            let weight = Int32(min(30 * (j / 4 + j % 4), 90))
            return (weight * (j == 0 ? dc : ac)) >> 11
        }
    }

    /// The mean step over a block (the DC and fifteen AC), which sets the lambdas.
    var meanStep: Int32 { (step.dc + 15 * step.ac + 8) >> 4 }

    /// Quantises `coefficients` (raster order) from zigzag position `first`
    /// on into `levels` (zigzag order) and writes what the decoder will
    /// multiply back into `dequantized` (raster order; positions before
    /// `first` are left alone). Returns whether any level is non-zero.
    @inline(__always)
    func quantize(_ coefficients: UnsafePointer<Int16>, first: Int, levels: UnsafeMutablePointer<Int16>,
                  dequantized: UnsafeMutablePointer<Int16>) -> Bool {
        var any = false
        for n in first..<16 {
            let j = VP8CoefficientReader.zigzag(n)
            let value = Int32(coefficients[j])
            let magnitude = abs(value) + sharpening[j]
            let (threshold, inverse, offset, q) = n == 0 ? (zeroThreshold.dc, reciprocal.dc, bias.dc, step.dc)
                : (zeroThreshold.ac, reciprocal.ac, bias.ac, step.ac)
            var level: Int32 = 0
            if magnitude > threshold {
                level = min((magnitude * inverse + offset) >> Self.fractionBits, Self.maximumLevel)
                if value < 0 { level = -level }
            }
            levels[n] = Int16(truncatingIfNeeded: level)
            dequantized[j] = Int16(truncatingIfNeeded: level * q)
            any = any || level != 0
        }
        return any
    }
}
