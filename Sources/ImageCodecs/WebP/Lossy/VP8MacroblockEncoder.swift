/// Chooses each macroblock's prediction and quantised levels by
/// rate–distortion, as libwebp does at its default effort: every 16×16 mode
/// (the best scored 256·SSE + λ·bits), then the 4×4 modes block by block
/// (given up as soon as their running score passes the 16×16 one, both
/// weighed by the mode lambda), then the chroma modes, their DCs corrected
/// by the rounding errors of the chroma blocks before them. Modes other
/// than DC that leave a block nearly empty pay a flatness penalty, as in
/// libwebp. Luma distortion is the squared error plus the texture lost
/// (`VP8TextureDistortion`), as libwebp weighs it at its default effort. Rates are the exact bit costs of the tokens and modes: the
/// modes under their fixed probabilities, the tokens from `VP8LevelCosts`
/// under the probabilities the picture's tokens so far call for, refreshed
/// by the caller as libwebp refreshes its cost tables.
///
/// Prediction and reconstruction happen in a `VP8Reconstructor`'s work area,
/// so the encoder predicts from exactly the pixels the decoder will have.
///
/// Output: a `VP8EncodedMacroblock` per macroblock.
final class VP8MacroblockEncoder {
    private let parameters: VP8EncodingParameters
    /// The quantisers of the macroblock being encoded (its segment's).
    private var segment: VP8SegmentParameters
    private let reconstructor: VP8Reconstructor
    private let source: VP8SourcePicture
    /// The rates of levels under the token probabilities the picture's
    /// tokens so far call for (`useProbabilities(_:)` refreshes them).
    private var costs: VP8LevelCosts
    /// Per column: whether each block along the bottom edge has levels (4
    /// luma, 2 Cb, 2 Cr, Y2), as `VP8CoefficientReader` keeps them.
    private var aboveNonZero: [UInt8]
    private var leftNonZero = [UInt8](repeating: 0, count: 9)
    /// Per column: the bottom row's 4×4 modes; and the left macroblock's right column.
    private var aboveModes: [UInt8]
    private var leftModes = [UInt8](repeating: 0, count: 4)
    /// The chroma DC error diffusion's state (libwebp's at quality ≤ 98):
    /// per column the halved errors the bottom Cb and Cr blocks pass down
    /// (`x * 4 + plane * 2 + column`), and those the right column passes on
    /// (`plane * 2 + row`).
    private var aboveDiffusion: [Int]
    private var leftDiffusion = [Int](repeating: 0, count: 4)

    /// libwebp's flatness rule: a mode other than DC whose levels have at
    /// most this many non-zero AC levels pays `flatnessPenalty` (about one
    /// bit per block), so that flat areas keep the simplest prediction.
    private static let flatnessLimitSubblock = 3
    private static let flatnessLimitChroma = 2
    private static let flatnessPenalty = 140

    /// Scratch: coefficients and dequantised values (25 blocks), candidate
    /// and best levels, rebuilt pixels.
    private let coefficients = UnsafeMutablePointer<Int16>.allocate(capacity: 400)
    private let dequantized = UnsafeMutablePointer<Int16>.allocate(capacity: 400)
    private let candidate = UnsafeMutablePointer<Int16>.allocate(capacity: 400)
    private let best = UnsafeMutablePointer<Int16>.allocate(capacity: 400)
    private let rebuilt = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    private let bestRebuilt = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    /// The texture (`VP8TextureDistortion.texture`) of each 4×4 block of the
    /// source macroblock, measured once for all the modes tried on it.
    private let sourceTextures = UnsafeMutablePointer<Int>.allocate(capacity: 16)

    /// The cost of each 4×4 mode given the modes above and left, `[above][left][mode]`.
    private static let subblockModeCosts: [Int] = (0..<1000).map { i in
        var cost = VP8BitCost()
        VP8TokenWriter.putSubblockMode(UInt8(i % 10), above: UInt8(i / 100), left: UInt8(i / 10 % 10), into: &cost)
        return cost.total
    }
    private static let lumaModeCosts: [Int] = (0..<4).map { mode in
        var cost = VP8BitCost()
        VP8TokenWriter.putLumaMode(UInt8(mode), into: &cost)
        return cost.total
    }
    private static let chromaModeCosts: [Int] = (0..<4).map { mode in
        var cost = VP8BitCost()
        VP8TokenWriter.putChromaMode(UInt8(mode), into: &cost)
        return cost.total
    }
    private static let wholeBlockModes = [VP8IntraMode.dc, VP8IntraMode.trueMotion, VP8IntraMode.vertical, VP8IntraMode.horizontal]

