import Raster

/// A label's glyphs laid out as MapLibre's `shapeText` lays them: positions in
/// the pixels of the 24-pixel glyph size (``GlyphRange/fontSize``) relative to
/// the anchor, y down, and the box the text covers (its collision box
/// before scaling and padding).
struct ShapedText {
    /// One glyph and its pen position: the left end of its line's origin row,
    /// MapLibre's `positionedGlyph.x`/`y` plus the text offset.
    struct Glyph {
        var glyph: SDFGlyph
        var x: Double
        var y: Double
        /// Its `format` section's `font-scale` (1 without one): the glyph is drawn this much larger.
        var scale: Double = 1
        /// Its `format` section's colour (with `text-opacity`); nil for the layer's.
        var color: RGBA?
        /// An image of a `format` section, drawn in place of the glyph (whose metrics are the image's).
        var image: SpriteImage?
    }

    var glyphs: [Glyph]
    var left: Double
    var top: Double
    var right: Double
    var bottom: Double
    /// The lines the text was broken into.
    var lineCount: Int
}
