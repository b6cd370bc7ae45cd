/// One segment's quantisation in the lossy encoder: its quantiser index,
/// loop-filter level, the quantisation matrices of its luma, Y2 and chroma
/// blocks and the rate–distortion lambdas that follow from their steps.
struct VP8SegmentParameters: Equatable {
    /// The quantiser index, 0 (finest) to 127.
    let quantizerIndex: Int
    /// The normal loop filter's level (0: off) at sharpness 0.
    let filterLevel: Int

    let luma: VP8QuantizerMatrix
    let y2: VP8QuantizerMatrix
    let chroma: VP8QuantizerMatrix

    /// Rate weights in the scores 256·SSE + λ·bits (bits in 1/256): for a
    /// 4×4 block, a 16×16 block, the chroma and the 4×4 macroblock header.
    let lambdaSubblock: Int
    let lambdaWholeBlock: Int
    let lambdaChroma: Int
    let lambdaMode: Int
    /// The weight of the texture distortion (`VP8TextureDistortion`) in
    /// the luma scores, in 1/256: libwebp's at its default effort.
    let lambdaTexture: Int

    /// A segment at `quantizerIndex` with the frame's chroma offsets; `beta`
    /// (0...255, how susceptible the segment is among the others) lowers
    /// the filter level of the smoother segments, as libwebp's does.
    init(quantizerIndex index: Int, chromaDCDelta: Int, chromaACDelta: Int, beta: Int) {
        quantizerIndex = index
        let steps = VP8Quantizer(index: index, deltas: .init(y1DC: 0, y2DC: 0, y2AC: 0, uvDC: chromaDCDelta, uvAC: chromaACDelta))
        luma = VP8QuantizerMatrix(dc: steps.y1DC, ac: steps.y1AC, biases: (96, 110), sharpens: true)
        y2 = VP8QuantizerMatrix(dc: steps.y2DC, ac: steps.y2AC, biases: (96, 108), sharpens: false)
        chroma = VP8QuantizerMatrix(dc: steps.uvDC, ac: steps.uvAC, biases: (110, 115), sharpens: false)
        let qSubblock = Int(luma.meanStep), qWhole = Int(y2.meanStep), qChroma = Int(chroma.meanStep)
        lambdaSubblock = max((3 * qSubblock * qSubblock) >> 7, 1)
        lambdaWholeBlock = max(3 * qWhole * qWhole, 1)
        lambdaChroma = max((3 * qChroma * qChroma) >> 6, 1)
        lambdaMode = max((qSubblock * qSubblock) >> 7, 1)
        lambdaTexture = (VP8EncodingParameters.noiseShapingStrength * qSubblock) >> 5
        // Filter what the AC step leaves as block edges: a level equal to a
        // quarter of the step, scaled by cwebp's default strength (60 of
        // 100: 300/256 for the busiest segment, down to 300/511 for the
        // smoothest), and off below 2 where it is invisible.
        let edgeStep = min(Int(VP8Tables.acQuantizer[index]) >> 2, 63)
        let level = edgeStep * 300 / (256 + beta)
        filterLevel = level < 2 ? 0 : min(level, 63)
    }

    /// Two segments code alike when their quantiser and filter level are the same.
    static func == (a: VP8SegmentParameters, b: VP8SegmentParameters) -> Bool {
        a.quantizerIndex == b.quantizerIndex && a.filterLevel == b.filterLevel
    }
}