    init(source: VP8SourcePicture, parameters: VP8EncodingParameters) {
        self.source = source
        self.parameters = parameters
        segment = parameters.segments[0]
        costs = VP8LevelCosts(VP8Tables.defaultCoefficientProbabilities)
        reconstructor = VP8Reconstructor(macroblockColumns: source.macroblockColumns, macroblockRows: source.macroblockRows)
        aboveNonZero = [UInt8](repeating: 0, count: source.macroblockColumns * 9)
        aboveModes = [UInt8](repeating: VP8IntraMode.dc, count: source.macroblockColumns * 4)
        aboveDiffusion = [Int](repeating: 0, count: source.macroblockColumns * 4)
        for buffer in [coefficients, dequantized, candidate, best] { buffer.initialize(repeating: 0, count: 400) }
        rebuilt.initialize(repeating: 0, count: 256)
        bestRebuilt.initialize(repeating: 0, count: 256)
        sourceTextures.initialize(repeating: 0, count: 16)
    }

    deinit {
        reconstructor.deallocate()
        for buffer in [coefficients, dequantized, candidate, best] { buffer.deallocate() }
        rebuilt.deallocate()
        bestRebuilt.deallocate()
        sourceTextures.deallocate()
    }

    /// Rates from now on follow `probabilities` (`[plane][band][context][node]`).
    func useProbabilities(_ probabilities: [UInt8]) {
        costs = VP8LevelCosts(probabilities)
    }

    /// A new row of macroblocks: empty, DC-predicted neighbours on the left.
    func startRow(_ y: Int) {
        reconstructor.startRow(y)
        for i in leftNonZero.indices { leftNonZero[i] = 0 }
        for i in leftModes.indices { leftModes[i] = VP8IntraMode.dc }
        for i in leftDiffusion.indices { leftDiffusion[i] = 0 }
    }

    /// Encodes the macroblock at (`x`, `y`) into `macroblock`.
    func encode(x: Int, y: Int, into macroblock: inout VP8EncodedMacroblock) {
        segment = parameters.segments[Int(parameters.segmentOf[y * source.macroblockColumns + x])]
        reconstructor.loadEdges(x: x, y: y)
        reconstructor.loadAboveRight(x: x, y: y)
        source.luma.withUnsafeBufferPointer { plane in
            let stride = source.lumaStride, origin = plane.baseAddress! + y * 16 * stride + x * 16
            for block in 0..<16 {
                sourceTextures[block] = VP8TextureDistortion.texture(origin + (block >> 2) * 4 * stride + (block & 3) * 4, stride)
            }
        }
        macroblock.usesSubblocks = false
        let wholeScore = chooseWholeBlock(x: x, y: y, into: &macroblock)
        if !chooseSubblocks(x: x, y: y, beating: wholeScore, into: &macroblock) {
            // The 16×16 prediction stands: its pixels back in place, its contexts.
            let stride = VP8Reconstructor.stride
            for row in 0..<16 { (reconstructor.luma + row * stride).update(from: bestRebuilt + row * 16, count: 16) }
            macroblock.levels.withUnsafeMutableBufferPointer { levels in
                for block in 0..<16 { levels.baseAddress!.advanced(by: block * 16).update(from: best + block * 16, count: 16) }
                levels.baseAddress!.advanced(by: 384).update(from: best + 384, count: 16)
            }
            for i in 0..<4 {
                let column = (0..<4).contains { row in macroblock.hasLevels(block: row * 4 + i, first: 1) }
                let row = (0..<4).contains { column in macroblock.hasLevels(block: i * 4 + column, first: 1) }
                aboveNonZero[x * 9 + i] = column ? 1 : 0
                leftNonZero[i] = row ? 1 : 0
                aboveModes[x * 4 + i] = macroblock.lumaMode
                leftModes[i] = macroblock.lumaMode
            }
            let y2 = macroblock.hasLevels(block: 24, first: 0) ? UInt8(1) : 0
            aboveNonZero[x * 9 + 8] = y2
            leftNonZero[8] = y2
        }
        chooseChroma(x: x, y: y, into: &macroblock)
        reconstructor.store(x: x, y: y, luma: nil, lumaStride: 0, cb: nil, cr: nil, chromaStride: 0)
    }

