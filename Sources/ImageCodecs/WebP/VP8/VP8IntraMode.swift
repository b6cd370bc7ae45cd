/// The intra prediction modes (RFC 6386 sections 11.2 to 11.4), numbered as
/// libwebp numbers them so the mode-probability table reads the same: the
/// first four serve 16×16 luma and 8×8 chroma blocks as well as 4×4 ones.
enum VP8IntraMode {
    /// The mean of the edges above and to the left.
    static let dc: UInt8 = 0
    /// "TrueMotion": above + left − above-left.
    static let trueMotion: UInt8 = 1
    /// Each column copies the pixel above (4×4: smoothed along the row above).
    static let vertical: UInt8 = 2
    /// Each row copies the pixel to the left (4×4: smoothed down the column).
    static let horizontal: UInt8 = 3
    /// The 4×4-only diagonal modes: down-right, vertical-right, down-left,
    /// vertical-left, horizontal-down and horizontal-up.
    static let downRight: UInt8 = 4
    static let verticalRight: UInt8 = 5
    static let downLeft: UInt8 = 6
    static let verticalLeft: UInt8 = 7
    static let horizontalDown: UInt8 = 8
    static let horizontalUp: UInt8 = 9
    /// DC prediction at the picture's edges, where one or both edges are missing.
    static let dcWithoutTop: UInt8 = 10
    static let dcWithoutLeft: UInt8 = 11
    static let dcWithoutEdges: UInt8 = 12

    /// The DC variant a whole-block `mode` becomes at macroblock (`x`, `y`):
    /// the edges outside the picture do not count towards the mean.
    static func checked(_ mode: UInt8, x: Int, y: Int) -> UInt8 {
        guard mode == dc else { return mode }
        switch (x == 0, y == 0) {
        case (true, true): return dcWithoutEdges
        case (true, false): return dcWithoutLeft
        case (false, true): return dcWithoutTop
        case (false, false): return dc
        }
    }
}
