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
    /// Per zigzag position, six numbers the inner loop reads in one place:
    /// the raster position, the zero threshold, the reciprocal, the
    /// rounding bias, the step and the sharpening (added to the magnitude
    /// before rounding).
    private let positions: [Int32]

    /// `biases` are the rounding offsets in 1/256 of a step (DC, AC).
    init(dc: Int32, ac: Int32, biases: (dc: Int32, ac: Int32), sharpens: Bool) {
        step = (dc, ac)
        let one: Int32 = 1 << Self.fractionBits
        reciprocal = (one / dc, one / ac)
        bias = (biases.dc << (Self.fractionBits - 8), biases.ac << (Self.fractionBits - 8))
        zeroThreshold = ((one - 1 - bias.dc) / reciprocal.dc, (one - 1 - bias.ac) / reciprocal.ac)
        // Up to 90/2048 of a step, rising with the frequency (row + column).
        let sharpening = (0..<16).map { (j: Int) -> Int32 in
            guard sharpens else { return 0 }
            let weight = Int32(min(30 * (j / 4 + j % 4), 90))
            return (weight * (j == 0 ? dc : ac)) >> 11
        }
        let (threshold, inverse, offset) = (zeroThreshold, reciprocal, bias)
        positions = (0..<16).flatMap { (n: Int) -> [Int32] in
            let j = VP8CoefficientReader.zigzag(n)
            return n == 0 ? [Int32(j), threshold.dc, inverse.dc, offset.dc, dc, sharpening[j]]
                : [Int32(j), threshold.ac, inverse.ac, offset.ac, ac, sharpening[j]]
        }
    }

    /// The mean step over a block (the DC and fifteen AC), which sets the lambdas.
    var meanStep: Int32 { (step.dc + 15 * step.ac + 8) >> 4 }

    /// Rounds a lone DC `value` to what the decoder will rebuild (a whole
    /// number of DC steps, or 0 at or below the zero threshold) and returns
    /// half the error left, as libwebp's chroma DC error diffusion keeps it.
    @inline(__always)
    func quantizeDC(_ value: inout Int16) -> Int {
        let magnitude = abs(Int32(value)), negative = value < 0
        var rebuilt: Int32 = 0
        if magnitude > zeroThreshold.dc {
            rebuilt = ((magnitude &* reciprocal.dc &+ bias.dc) >> Self.fractionBits) &* step.dc
        }
        value = Int16(truncatingIfNeeded: negative ? -rebuilt : rebuilt)
        let error = Int(magnitude - rebuilt)
        return (negative ? -error : error) >> 1
    }

    /// Quantises `coefficients` (raster order) from zigzag position `first`
    /// on into `levels` (zigzag order) and writes what the decoder will
    /// multiply back into `dequantized` (raster order; positions before
    /// `first` are left alone). Returns whether any level is non-zero.
    @inline(__always)
    func quantize(_ coefficients: UnsafePointer<Int16>, first: Int, levels: UnsafeMutablePointer<Int16>,
                  dequantized: UnsafeMutablePointer<Int16>) -> Bool {
        positions.withUnsafeBufferPointer { table in
            var any = false
            for n in first..<16 {
                let entry = table.baseAddress! + n * 6
                let j = Int(entry[0])
                let value = Int32(coefficients[j])
                let magnitude = abs(value) + entry[5]
                var level: Int32 = 0
                if magnitude > entry[1] {
                    level = min((magnitude &* entry[2] &+ entry[3]) >> Self.fractionBits, Self.maximumLevel)
                    if value < 0 { level = -level }
                }
                levels[n] = Int16(truncatingIfNeeded: level)
                dequantized[j] = Int16(truncatingIfNeeded: level &* entry[4])
                any = any || level != 0
            }
            return any
        }
    }
}
