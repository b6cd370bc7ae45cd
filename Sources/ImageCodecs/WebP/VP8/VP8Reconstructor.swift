/// Rebuilds macroblocks from their prediction modes and coefficients (RFC
/// 6386 sections 12 and 14) in a small work area with room for the edges,
/// then copies them into the picture's planes.
///
/// Prediction reads the *unfiltered* neighbours, while the loop filter later
/// changes the planes; so the work area keeps the left neighbour's last
/// columns, and `above…` the bottom rows of the macroblock row above, as they
/// were before filtering. Layout (libwebp's): rows 32 bytes apart, luma at
/// row 1, column 8 (the corner and left edge before it, four above-right
/// pixels after the row above), then Cb and Cr side by side below.
struct VP8Reconstructor {
    /// The work area's row pitch (the encoder predicts in the same area).
    static let stride = 32
    private static let lumaOffset = stride + 8
    private static let cbOffset = lumaOffset + 16 * stride + stride
    private static let crOffset = cbOffset + 16

    private let work: UnsafeMutablePointer<UInt8>
    private let aboveLuma: UnsafeMutablePointer<UInt8>
    private let aboveCb: UnsafeMutablePointer<UInt8>
    private let aboveCr: UnsafeMutablePointer<UInt8>
    private let columns: Int
    private let rows: Int

    init(macroblockColumns: Int, macroblockRows: Int) {
        columns = macroblockColumns
        rows = macroblockRows
        work = .allocate(capacity: Self.stride * (17 + 9))
        work.initialize(repeating: 0, count: Self.stride * (17 + 9))
        aboveLuma = .allocate(capacity: columns * 16)
        aboveLuma.initialize(repeating: 127, count: columns * 16)
        aboveCb = .allocate(capacity: columns * 8)
        aboveCb.initialize(repeating: 127, count: columns * 8)
        aboveCr = .allocate(capacity: columns * 8)
        aboveCr.initialize(repeating: 127, count: columns * 8)
    }

    /// Frees the buffers; the reconstructor must not be used afterwards.
    func deallocate() {
        work.deallocate()
        aboveLuma.deallocate()
        aboveCb.deallocate()
        aboveCr.deallocate()
    }

    /// Sets the left edges for the first macroblock of row `y`: 129 down the
    /// left, and above the picture 127 along the top (the corner too).
    func startRow(_ y: Int) {
        let luma = work + Self.lumaOffset, cb = work + Self.cbOffset, cr = work + Self.crOffset
        for row in 0..<16 { luma[row * Self.stride - 1] = 129 }
        for row in 0..<8 { cb[row * Self.stride - 1] = 129; cr[row * Self.stride - 1] = 129 }
        if y > 0 {
            luma[-1 - Self.stride] = 129
            cb[-1 - Self.stride] = 129
            cr[-1 - Self.stride] = 129
        } else {
            (luma - Self.stride - 1).update(repeating: 127, count: 16 + 4 + 1)
            (cb - Self.stride - 1).update(repeating: 127, count: 8 + 1)
            (cr - Self.stride - 1).update(repeating: 127, count: 8 + 1)
        }
    }

    /// Predicts and reconstructs the macroblock at (`x`, `y`) and stores it
    /// in the planes (macroblock-aligned, rows `lumaStride`/`chromaStride` apart).
    /// The current macroblock's luma, Cb and Cr in the work area, edges
    /// around them (`stride` apart): where the encoder predicts and rebuilds.
    var luma: UnsafeMutablePointer<UInt8> { work + Self.lumaOffset }
    var cb: UnsafeMutablePointer<UInt8> { work + Self.cbOffset }
    var cr: UnsafeMutablePointer<UInt8> { work + Self.crOffset }

