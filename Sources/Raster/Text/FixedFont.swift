/// A small monospaced bitmap font covering printable ASCII (32...126), for
/// marker labels and map attribution. Other characters draw as `?`.
public struct FixedFont: Sendable {
    /// Advance and cell width of every glyph, in pixels.
    public let cellWidth: Int
    /// Line height in pixels.
    public let cellHeight: Int
    /// Pixels from the top of a cell to the baseline.
    public let ascent: Int
    /// `cellHeight` row masks per glyph, leftmost pixel in bit `cellWidth − 1`.
    let rows: [UInt8]

    /// X11 misc-fixed 6×13 (public domain), converted by `Scripts/make_font.py`.
    public static let fixed6x13 = FixedFont(cellWidth: 6, cellHeight: 13, ascent: 11, rows: glyphRows6x13)

    /// Width and height of `text` in pixels (lines split at "\n").
    public func size(of text: String) -> (width: Int, height: Int) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let longest = lines.map { $0.unicodeScalars.count }.max() ?? 0
        return (longest * cellWidth, lines.count * cellHeight)
    }

    /// Whether the pixel (x, y) of the glyph for `scalar` is set.
    @inline(__always)
    func isSet(_ scalar: Unicode.Scalar, _ x: Int, _ y: Int) -> Bool {
        let code = (32...126).contains(scalar.value) ? Int(scalar.value) : 63 // "?"
        return rows[(code - 32) * cellHeight + y] >> (cellWidth - 1 - x) & 1 == 1
    }
}
