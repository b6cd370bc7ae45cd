import Foundation

/// What a quality (1...100) and the picture's analysis become in the lossy
/// encoder, mapped as libwebp maps them so that `quality=75` means what
/// `cwebp -q 75` means: up to four segments (`VP8SegmentAnalysis`), each
/// with its own quantiser and filter level (`VP8SegmentParameters`), the
/// chroma quantisers' offsets, and the segment map's probabilities.
struct VP8EncodingParameters {
    /// Four entries, as the header needs; those past `segmentCount` repeat the last.
    let segments: [VP8SegmentParameters]
    /// 1 (no segmentation) to 4.
    let segmentCount: Int
    /// Each macroblock's segment, raster order (all 0 with one segment).
    let segmentOf: [UInt8]
    /// The segment tree's three probabilities (section 9.3).
    let segmentProbabilities: [UInt8]

    /// The chroma DC quantiser's offset from each segment's index (chroma DC
    /// blocks show as flat patches early, so they get a finer step).
    let chromaDCDelta: Int
    /// The chroma AC quantiser's offset: finer for pictures whose chroma is
    /// susceptible, coarser where it hides it.
    let chromaACDelta: Int

    /// libwebp's default spatial noise shaping strength (`cwebp -sns 50`):
    /// how far the segments' quantisers spread from the quality's.
    static let noiseShapingStrength = 50

    /// The frame's quantiser index (segment 0's; what a decoder uses without segments).
    var quantizerIndex: Int { segments[0].quantizerIndex }
    /// The frame's filter level: the largest segment's (a decoder filters
    /// nothing when the frame's level is 0, whatever the segments say).
    var filterLevel: Int { segments.map(\.filterLevel).max()! }
    /// Whether the header carries segments and each macroblock its segment.
    var usesSegments: Bool { segmentCount > 1 }

    /// Parameters for `quality` with one segment (no analysis).
    init(quality: Int) {
        self.init(quality: quality, analysis: nil, macroblockCount: 1)
    }

    /// Parameters for `quality`, with the segments `analysis` found when
    /// given.
    init(quality: Int, analysis: VP8SegmentAnalysis?, macroblockCount: Int) {
        // Quality is first made roughly linear in "compression", then the
        // step follows it as its cube root (file size grows about as the
        // step's cube), as libwebp does: q75 is index 26. Each segment's
        // exponent moves by its alpha: busier segments quantise coarser.
        let c = Double(min(max(quality, 1), 100)) / 100
        let linear = c < 0.75 ? c * 2 / 3 : 2 * c - 1
        let compression = pow(linear, 1.0 / 3)
        let amplitude = 0.9 * Double(Self.noiseShapingStrength) / 100 / 128
        let strength = Self.noiseShapingStrength
        // The chroma DC index drops by 2 at strength 50; the chroma AC index
        // moves by −4...6 as the mean chroma alpha runs 30...100 around 64.
        let dcDelta = min(max(-4 * strength / 100, -15), 15)
        var acDelta = 0
        if let analysis {
            let delta = (analysis.chromaAlpha - 64) * (6 - -4) / (100 - 30)
            acDelta = min(max(delta * strength / 100, -4), 6)
        }
        chromaDCDelta = dcDelta
        chromaACDelta = acDelta
        let alphas = analysis?.alphas ?? [0], betas = analysis?.betas ?? [0]
        let candidates = zip(alphas, betas).map { alpha, beta in
            let index = Int(127 * (1 - pow(compression, 1 - amplitude * Double(alpha))))
            return VP8SegmentParameters(quantizerIndex: min(max(index, 0), 127), chromaDCDelta: dcDelta,
                                        chromaACDelta: acDelta, beta: beta)
        }
        // Segments that code alike become one.
        var distinct: [VP8SegmentParameters] = []
        let merged = candidates.map { candidate in
            if let index = distinct.firstIndex(of: candidate) { return UInt8(index) }
            distinct.append(candidate)
            return UInt8(distinct.count - 1)
        }
        segmentCount = distinct.count
        segments = distinct + Array(repeating: distinct[distinct.count - 1], count: VP8SegmentAnalysis.maximumSegments - distinct.count)
        segmentOf = segmentCount > 1 ? analysis!.segmentOf.map { merged[Int($0)] } : [UInt8](repeating: 0, count: macroblockCount)
        var counts = [Int](repeating: 0, count: VP8SegmentAnalysis.maximumSegments)
        for segment in segmentOf { counts[Int(segment)] += 1 }
        // Rounded, and never 0: a probability of 0 would leave no room for the other branch.
        func probability(_ a: Int, _ b: Int) -> UInt8 { a + b == 0 ? 255 : UInt8(max((255 * a + (a + b) / 2) / (a + b), 1)) }
        segmentProbabilities = [probability(counts[0] + counts[1], counts[2] + counts[3]),
                                probability(counts[0], counts[1]), probability(counts[2], counts[3])]
    }
}