    // MARK: 16×16 luma

    /// Tries the four 16×16 modes; leaves the best one's levels in `best`
    /// (blocks 0...15 and 24), its pixels in `bestRebuilt` and its mode in
    /// `macroblock`, and returns its score with the rate weighed by the mode
    /// lambda: the score the 4×4 modes have to beat, as libwebp compares
    /// them (weighing the 16×16 rate by its own, far larger lambda there
    /// too handed the choice to 4×4 prediction and its costlier headers).
    private func chooseWholeBlock(x: Int, y: Int, into macroblock: inout VP8EncodedMacroblock) -> Int {
        // A local copy: the class's property would be checked for exclusive access at every use.
        let segment = self.segment
        let stride = VP8Reconstructor.stride
        let luma = reconstructor.luma
        let sourceStride = source.lumaStride
        var bestScore = Int.max, bestModeScore = Int.max
        let costs = self.costs
        let aboveContext = SIMD4(aboveNonZero[x * 9], aboveNonZero[x * 9 + 1], aboveNonZero[x * 9 + 2], aboveNonZero[x * 9 + 3])
        let leftContext = SIMD4(leftNonZero[0], leftNonZero[1], leftNonZero[2], leftNonZero[3])
        source.luma.withUnsafeBufferPointer { plane in
            let origin = plane.baseAddress! + y * 16 * sourceStride + x * 16
            for mode in Self.wholeBlockModes {
                VP8IntraPredictor.predictBlock(VP8IntraMode.checked(mode, x: x, y: y), size: 16, luma, stride: stride)
                for block in 0..<16 {
                    let offset = (block >> 2) * 4, column = (block & 3) * 4
                    VP8ForwardTransform.dct(origin + offset * sourceStride + column, sourceStride: sourceStride,
                                            luma + offset * stride + column, predictionStride: stride,
                                            into: coefficients + block * 16)
                }
                VP8ForwardTransform.walshHadamard(coefficients, into: coefficients + 384)
                _ = segment.y2.quantize(coefficients + 384, first: 0, levels: candidate + 384, dequantized: dequantized + 384)
                VP8InverseTransform.inverseWalshHadamard(dequantized + 384, count: 16, into: dequantized)
                var hasAC: UInt16 = 0
                for block in 0..<16 {
                    if segment.luma.quantize(coefficients + block * 16, first: 1, levels: candidate + block * 16,
                                             dequantized: dequantized + block * 16) {
                        hasAC |= 1 << block
                    }
                    candidate[block * 16] = 0
                }
                for row in 0..<16 { (rebuilt + row * 16).update(from: luma + row * stride, count: 16) }
                for block in 0..<16 {
                    // A block without coefficients adds nothing; one with only its DC adds a constant.
                    let pixels = rebuilt + (block >> 2) * 64 + (block & 3) * 4
                    if hasAC & (1 << block) != 0 {
                        VP8InverseTransform.addInverseDCT(dequantized + block * 16, to: pixels, stride: 16)
                    } else if dequantized[block * 16] != 0 {
                        VP8InverseTransform.addInverseDC(dequantized + block * 16, to: pixels, stride: 16)
                    }
                }
                let texture = VP8TextureDistortion.distortion16x16(sourceTextures: sourceTextures, rebuilt, 16)
                let distortion = Self.squaredError(origin, sourceStride, rebuilt, 16, width: 16, height: 16)
                    + (segment.lambdaTexture * texture + 128) >> 8
                var rate = costs.cost(candidate + 384, first: 0, plane: VP8CoefficientReader.Plane.y2,
                                      context: Int(aboveNonZero[x * 9 + 8] + leftNonZero[8])).cost
                var above = aboveContext, left = leftContext
                for block in 0..<16 {
                    let (cost, nonZero) = costs.cost(candidate + block * 16, first: 1,
                                                     plane: VP8CoefficientReader.Plane.lumaAfterY2,
                                                     context: Int(above[block & 3] &+ left[block >> 2]))
                    rate += cost
                    above[block & 3] = nonZero ? 1 : 0
                    left[block >> 2] = nonZero ? 1 : 0
                }
                rate += Self.lumaModeCosts[Int(mode)]
                let score = 256 * distortion + segment.lambdaWholeBlock * rate
                if score < bestScore {
                    bestScore = score
                    bestModeScore = 256 * distortion + segment.lambdaMode * rate
                    macroblock.lumaMode = mode
                    best.update(from: candidate, count: 256)
                    (best + 384).update(from: candidate + 384, count: 16)
                    bestRebuilt.update(from: rebuilt, count: 256)
                }
            }
        }
        return bestModeScore
    }

