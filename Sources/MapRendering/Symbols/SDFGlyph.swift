/// One glyph of a glyph range: its signed-distance field and metrics, in
/// the pixels of MapLibre's 24-pixel glyph size (``GlyphRange/fontSize``).
///
/// The bitmap is `(width + 6) × (height + 6)` one-byte distances (a 3-pixel
/// border on each side, ``border``): 192 is the outline, each pixel outwards
/// 8 less (MapLibre's `SDF_PX`); an empty glyph (a space) has no bitmap.
public struct SDFGlyph: Sendable, Equatable {
    /// The Unicode scalar value.
    public var id: UInt32
    /// Ink width in pixels, border excluded.
    public var width: Int
    /// Ink height in pixels, border excluded.
    public var height: Int
    /// The ink's left edge from the pen position.
    public var left: Int
    /// The ink's top as the file gives it: MapLibre draws the ink's top edge
    /// `-top` pixels below the shaped glyph's y (see `TextShaper`).
    public var top: Int
    /// How far the pen moves after the glyph.
    public var advance: Int
    /// The distances, row by row, `bitmapWidth × bitmapHeight` bytes (empty when the glyph has no ink).
    public var bitmap: [UInt8]

    /// The border of distance values around the ink on each side (MapLibre's `GLYPH_PBF_BORDER`).
    public static let border = 3

    /// The bitmap's width: the ink and its border (0 without ink).
    public var bitmapWidth: Int { bitmap.isEmpty ? 0 : width + 2 * Self.border }
    /// The bitmap's height: the ink and its border (0 without ink).
    public var bitmapHeight: Int { bitmap.isEmpty ? 0 : height + 2 * Self.border }

    /// A glyph; `bitmap` must be empty or `(width + 6) · (height + 6)` bytes (``GlyphRange`` checks files).
    public init(id: UInt32, width: Int, height: Int, left: Int, top: Int, advance: Int, bitmap: [UInt8]) {
        self.id = id
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.advance = advance
        self.bitmap = bitmap
    }
}
