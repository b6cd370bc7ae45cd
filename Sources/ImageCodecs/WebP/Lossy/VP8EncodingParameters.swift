import Foundation

/// What a quality (1...100) becomes in the lossy encoder, mapped as libwebp
/// maps it so that `quality=75` means what `cwebp -q 75` means: the frame's
/// quantiser index, the chroma DC offset, the loop-filter level, the
/// quantisation matrices and the rate–distortion lambdas.
struct VP8EncodingParameters {
    /// The base quantiser index, 0 (finest) to 127.
    let quantizerIndex: Int
    /// The chroma DC quantiser's offset from the base index (chroma DC
    /// blocks show as flat patches early, so they get a finer step).
    let chromaDCDelta: Int
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

    init(quality: Int) {
        // Quality is first made roughly linear in "compression", then the
        // step follows it as its cube root (file size grows about as the
        // step's cube), as libwebp does: q75 is index 26.
        let c = Double(min(max(quality, 1), 100)) / 100
        let linear = c < 0.75 ? c * 2 / 3 : 2 * c - 1
        let index = min(max(Int(127 * (1 - pow(linear, 1.0 / 3))), 0), 127)
        quantizerIndex = index
        // libwebp's default spatial noise shaping (strength 50) lowers the
        // chroma DC index by 2 and leaves the chroma AC alone.
        chromaDCDelta = -2
        let steps = VP8Quantizer(index: index, deltas: .init(y1DC: 0, y2DC: 0, y2AC: 0, uvDC: chromaDCDelta, uvAC: 0))
        luma = VP8QuantizerMatrix(dc: steps.y1DC, ac: steps.y1AC, biases: (96, 110), sharpens: true)
        y2 = VP8QuantizerMatrix(dc: steps.y2DC, ac: steps.y2AC, biases: (96, 108), sharpens: false)
        chroma = VP8QuantizerMatrix(dc: steps.uvDC, ac: steps.uvAC, biases: (110, 115), sharpens: false)
        let qSubblock = Int(luma.meanStep), qWhole = Int(y2.meanStep), qChroma = Int(chroma.meanStep)
        lambdaSubblock = max((3 * qSubblock * qSubblock) >> 7, 1)
        lambdaWholeBlock = max(3 * qWhole * qWhole, 1)
        lambdaChroma = max((3 * qChroma * qChroma) >> 6, 1)
        lambdaMode = max((qSubblock * qSubblock) >> 7, 1)
        // Filter what the AC step leaves as block edges: a level equal to a
        // quarter of the step, scaled by cwebp's default strength (60 of 100,
        // 300/256), and off below 2 where it is invisible.
        let edgeStep = min(Int(VP8Tables.acQuantizer[index]) >> 2, 63)
        let level = edgeStep * 300 / 256
        filterLevel = level < 2 ? 0 : min(level, 63)
    }
}
