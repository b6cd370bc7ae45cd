/// What the encoder decided for one macroblock: its prediction modes and
/// quantised levels, kept until the frame's probabilities are known and
/// everything is written.
struct VP8EncodedMacroblock {
    /// Sixteen 4×4 predictions (otherwise one 16×16 prediction and a Y2 block).
    var usesSubblocks = false
    var lumaMode = VP8IntraMode.dc
    var chromaMode = VP8IntraMode.dc
    /// The 4×4 modes in raster order, when `usesSubblocks`.
    var subblockModes = [UInt8](repeating: VP8IntraMode.dc, count: 16)
    /// 25 blocks of 16 levels in zigzag order: luma 0...15, Cb 16...19,
    /// Cr 20...23, then Y2 (zero for a 4×4-predicted macroblock).
    var levels = [Int16](repeating: 0, count: 400)

    /// Whether `block` has a non-zero level from zigzag position `first` on.
    func hasLevels(block: Int, first: Int) -> Bool {
        levels[(block * 16 + first)..<(block * 16 + 16)].contains { $0 != 0 }
    }

    /// No level at all: the macroblock may be coded as skipped. (The DC
    /// positions of the luma blocks under a Y2 block are always zero.)
    var isEmpty: Bool { !levels.contains { $0 != 0 } }
}