    // MARK: 4×4 luma

    /// Tries the ten modes of each 4×4 block in turn, rebuilding each in
    /// place (each block's mode the best under the 4×4 lambda, then weighed
    /// by the mode lambda in the running score, as libwebp weighs them);
    /// returns false (the work area then holds partial blocks) once the
    /// running score reaches `wholeScore`, or else true with the modes,
    /// levels and contexts stored.
    private func chooseSubblocks(x: Int, y: Int, beating wholeScore: Int, into macroblock: inout VP8EncodedMacroblock) -> Bool {
        // A local copy: the class's property would be checked for exclusive access at every use.
        let segment = self.segment
        let stride = VP8Reconstructor.stride
        let luma = reconstructor.luma
        let sourceStride = source.lumaStride
        var above = Array(aboveNonZero[(x * 9)..<(x * 9 + 4)]), left = Array(leftNonZero[0..<4])
        var modesAbove = Array(aboveModes[(x * 4)..<(x * 4 + 4)]), modesLeft = leftModes
        var total = segment.lambdaMode * VP8BitCost.cost(false, 145)
        let block4 = UnsafeMutablePointer<UInt8>.allocate(capacity: 16)
        defer { block4.deallocate() }
        let costs = self.costs
        let won: Bool = source.luma.withUnsafeBufferPointer { plane in
            do {
                for block in 0..<16 {
                    let row = block >> 2, column = block & 3
                    let pixels = luma + row * 4 * stride + column * 4
                    let origin = plane.baseAddress! + (y * 16 + row * 4) * sourceStride + x * 16 + column * 4
                    let levels = candidate + block * 16, coefficients = self.coefficients + block * 16
                    let dequantized = self.dequantized + block * 16
                    var bestBlockScore = Int.max, bestModeScore = 0, bestMode = VP8IntraMode.dc, bestNonZero: UInt8 = 0
                    for mode in UInt8(0)..<10 {
                        VP8IntraPredictor.predictSubblock(mode, pixels, stride: stride)
                        VP8ForwardTransform.dct(origin, sourceStride: sourceStride, pixels, predictionStride: stride,
                                                into: coefficients)
                        let any = segment.luma.quantize(coefficients, first: 0, levels: levels, dequantized: dequantized)
                        for r in 0..<4 { (block4 + r * 4).update(from: pixels + r * stride, count: 4) }
                        if any { VP8InverseTransform.addInverseDCT(dequantized, to: block4, stride: 4) }
                        let texture = VP8TextureDistortion.distortion4x4(sourceTexture: sourceTextures[block], block4, 4)
                        let distortion = Self.squaredError(origin, sourceStride, block4, 4, width: 4, height: 4)
                            + (segment.lambdaTexture * texture + 128) >> 8
                        let header = Self.subblockModeCosts[(Int(modesAbove[column]) * 10 + Int(modesLeft[row])) * 10 + Int(mode)]
                        var rate = header
                        if mode > 0 && Self.isFlat(levels, blocks: 1, limit: Self.flatnessLimitSubblock) {
                            rate += Self.flatnessPenalty
                        }
                        // Already worse before its tokens are counted: no need to count them.
                        if 256 * distortion + segment.lambdaSubblock * rate >= bestBlockScore { continue }
                        let (tokens, nonZero) = costs.cost(levels, first: 0, plane: VP8CoefficientReader.Plane.lumaWithDC,
                                                           context: Int(above[column] + left[row]))
                        rate += tokens
                        let score = 256 * distortion + segment.lambdaSubblock * rate
                        if score < bestBlockScore {
                            bestBlockScore = score
                            bestModeScore = 256 * distortion + segment.lambdaMode * rate
                            bestMode = mode
                            bestNonZero = nonZero ? 1 : 0
                            macroblock.levels.withUnsafeMutableBufferPointer {
                                $0.baseAddress!.advanced(by: block * 16).update(from: levels, count: 16)
                            }
                            for r in 0..<4 { (rebuilt + block * 16 + r * 4).update(from: block4 + r * 4, count: 4) }
                        }
                    }
                    for r in 0..<4 { (pixels + r * stride).update(from: rebuilt + block * 16 + r * 4, count: 4) }
                    above[column] = bestNonZero
                    left[row] = bestNonZero
                    modesAbove[column] = bestMode
                    modesLeft[row] = bestMode
                    macroblock.subblockModes[block] = bestMode
                    total += bestModeScore
                    if total >= wholeScore { return false }
                }
                return true
            }
        }
        guard won else { return false }
        macroblock.usesSubblocks = true
        macroblock.levels.withUnsafeMutableBufferPointer { $0.baseAddress!.advanced(by: 384).update(repeating: 0, count: 16) }
        for i in 0..<4 {
            aboveNonZero[x * 9 + i] = above[i]
            leftNonZero[i] = left[i]
            aboveModes[x * 4 + i] = modesAbove[i]
            leftModes[i] = modesLeft[i]
        }
        return true
    }

