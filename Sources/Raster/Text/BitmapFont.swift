/// A fixed-cell bitmap font covering printable ASCII, for marker labels and
/// attribution: crisp at any integer magnification, no font files at run time.
public struct BitmapFont: Sendable {
    public let cellWidth: Int
    public let cellHeight: Int
    /// Rows from the top of a cell to the baseline.
    public let baseline: Int
    /// `cellHeight` rows per glyph for characters 32…126; bit 7 is the leftmost pixel.
    private let rows: [UInt8]

    public init(cellWidth: Int, cellHeight: Int, baseline: Int, rows: [UInt8]) {
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.baseline = baseline
        self.rows = rows
    }

    /// Width and height of `text` in pixels, each font pixel drawn `scale` × `scale`.
    public func size(of text: String, scale: Int = 1) -> (width: Int, height: Int) {
        (text.count * cellWidth * scale, cellHeight * scale)
    }

    /// Whether the glyph for `character` has its pixel (x, y) set. Characters
    /// outside printable ASCII draw as `?`.
    public func isSet(_ character: Character, x: Int, y: Int) -> Bool {
        guard x >= 0, x < cellWidth, y >= 0, y < cellHeight else { return false }
        var code = Int(character.asciiValue ?? 63)
        if code < 32 || code > 126 { code = 63 }
        let row = rows[(code - 32) * cellHeight + y]
        return row & (0x80 >> UInt8(x)) != 0
    }
}
