import Foundation

/// The predictor transform of a VP8L encoder (RFC 9649 §4.1): for each block
/// of `1 << bits` pixels square, the one of the 14 predictors whose residuals
/// cost least, and the residuals of the whole image.
///
/// A block's cost is what its residuals add to the entropy of every block
/// chosen before it (channel by channel), as libwebp weighs them: a mode
/// that agrees with the image's statistics so far wins over one that is
/// only locally sharp. Predictions come from the original pixels, which the
/// decoder has rebuilt by the time it needs them, so the residuals of
/// different blocks do not depend on each other.
enum VP8LPredictorSearch {
    /// The residual image and the modes, one per block, each in its pixel's green byte.
    static func residuals(of pixels: [UInt32], width: Int, height: Int, bits: Int) -> (residuals: [UInt32], modes: [UInt32]) {
        let blocksWide = (width + (1 << bits) - 1) >> bits, blocksHigh = (height + (1 << bits) - 1) >> bits
        var modes = [UInt32](repeating: 0, count: blocksWide * blocksHigh)
        var residuals = [UInt32](repeating: 0, count: pixels.count)
        var accumulated = [UInt32](repeating: 0, count: 4 * 256), accumulatedCount: UInt32 = 0
        var trial = [UInt32](repeating: 0, count: 4 * 256)
        pixels.withUnsafeBufferPointer { pixels in
            let image = pixels.baseAddress!
            residuals.withUnsafeMutableBufferPointer { residuals in
                let out = residuals.baseAddress!
                // The top row predicts from the left (its first pixel from black), the left column from above.
                out[0] = subtract(image[0], VP8LTransform.black)
                for x in 1..<width { out[x] = subtract(image[x], image[x - 1]) }
                for y in 1..<max(height, 1) { out[y * width] = subtract(image[y * width], image[(y - 1) * width]) }
                guard width > 1 && height > 1 else { return }
                for blockY in 0..<blocksHigh {
                    let top = max(1, blockY << bits), bottom = min(height, (blockY + 1) << bits)
                    for blockX in 0..<blocksWide {
                        let left = max(1, blockX << bits), right = min(width, (blockX + 1) << bits)
                        guard left < right && top < bottom else { continue }
                        var bestMode = 0, bestCost = Double.infinity
                        for mode in 0..<14 {
                            for index in trial.indices { trial[index] = 0 }
                            trial.withUnsafeMutableBufferPointer { trial in
                                for y in top..<bottom {
                                    residualRun(image + y * width, width: width, mode: mode, left, right) { _, residual in
                                        trial[Int(residual & 0xFF)] &+= 1
                                        trial[256 + Int((residual >> 8) & 0xFF)] &+= 1
                                        trial[512 + Int((residual >> 16) & 0xFF)] &+= 1
                                        trial[768 + Int(residual >> 24)] &+= 1
                                    }
                                }
                            }
                            let cost = addedEntropy(trial, to: accumulated, count: accumulatedCount,
                                                    pixels: UInt32((right - left) * (bottom - top)))
                            if cost < bestCost { (bestCost, bestMode) = (cost, mode) }
                        }
                        modes[blockY * blocksWide + blockX] = VP8LTransform.black | UInt32(bestMode) << 8
                        for y in top..<bottom {
                            residualRun(image + y * width, width: width, mode: bestMode, left, right) { x, residual in
                                out[y * width + x] = residual
                                accumulated[Int(residual & 0xFF)] &+= 1
                                accumulated[256 + Int((residual >> 8) & 0xFF)] &+= 1
                                accumulated[512 + Int((residual >> 16) & 0xFF)] &+= 1
                                accumulated[768 + Int(residual >> 24)] &+= 1
                            }
                        }
                        accumulatedCount &+= UInt32((right - left) * (bottom - top))
                    }
                }
            }
        }
        return (residuals, modes)
    }

    /// Each channel's pixel minus the prediction's, modulo 256.
    @inline(__always)
    static func subtract(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let alphaGreen = 0x00FF_00FF &+ (a & 0xFF00_FF00) &- (b & 0xFF00_FF00)
        let redBlue = 0xFF00_FF00 &+ (a & 0x00FF_00FF) &- (b & 0x00FF_00FF)
        return (alphaGreen & 0xFF00_FF00) | (redBlue & 0x00FF_00FF)
    }

    /// Calls `body(x, residual)` for the pixels `start..<end` of the row at
    /// `row` (not the first row or column), predicted with `mode`: the
    /// switch is outside the pixel loop.
    @inline(__always)
    private static func residualRun(_ row: UnsafePointer<UInt32>, width: Int, mode: Int, _ start: Int, _ end: Int,
                                    _ body: (Int, UInt32) -> Void) {
        @inline(__always) func run(_ predict: (UInt32, UInt32, UInt32, UInt32) -> UInt32) {
            // Rows are contiguous, so the rightmost pixel's top-right
            // neighbour is the first pixel of its own row, as the format says.
            let above = row - width
            for x in start..<end {
                body(x, subtract(row[x], predict(row[x - 1], above[x], above[x + 1], above[x - 1])))
            }
        }
        switch mode {
        case 1: run { left, _, _, _ in left }
        case 2: run { _, top, _, _ in top }
        case 3: run { _, _, topRight, _ in topRight }
        case 4: run { _, _, _, topLeft in topLeft }
        case 5: run { left, top, topRight, _ in VP8LTransform.average(VP8LTransform.average(left, topRight), top) }
        case 6: run { left, _, _, topLeft in VP8LTransform.average(left, topLeft) }
        case 7: run { left, top, _, _ in VP8LTransform.average(left, top) }
        case 8: run { _, top, _, topLeft in VP8LTransform.average(topLeft, top) }
        case 9: run { _, top, topRight, _ in VP8LTransform.average(top, topRight) }
        case 10:
            run { left, top, topRight, topLeft in
                VP8LTransform.average(VP8LTransform.average(left, topLeft), VP8LTransform.average(top, topRight))
            }
        case 11: run { left, top, _, topLeft in VP8LTransform.select(left: left, top: top, topLeft: topLeft) }
        case 12: run { left, top, _, topLeft in VP8LTransform.clampAddSubtractFull(left, top, topLeft) }
        case 13:
            run { left, top, _, topLeft in
                VP8LTransform.clampAddSubtractHalf(VP8LTransform.average(left, top), topLeft)
            }
        default: run { _, _, _, _ in VP8LTransform.black }
        }
    }

    /// The bits `added` (a block's four channel histograms of 256 bins, of
    /// `total` pixels) add to the Shannon entropy of `accumulated` (the blocks before it, `count` pixels).
    private static func addedEntropy(_ added: [UInt32], to accumulated: [UInt32], count: UInt32, pixels total: UInt32) -> Double {
        // N·H = N log N − Σ n log n, so adding counts t to counts a costs
        // [(A+T) log(A+T) − A log A] − Σ [(a+t) log(a+t) − a log a], over the bins t touches.
        var cost = 4 * (VP8LHistogram.xLogX(count &+ total) - VP8LHistogram.xLogX(count))
        for bin in 0..<added.count where added[bin] != 0 {
            cost -= VP8LHistogram.xLogX(accumulated[bin] &+ added[bin]) - VP8LHistogram.xLogX(accumulated[bin])
        }
        return cost
    }
}