    // MARK: Chroma

    /// Tries the four chroma modes on both planes; stores the best one's
    /// mode, levels, pixels and contexts. Each block's DC first takes in the
    /// rounding errors of the DCs above and left of it (libwebp's chroma DC
    /// error diffusion: 7/16 from above, 8/16 from the left), so that flat
    /// chroma keeps its mean over a run of blocks instead of a step.
    private func chooseChroma(x: Int, y: Int, into macroblock: inout VP8EncodedMacroblock) {
        // A local copy: the class's property would be checked for exclusive access at every use.
        let segment = self.segment
        let stride = VP8Reconstructor.stride
        let planes = [reconstructor.cb, reconstructor.cr]
        let sourceStride = source.chromaStride
        var bestScore = Int.max
        var bestContexts = [UInt8](repeating: 0, count: 8)
        // Per plane the errors of blocks 1, 2 and 3 that the neighbours take in.
        var errors = [Int](repeating: 0, count: 6), bestErrors = errors
        let costs = self.costs
        source.cb.withUnsafeBufferPointer { cbPlane in
            source.cr.withUnsafeBufferPointer { crPlane in
                do {
                    let origins = [cbPlane.baseAddress! + y * 8 * sourceStride + x * 8,
                                   crPlane.baseAddress! + y * 8 * sourceStride + x * 8]
                    for mode in Self.wholeBlockModes {
                        var distortion = 0
                        var rate = 0
                        // Above: Cb columns 4, 5 and Cr 6, 7 of the nine flags; left the same.
                        var contexts = Array(aboveNonZero[(x * 9 + 4)..<(x * 9 + 8)]) + Array(leftNonZero[4..<8])
                        for plane in 0..<2 {
                            let pixels = planes[plane], origin = origins[plane]
                            VP8IntraPredictor.predictBlock(VP8IntraMode.checked(mode, x: x, y: y), size: 8, pixels, stride: stride)
                            for row in 0..<8 { (rebuilt + plane * 64 + row * 8).update(from: pixels + row * stride, count: 8) }
                            for block in 0..<4 {
                                let offset = (block >> 1) * 4, left = (block & 1) * 4
                                VP8ForwardTransform.dct(origin + offset * sourceStride + left, sourceStride: sourceStride,
                                                        pixels + offset * stride + left, predictionStride: stride,
                                                        into: coefficients + (16 + plane * 4 + block) * 16)
                            }
                            diffuseDCErrors(plane: plane, x: x, blocks: coefficients + (16 + plane * 4) * 16,
                                            errors: &errors)
                            for block in 0..<4 {
                                let index = 16 + plane * 4 + block
                                let row = block >> 1, column = block & 1
                                let offset = row * 4, left = column * 4
                                if segment.chroma.quantize(coefficients + index * 16, first: 0, levels: candidate + index * 16,
                                                           dequantized: dequantized + index * 16) {
                                    VP8InverseTransform.addInverseDCT(dequantized + index * 16,
                                                                      to: rebuilt + plane * 64 + offset * 8 + left, stride: 8)
                                }
                                let aboveIndex = plane * 2 + column, leftIndex = 4 + plane * 2 + row
                                let (cost, any) = costs.cost(candidate + index * 16, first: 0,
                                                             plane: VP8CoefficientReader.Plane.chroma,
                                                             context: Int(contexts[aboveIndex] + contexts[leftIndex]))
                                rate += cost
                                let nonZero: UInt8 = any ? 1 : 0
                                contexts[aboveIndex] = nonZero
                                contexts[leftIndex] = nonZero
                            }
                            distortion += Self.squaredError(origin, sourceStride, rebuilt + plane * 64, 8, width: 8, height: 8)
                        }
                        rate += Self.chromaModeCosts[Int(mode)]
                        if mode != VP8IntraMode.dc && Self.isFlat(candidate + 256, blocks: 8, limit: Self.flatnessLimitChroma) {
                            rate += 8 * Self.flatnessPenalty
                        }
                        let score = 256 * distortion + segment.lambdaChroma * rate
                        if score < bestScore {
                            bestScore = score
                            macroblock.chromaMode = mode
                            bestContexts = contexts
                            bestErrors = errors
                            macroblock.levels.withUnsafeMutableBufferPointer {
                                $0.baseAddress!.advanced(by: 256).update(from: candidate + 256, count: 128)
                            }
                            bestRebuilt.update(from: rebuilt, count: 128)
                        }
                    }
                }
            }
        }
        for plane in 0..<2 {
            for row in 0..<8 { (planes[plane] + row * stride).update(from: bestRebuilt + plane * 64 + row * 8, count: 8) }
            // Block 1's error goes right from the top row, block 2's down from
            // the left column, block 3's three quarters right and one down.
            let err1 = bestErrors[plane * 3], err2 = bestErrors[plane * 3 + 1], err3 = bestErrors[plane * 3 + 2]
            leftDiffusion[plane * 2] = err1
            leftDiffusion[plane * 2 + 1] = (3 * err3) >> 2
            aboveDiffusion[x * 4 + plane * 2] = err2
            aboveDiffusion[x * 4 + plane * 2 + 1] = err3 - leftDiffusion[plane * 2 + 1]
        }
        for i in 0..<4 {
            aboveNonZero[x * 9 + 4 + i] = bestContexts[i]
            leftNonZero[4 + i] = bestContexts[4 + i]
        }
    }

