/// The lossy encoder's first pass, as libwebp's analysis does it: how
/// "susceptible" each macroblock is to quantisation, and the four segments
/// that group macroblocks of like susceptibility so that each can have its
/// own quantiser and loop-filter level (`VP8EncodingParameters`).
///
/// A macroblock's susceptibility comes from the spread of its prediction
/// residual's DCT coefficients: the histogram of their magnitudes (in
/// eighths, up to 31) over the DC and TrueMotion predictions from the
/// source's own neighbours, scored as the last populated bin over the tallest
/// bin. Busy texture (a long, flat histogram) hides coarse quantisation;
/// smooth areas (everything in the first bins) show it. Luma and chroma mix
/// 3:1, and a k-means over the 256 possible values picks four centres.
struct VP8SegmentAnalysis {
    /// The number of segments VP8 allows (section 9.3).
    static let maximumSegments = 4
    /// Susceptibility runs 0...255 (255: smoothest).
    private static let maximumAlpha = 255

    /// Each macroblock's segment, raster order.
    let segmentOf: [UInt8]
    /// Each segment's place among the centres, −127...127 around their
    /// weighted mean: positive segments are busier and quantised coarser.
    let alphas: [Int]
    /// Each segment's place from the least to the most susceptible, 0...255:
    /// the loop filter filters low-beta (busy) segments more.
    let betas: [Int]
    /// The mean chroma susceptibility before mixing (typically 30...100),
    /// which sets the chroma AC quantiser's offset.
    let chromaAlpha: Int

