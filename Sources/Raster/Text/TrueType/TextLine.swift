/// One line of text laid out in a font at a size: which glyphs, and where
/// each one's origin falls along the baseline (kerning applied).
public struct TextLine: Sendable {
    /// A glyph and its pen position, in pixels right of the line's start.
    public struct PlacedGlyph: Equatable, Sendable {
        /// The glyph's index in the font.
        public var glyph: Int
        /// Pixels from the start of the line to the glyph's origin.
        public var x: Double
    }

    /// The font the line is set in.
    public let font: TrueTypeFont
    /// Pixels per em.
    public let size: Double
    /// The glyphs in order.
    public let glyphs: [PlacedGlyph]
    /// The advance of the whole line, in pixels.
    public let width: Double

    /// Pixels from the baseline up to the font's ascender.
    public var ascent: Double { Double(font.ascender) * size / Double(font.unitsPerEm) }
    /// Pixels from the baseline down to the font's descender (positive).
    public var descent: Double { -Double(font.descender) * size / Double(font.unitsPerEm) }

    /// Lays out `text` on one line. Control characters take no room; a
    /// character the font lacks is set as its replacement glyph (U+FFFD or `.notdef`).
    public init(_ text: Substring, font: TrueTypeFont, size: Double) {
        self.font = font
        self.size = size
        let scale = size / Double(font.unitsPerEm)
        var pen = TextPen(font: font)
        glyphs = text.unicodeScalars.compactMap { scalar in
            pen.set(scalar).map { PlacedGlyph(glyph: $0.glyph, x: Double($0.x) * scale) }
        }
        width = Double(pen.position) * scale
    }

    /// Lays out `text` on one line (see `init(_:font:size:)`).
    public init(_ text: String, font: TrueTypeFont, size: Double) {
        self.init(text[...], font: font, size: size)
    }
}