    /// Adds to the DCs of one chroma plane's four blocks (raster order,
    /// 16 coefficients apart) the diffused errors of their neighbours, rounds
    /// each DC to its step in turn, and leaves in `errors[plane * 3...]` the
    /// halved errors of blocks 1, 2 and 3 (libwebp's `CorrectDCValues`).
    @inline(__always)
    private func diffuseDCErrors(plane: Int, x: Int, blocks: UnsafeMutablePointer<Int16>, errors: inout [Int]) {
        let matrix = segment.chroma
        let top0 = aboveDiffusion[x * 4 + plane * 2], top1 = aboveDiffusion[x * 4 + plane * 2 + 1]
        let left0 = leftDiffusion[plane * 2], left1 = leftDiffusion[plane * 2 + 1]
        @inline(__always) func correct(_ block: Int, _ fromAbove: Int, _ fromLeft: Int) -> Int {
            blocks[block * 16] = Int16(truncatingIfNeeded: Int(blocks[block * 16]) + ((7 * fromAbove + 8 * fromLeft) >> 3))
            return matrix.quantizeDC(&blocks[block * 16])
        }
        let err0 = correct(0, top0, left0)
        let err1 = correct(1, top1, err0)
        let err2 = correct(2, err0, left1)
        let err3 = correct(3, err1, err2)
        errors[plane * 3] = err1
        errors[plane * 3 + 1] = err2
        errors[plane * 3 + 2] = err3
    }

    /// Whether `blocks` blocks of levels (zigzag, 16 apart) hold at most
    /// `limit` non-zero AC levels in all (libwebp's `IsFlat`).
    @inline(__always)
    private static func isFlat(_ levels: UnsafePointer<Int16>, blocks: Int, limit: Int) -> Bool {
        var count = 0
        for block in 0..<blocks {
            for n in 1..<16 where levels[block * 16 + n] != 0 {
                count += 1
                if count > limit { return false }
            }
        }
        return true
    }

    /// The sum of squared differences of two `width` × `height` blocks.
    @inline(__always)
    private static func squaredError(_ a: UnsafePointer<UInt8>, _ aStride: Int, _ b: UnsafePointer<UInt8>, _ bStride: Int,
                                     width: Int, height: Int) -> Int {
        var sum = 0
        for row in 0..<height {
            for column in 0..<width {
                let d = Int(a[row * aStride + column]) - Int(b[row * bStride + column])
                sum += d * d
            }
        }
        return sum
    }
}
