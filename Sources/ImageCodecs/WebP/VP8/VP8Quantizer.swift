/// The dequantisation factors of one segment (RFC 6386 section 14.1): what
/// each decoded coefficient is multiplied by, for the DC (index 0) and the AC
/// coefficients of the luma, second-order luma (Y2) and chroma blocks.
struct VP8Quantizer {
    /// The frame header's offsets from the base index, per coefficient kind.
    struct Deltas {
        var y1DC: Int, y2DC: Int, y2AC: Int, uvDC: Int, uvAC: Int
    }

    var y1DC: Int32, y1AC: Int32
    var y2DC: Int32, y2AC: Int32
    var uvDC: Int32, uvAC: Int32

    /// The factors for quantiser index `index` (clamped to 0...127 with each delta).
    init(index: Int, deltas: Deltas) {
        func dc(_ delta: Int, limit: Int = 127) -> Int32 { VP8Tables.dcQuantizer[min(max(index + delta, 0), limit)] }
        func ac(_ delta: Int) -> Int32 { VP8Tables.acQuantizer[min(max(index + delta, 0), 127)] }
        y1DC = dc(deltas.y1DC)
        y1AC = ac(0)
        y2DC = dc(deltas.y2DC) * 2
        // x * 155 / 100, at least 8 (section 14.1); for every x in the table
        // (at most 284), (x * 101581) >> 16 is the same number, as libwebp computes it.
        y2AC = max((ac(deltas.y2AC) * 101_581) >> 16, 8)
        // The chroma DC index stops at 117 (a DC factor of 132).
        uvDC = dc(deltas.uvDC, limit: 117)
        uvAC = ac(deltas.uvAC)
    }
}
