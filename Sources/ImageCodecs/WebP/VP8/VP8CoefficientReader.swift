/// Reads a macroblock's quantised coefficients from its token partition
/// (RFC 6386 section 13) and dequantises them: up to 25 blocks of 16 (the Y2
/// block of a 16×16-predicted macroblock, sixteen luma, four Cb, four Cr),
/// each token read with probabilities chosen by the block type, the
/// coefficient's band and whether the neighbouring blocks had coefficients.
///
/// Output: `coefficients` (384 values, 16 per block in raster order: luma
/// 0...15, Cb 16...19, Cr 20...23) and, per block, how much of its inverse
/// transform is needed (`transformKinds`).
struct VP8CoefficientReader {
    /// The block types (planes) of section 13.3, indexing the probabilities.
    enum Plane {
        static let lumaAfterY2 = 0, y2 = 1, chroma = 2, lumaWithDC = 3
    }

    /// How much of a block's inverse DCT is needed.
    enum TransformKind: UInt8 {
        /// Every coefficient is zero: the prediction stands.
        case none
        /// Only the DC: the same value is added to all sixteen pixels.
        case dcOnly
        /// The full transform.
        case full
    }

    /// `[plane][band][context][node]`, the frame's probabilities.
    private let probabilities: UnsafeMutablePointer<UInt8>
    /// Per macroblock column, whether the blocks along its bottom edge had
    /// coefficients: 4 luma, 2 Cb, 2 Cr, then the Y2 block (9 flags).
    private let above: UnsafeMutablePointer<UInt8>
    /// The same for the right edge of the macroblock to the left.
    private let left: UnsafeMutablePointer<UInt8>
    let coefficients: UnsafeMutablePointer<Int16>
    let transformKinds: UnsafeMutablePointer<TransformKind>
    private let columns: Int

    init(probabilities: [UInt8], macroblockColumns: Int) {
        self.probabilities = .allocate(capacity: probabilities.count)
        self.probabilities.initialize(from: probabilities, count: probabilities.count)
        columns = macroblockColumns
        above = .allocate(capacity: macroblockColumns * 9)
        above.initialize(repeating: 0, count: macroblockColumns * 9)
        left = .allocate(capacity: 9)
        left.initialize(repeating: 0, count: 9)
        // 24 blocks, then the Y2 block.
        coefficients = .allocate(capacity: 400)
        coefficients.initialize(repeating: 0, count: 400)
        transformKinds = .allocate(capacity: 24)
        transformKinds.initialize(repeating: .none, count: 24)
    }

    /// Frees the buffers; the reader must not be used afterwards.
    func deallocate() {
        probabilities.deallocate()
        above.deallocate()
        left.deallocate()
        coefficients.deallocate()
        transformKinds.deallocate()
    }

    /// A new row of macroblocks: nothing to the left has coefficients.
    func startRow() {
        left.update(repeating: 0, count: 9)
    }

    /// Reads the coefficients of the macroblock in column `x`; returns false
    /// when all are zero (its inner edges are then not loop-filtered).
    func read(_ partition: inout VP8BoolDecoder, column x: Int, modes: VP8MacroblockModes,
              quantizer: VP8Quantizer) -> Bool {
        // A local copy the optimiser can keep in registers: the coefficient
        // stores below could otherwise alias the caller's decoder.
        var decoder = partition
        defer { partition = decoder }
        let top = above + x * 9
        coefficients.update(repeating: 0, count: 400)
        if modes.skipsCoefficients {
            // No tokens: every block counts as empty for its neighbours, but
            // the Y2 context survives a 4×4 macroblock, which has no Y2 block.
            top.update(repeating: 0, count: 8)
            left.update(repeating: 0, count: 8)
            if !modes.usesSubblocks { top[8] = 0; left[8] = 0 }
            transformKinds.update(repeating: .none, count: 24)
            return false
        }
        var anyNonZero = false
        let lumaPlane: Int
        let first: Int
        if !modes.usesSubblocks {
            let y2 = coefficients + 384
            let count = readBlock(&decoder, plane: Plane.y2, context: Int(top[8] + left[8]), first: 0,
                                  dc: quantizer.y2DC, ac: quantizer.y2AC, into: y2)
            top[8] = count > 0 ? 1 : 0
            left[8] = top[8]
            VP8InverseTransform.inverseWalshHadamard(y2, count: count, into: coefficients)
            lumaPlane = Plane.lumaAfterY2
            first = 1
        } else {
            lumaPlane = Plane.lumaWithDC
            first = 0
        }
        for row in 0..<4 {
            for column in 0..<4 {
                let block = row * 4 + column
                let output = coefficients + block * 16
                let count = readBlock(&decoder, plane: lumaPlane, context: Int(top[column] + left[row]),
                                      first: first, dc: quantizer.y1DC, ac: quantizer.y1AC, into: output)
                let nonZero: UInt8 = count > first ? 1 : 0
                top[column] = nonZero
                left[row] = nonZero
                transformKinds[block] = count > 1 ? .full : output[0] != 0 ? .dcOnly : .none
                anyNonZero = anyNonZero || transformKinds[block] != .none
            }
        }
        for chroma in 0..<2 {
            for row in 0..<2 {
                for column in 0..<2 {
                    let block = 16 + chroma * 4 + row * 2 + column
                    let output = coefficients + block * 16
                    let topIndex = 4 + chroma * 2 + column, leftIndex = 4 + chroma * 2 + row
                    let count = readBlock(&decoder, plane: Plane.chroma, context: Int(top[topIndex] + left[leftIndex]),
                                          first: 0, dc: quantizer.uvDC, ac: quantizer.uvAC, into: output)
                    let nonZero: UInt8 = count > 0 ? 1 : 0
                    top[topIndex] = nonZero
                    left[leftIndex] = nonZero
                    transformKinds[block] = count > 1 ? .full : output[0] != 0 ? .dcOnly : .none
                    anyNonZero = anyNonZero || transformKinds[block] != .none
                }
            }
        }
        return anyNonZero
    }