    /// Predicts and reconstructs the macroblock at (`x`, `y`) and stores it
    /// in the planes (macroblock-aligned, rows `lumaStride`/`chromaStride` apart).
    func reconstruct(x: Int, y: Int, modes: VP8MacroblockModes, subblockModes: [UInt8],
                     coefficients: UnsafeMutablePointer<Int16>,
                     transformKinds: UnsafeMutablePointer<VP8CoefficientReader.TransformKind>,
                     luma plane: UnsafeMutablePointer<UInt8>, lumaStride: Int,
                     cb cbPlane: UnsafeMutablePointer<UInt8>, cr crPlane: UnsafeMutablePointer<UInt8>, chromaStride: Int) {
        let stride = Self.stride
        let luma = self.luma, cb = self.cb, cr = self.cr
        loadEdges(x: x, y: y)
        if modes.usesSubblocks {
            loadAboveRight(x: x, y: y)
            for block in 0..<16 {
                let pixels = luma + (block >> 2) * 4 * stride + (block & 3) * 4
                VP8IntraPredictor.predictSubblock(subblockModes[block], pixels, stride: stride)
                addResidual(transformKinds[block], coefficients + block * 16, pixels)
            }
        } else {
            VP8IntraPredictor.predictBlock(VP8IntraMode.checked(modes.lumaMode, x: x, y: y), size: 16, luma, stride: stride)
            for block in 0..<16 {
                addResidual(transformKinds[block], coefficients + block * 16,
                            luma + (block >> 2) * 4 * stride + (block & 3) * 4)
            }
        }
        let chromaMode = VP8IntraMode.checked(modes.chromaMode, x: x, y: y)
        VP8IntraPredictor.predictBlock(chromaMode, size: 8, cb, stride: stride)
        VP8IntraPredictor.predictBlock(chromaMode, size: 8, cr, stride: stride)
        for block in 0..<4 {
            let offset = (block >> 1) * 4 * stride + (block & 1) * 4
            addResidual(transformKinds[16 + block], coefficients + (16 + block) * 16, cb + offset)
            addResidual(transformKinds[20 + block], coefficients + (20 + block) * 16, cr + offset)
        }
        store(x: x, y: y, luma: plane, lumaStride: lumaStride, cb: cbPlane, cr: crPlane, chromaStride: chromaStride)
    }

    /// Puts the edges of the macroblock at (`x`, `y`) around it in the work
    /// area: the left neighbour's last columns and the row above.
    func loadEdges(x: Int, y: Int) {
        let stride = Self.stride
        let luma = self.luma, cb = self.cb, cr = self.cr
        if x > 0 {
            // The previous macroblock's last four columns become the left edge
            // (the row above included: it holds the corner).
            for row in -1..<16 { (luma + row * stride - 4).update(from: luma + row * stride + 12, count: 4) }
            for row in -1..<8 {
                (cb + row * stride - 4).update(from: cb + row * stride + 4, count: 4)
                (cr + row * stride - 4).update(from: cr + row * stride + 4, count: 4)
            }
        }
        if y > 0 {
            (luma - stride).update(from: aboveLuma + x * 16, count: 16)
            (cb - stride).update(from: aboveCb + x * 8, count: 8)
            (cr - stride).update(from: aboveCr + x * 8, count: 8)
        }
    }

    /// The four pixels above-right of the macroblock, which 4×4 prediction
    /// reads; for the blocks of the right column below the first, the same
    /// four again (their real above-right neighbours are not decoded yet).
    func loadAboveRight(x: Int, y: Int) {
        let stride = Self.stride
        let aboveRight = luma - stride + 16
        if y > 0 {
            if x == columns - 1 {
                aboveRight.update(repeating: aboveLuma[x * 16 + 15], count: 4)
            } else {
                aboveRight.update(from: aboveLuma + x * 16 + 16, count: 4)
            }
        }
        for row in [4, 8, 12] { (aboveRight + row * stride).update(from: aboveRight, count: 4) }
    }

    /// Keeps the rebuilt macroblock's bottom row for the row below and copies
    /// it into the planes (`plane` may be nil when only the edges matter).
    func store(x: Int, y: Int, luma plane: UnsafeMutablePointer<UInt8>?, lumaStride: Int,
               cb cbPlane: UnsafeMutablePointer<UInt8>?, cr crPlane: UnsafeMutablePointer<UInt8>?, chromaStride: Int) {
        let stride = Self.stride
        let luma = self.luma, cb = self.cb, cr = self.cr
        if y < rows - 1 {
            (aboveLuma + x * 16).update(from: luma + 15 * stride, count: 16)
            (aboveCb + x * 8).update(from: cb + 7 * stride, count: 8)
            (aboveCr + x * 8).update(from: cr + 7 * stride, count: 8)
        }
        guard let plane, let cbPlane, let crPlane else { return }
        let lumaOut = plane + y * 16 * lumaStride + x * 16
        for row in 0..<16 { (lumaOut + row * lumaStride).update(from: luma + row * stride, count: 16) }
        let chromaOut = y * 8 * chromaStride + x * 8
        for row in 0..<8 {
            (cbPlane + chromaOut + row * chromaStride).update(from: cb + row * stride, count: 8)
            (crPlane + chromaOut + row * chromaStride).update(from: cr + row * stride, count: 8)
        }
    }

    @inline(__always)
    private func addResidual(_ kind: VP8CoefficientReader.TransformKind, _ block: UnsafeMutablePointer<Int16>,
                             _ pixels: UnsafeMutablePointer<UInt8>) {
        switch kind {
        case .none: break
        case .dcOnly: VP8InverseTransform.addInverseDC(block, to: pixels, stride: Self.stride)
        case .full: VP8InverseTransform.addInverseDCT(block, to: pixels, stride: Self.stride)
        }
    }
}