    init(_ source: VP8SourcePicture) {
        let columns = source.macroblockColumns, rows = source.macroblockRows
        var histogram = [Int](repeating: 0, count: Self.maximumAlpha + 1)
        var perMacroblock = [Int](repeating: 0, count: columns * rows)
        var chromaSum = 0
        let stride = 32
        // A work area: one edge row above and one edge column to the left of
        // a 16×16 luma block and two 8×8 chroma blocks side by side.
        let area = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * 17)
        defer { area.deallocate() }
        area.initialize(repeating: 0, count: stride * 17)
        let block = area + stride + 1
        source.luma.withUnsafeBufferPointer { lumaPlane in
            source.cb.withUnsafeBufferPointer { cbPlane in
                source.cr.withUnsafeBufferPointer { crPlane in
                    for y in 0..<rows {
                        for x in 0..<columns {
                            // Each kind's better prediction (the larger alpha);
                            // the two chroma planes count as one histogram.
                            let luma = Self.residualHistograms(lumaPlane.baseAddress!, stride: source.lumaStride, x: x, y: y,
                                                               size: 16, into: block, areaStride: stride).map(Self.alpha).max()!
                            let cb = Self.residualHistograms(cbPlane.baseAddress!, stride: source.chromaStride, x: x, y: y,
                                                             size: 8, into: block, areaStride: stride)
                            let cr = Self.residualHistograms(crPlane.baseAddress!, stride: source.chromaStride, x: x, y: y,
                                                             size: 8, into: block, areaStride: stride)
                            let chroma = zip(cb, cr).map { Self.alpha(of: zip($0, $1).map { $0 + $1 }) }.max()!
                            let mixed = (3 * luma + chroma + 2) >> 2
                            let value = min(max(Self.maximumAlpha - mixed, 0), Self.maximumAlpha)
                            histogram[value] += 1
                            perMacroblock[y * columns + x] = value
                            chromaSum += chroma
                        }
                    }
                }
            }
        }
        chromaAlpha = chromaSum / (columns * rows)
        let (map, centers, mean) = Self.clusters(histogram)
        segmentOf = perMacroblock.map { UInt8(map[$0]) }
        var low = centers.min()!, high = centers.max()!
        if high == low { high = low + 1 }
        alphas = centers.map { min(max(255 * ($0 - mean) / (high - low), -127), 127) }
        betas = centers.map { min(max(255 * ($0 - low) / (high - low), 0), 255) }
    }

    /// The residual histograms of the `size`×`size` block (16: luma, 8:
    /// chroma) at macroblock (`x`, `y`) of `plane`, for the DC and the
    /// TrueMotion prediction from the source's neighbours.
    private static func residualHistograms(_ plane: UnsafePointer<UInt8>, stride: Int, x: Int, y: Int, size: Int,
                                           into block: UnsafeMutablePointer<UInt8>, areaStride: Int) -> [[Int]] {
        let origin = plane + y * size * stride + x * size
        loadEdges(origin, stride: stride, x: x, y: y, size: size, into: block, areaStride: areaStride)
        return [VP8IntraMode.dc, VP8IntraMode.trueMotion].map { mode in
            VP8IntraPredictor.predictBlock(VP8IntraMode.checked(mode, x: x, y: y), size: size, block, stride: areaStride)
            var distribution = [Int](repeating: 0, count: 32)
            collect(origin, stride: stride, block, areaStride: areaStride, size: size, into: &distribution)
            return distribution
        }
    }

    /// The source's row above and column left of the block (127 above the
    /// picture, 129 left of it, as the decoder's edges are).
    private static func loadEdges(_ origin: UnsafePointer<UInt8>, stride: Int, x: Int, y: Int, size: Int,
                                  into block: UnsafeMutablePointer<UInt8>, areaStride: Int) {
        for i in 0..<size { block[i - areaStride] = y > 0 ? origin[i - stride] : 127 }
        for i in 0..<size { block[i * areaStride - 1] = x > 0 ? origin[i * stride - 1] : 129 }
        block[-areaStride - 1] = y == 0 ? 127 : x == 0 ? 129 : origin[-stride - 1]
    }

    /// Adds the magnitudes (÷8, at most 31) of every DCT coefficient of the
    /// residual `source − prediction` over a `size`×`size` block.
    private static func collect(_ source: UnsafePointer<UInt8>, stride sourceStride: Int, _ prediction: UnsafePointer<UInt8>,
                                areaStride: Int, size: Int, into distribution: inout [Int]) {
        var coefficients = [Int16](repeating: 0, count: 16)
        for row in stride(from: 0, to: size, by: 4) {
            for column in stride(from: 0, to: size, by: 4) {
                coefficients.withUnsafeMutableBufferPointer { out in
                    VP8ForwardTransform.dct(source + row * sourceStride + column, sourceStride: sourceStride,
                                            prediction + row * areaStride + column, predictionStride: areaStride,
                                            into: out.baseAddress!)
                }
                for value in coefficients { distribution[min(abs(Int(value)) >> 3, 31)] += 1 }
            }
        }
    }

    /// 510 × the last populated bin ÷ the tallest bin's count (0 when no bin
    /// holds more than one coefficient).
    private static func alpha(of distribution: [Int]) -> Int {
        var tallest = 0, last = 1
        for (bin, count) in distribution.enumerated() where count > 0 {
            tallest = max(tallest, count)
            last = bin
        }
        return tallest > 1 ? 2 * maximumAlpha * last / tallest : 0
    }

    /// A k-means of the susceptibility histogram into four clusters (at most
    /// six rounds, stopping once the centres move less than 5 in all):
    /// each value's cluster, the centres, and their weighted mean.
    private static func clusters(_ histogram: [Int]) -> (map: [Int], centers: [Int], mean: Int) {
        let count = maximumSegments
        let low = histogram.firstIndex { $0 > 0 } ?? 0
        let high = histogram.lastIndex { $0 > 0 } ?? low
        var centers = (0..<count).map { low + (2 * $0 + 1) * (high - low) / (2 * count) }
        var map = [Int](repeating: 0, count: histogram.count)
        var mean = low
        for _ in 0..<6 {
            var sums = [Int](repeating: 0, count: count), weights = [Int](repeating: 0, count: count)
            var nearest = 0
            for value in low...high where histogram[value] > 0 {
                while nearest + 1 < count, abs(value - centers[nearest + 1]) < abs(value - centers[nearest]) { nearest += 1 }
                map[value] = nearest
                sums[nearest] += value * histogram[value]
                weights[nearest] += histogram[value]
            }
            var moved = 0, weighted = 0, total = 0
            for n in 0..<count where weights[n] > 0 {
                let center = (sums[n] + weights[n] / 2) / weights[n]
                moved += abs(centers[n] - center)
                centers[n] = center
                weighted += center * weights[n]
                total += weights[n]
            }
            mean = (weighted + total / 2) / total
            if moved < 5 { break }
        }
        return (map, centers, mean)
    }
}
