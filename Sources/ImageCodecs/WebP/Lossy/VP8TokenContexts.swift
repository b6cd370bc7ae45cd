/// Writes macroblocks' tokens in raster order with the neighbour contexts
/// `VP8CoefficientReader` keeps (whether the block above and the block left
/// had levels), into any `VP8BitSink`: the frame's token partition, or the
/// statistics the encoder gathers while it codes.
struct VP8TokenContexts {
    /// Per column: the nine flags along the bottom edge (4 luma, 2 Cb, 2 Cr, Y2).
    private var above: [UInt8]
    /// The left macroblock's nine flags along its right edge.
    private var left = [UInt8](repeating: 0, count: 9)

    /// Contexts for a picture `columns` macroblocks wide.
    init(columns: Int) {
        above = [UInt8](repeating: 0, count: columns * 9)
    }

    /// Puts `macroblock`'s tokens (column `x`; column 0 starts a row); an
    /// empty one writes none when `skips` (the frame codes skip flags).
    mutating func put<S: VP8BitSink>(_ macroblock: VP8EncodedMacroblock, x: Int, skips: Bool,
                                     probabilities: UnsafePointer<UInt8>, into sink: inout S) {
        let top = x * 9
        if x == 0 { for i in 0..<9 { left[i] = 0 } }
        if skips, macroblock.isEmpty {
            for i in 0..<8 { above[top + i] = 0; left[i] = 0 }
            if !macroblock.usesSubblocks { above[top + 8] = 0; left[8] = 0 }
            return
        }
        macroblock.levels.withUnsafeBufferPointer { levels in
            let l = levels.baseAddress!
            func put(_ block: Int, first: Int, plane: Int, _ a: Int, _ b: Int) {
                let nonZero: UInt8 = VP8TokenWriter.putBlock(l + block * 16, first: first, plane: plane,
                                                             context: Int(above[top + a] + left[b]),
                                                             probabilities: probabilities, into: &sink) ? 1 : 0
                above[top + a] = nonZero
                left[b] = nonZero
            }
            let first: Int, lumaPlane: Int
            if macroblock.usesSubblocks {
                (first, lumaPlane) = (0, VP8CoefficientReader.Plane.lumaWithDC)
            } else {
                put(24, first: 0, plane: VP8CoefficientReader.Plane.y2, 8, 8)
                (first, lumaPlane) = (1, VP8CoefficientReader.Plane.lumaAfterY2)
            }
            for block in 0..<16 { put(block, first: first, plane: lumaPlane, block & 3, block >> 2) }
            for chroma in 0..<2 {
                for block in 0..<4 {
                    put(16 + chroma * 4 + block, first: 0, plane: VP8CoefficientReader.Plane.chroma,
                        4 + chroma * 2 + (block & 1), 4 + chroma * 2 + (block >> 1))
                }
            }
        }
    }
}