    /// Reads one block's tokens from coefficient `first` on, writing the
    /// dequantised values in raster order; returns the position after the
    /// last token read (0 when the block ends at once, so "count > first"
    /// means "has a coefficient").
    @inline(__always)
    private func readBlock(_ partition: inout VP8BoolDecoder, plane: Int, context: Int, first: Int,
                           dc: Int32, ac: Int32, into output: UnsafeMutablePointer<Int16>) -> Int {
        var decoder = partition  // in registers for the block, stored back once
        defer { partition = decoder }
        let base = probabilities + plane * (8 * 3 * 11)
        var n = first
        var p = base + VP8CoefficientReader.band(n) * 33 + context * 11
        while n < 16 {
            if !decoder.readBit(p[0]) { return n }  // end of block
            while !decoder.readBit(p[1]) {  // a zero; no end of block can follow it
                n += 1
                if n == 16 { return 16 }
                p = base + VP8CoefficientReader.band(n) * 33
            }
            let next = base + VP8CoefficientReader.band(n + 1) * 33
            let magnitude: Int32
            if !decoder.readBit(p[2]) {
                magnitude = 1
                p = next + 11
            } else {
                magnitude = Int32(VP8CoefficientReader.readLargeValue(&decoder, p))
                p = next + 22
            }
            let value = decoder.readSign(magnitude)
            // libwebp keeps the product in 16 bits; a hostile stream may overflow it.
            output[VP8CoefficientReader.zigzag(n)] = Int16(truncatingIfNeeded: value &* (n > 0 ? ac : dc))
            n += 1
        }
        return 16
    }

    /// A token of 2 or more: DCT_2...DCT_4 or a category with extra bits (section 13.2).
    private static func readLargeValue(_ decoder: inout VP8BoolDecoder, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        if !decoder.readBit(p[3]) {
            if !decoder.readBit(p[4]) { return 2 }
            return 3 + (decoder.readBit(p[5]) ? 1 : 0)
        }
        if !decoder.readBit(p[6]) {
            if !decoder.readBit(p[7]) { return 5 + (decoder.readBit(159) ? 1 : 0) }  // category 1
            var value = 7 + (decoder.readBit(165) ? 2 : 0)  // category 2
            value += decoder.readBit(145) ? 1 : 0
            return value
        }
        let high = decoder.readBit(p[8]) ? 1 : 0
        let low = decoder.readBit(p[9 + high]) ? 1 : 0
        let category = 2 * high + low  // categories 3...6
        var extra = 0
        for probability in categoryProbabilities[category] {
            extra = extra << 1 | (decoder.readBit(probability) ? 1 : 0)
        }
        return extra + 3 + (8 << category)
    }

    /// The extra bits' probabilities of categories 3 to 6.
    static let categoryProbabilities: [[UInt8]] = [
        [173, 148, 140],
        [176, 155, 140, 135],
        [180, 157, 141, 134, 130],
        [254, 254, 243, 230, 196, 177, 153, 140, 133, 130, 129],
    ]

    /// The band of coefficient `n` (0...16; 16 is past the end, band 0).
    @inline(__always)
    static func band(_ n: Int) -> Int {
        // 0 1 2 3 6 4 5 6 6 6 6 6 6 6 6 7 0, four bits each.
        // Past the end (n = 16) the masked shift wraps to 0: nibble 0, band 0.
        Int(truncatingIfNeeded: (0x7666_6666_6546_3210 as UInt64) &>> UInt64(n * 4)) & 15
    }

    /// The raster position of the `n`th coefficient in zigzag order.
    @inline(__always)
    static func zigzag(_ n: Int) -> Int {
        // 0 1 4 8 5 2 3 6 9 12 13 10 7 11 14 15, four bits each.
        Int(truncatingIfNeeded: (0xFEB7_ADC9_6325_8410 as UInt64) &>> UInt64(n * 4)) & 15
    }
}
