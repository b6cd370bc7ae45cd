/// A pen moving along a line in font units: kerning against the previous
/// glyph, then the glyph's advance; control characters take no room, and a
/// character the font lacks is set as its replacement glyph. `TextLine` sets
/// glyphs with it and `TextParagraph` measures with it, so both agree.
struct TextPen {
    let font: TrueTypeFont
    /// Font units from the start of the line to the next glyph's origin.
    private(set) var position = 0
    private var previous: Int?

    init(font: TrueTypeFont) { self.font = font }

    /// Sets `scalar`: its glyph and that glyph's origin (font units), or nil for a control character.
    mutating func set(_ scalar: Unicode.Scalar) -> (glyph: Int, x: Int)? {
        guard scalar.value >= 0x20, !(0x7F..<0xA0).contains(scalar.value) else { return nil }
        let glyph = font.glyph(for: scalar) ?? font.replacementGlyph
        if let previous { position += font.kerning(previous, glyph) }
        let x = position
        position += font.advanceWidth(ofGlyph: glyph)
        previous = glyph
        return (glyph, x)
    }

    /// Sets every character of `text`.
    mutating func advance(over text: Substring) {
        for scalar in text.unicodeScalars { _ = set(scalar) }
    }
}
