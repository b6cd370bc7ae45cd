import Raster

/// A label placed on a vector map snapshot: its text laid out in output
/// pixels, the boxes it covers, and how it is painted.
struct VectorMapLabel {
    /// One glyph of a label set along a line.
    struct GlyphAlongLine {
        /// The glyph's index in the font.
        var glyph: Int
        /// The left end of its baseline, in output pixels.
        var origin: Point
        /// Its rotation, radians clockwise from the x axis (y down).
        var angle: Double
    }

    /// How the text is set.
    enum Layout {
        /// Horizontal lines, each with the left end of its baseline (a point label).
        case lines([(line: TextLine, origin: Point)])
        /// Glyphs rotated one by one along a line, all at one size.
        case alongLine([GlyphAlongLine], size: Double)
        /// Signed-distance glyphs shaped about the point `at` (the anchor, or where a
        /// variable anchor moved the label), rotated clockwise by `angle` radians.
        case sdf(ShapedText, SDFTextDrawer.Paint, angle: Double, at: Point)
        /// Signed-distance glyphs set along a line: each a one-glyph text about its
        /// point on the line, rotated clockwise by its angle.
        case sdfAlongLine([(text: ShapedText, at: Point, angle: Double)], SDFTextDrawer.Paint)
    }

    /// The symbol layer that placed it.
    var layerID: String
    /// The text drawn.
    var text: String
    /// Where it is anchored: the point it is centred on, or the point of the
    /// line under its middle.
    var anchor: Point
    /// The boxes it covers, halo included and padding not: one for a point
    /// label, one per glyph along a line.
    var boxes: [LabelBox]
    var layout: Layout
    var color: RGBA
    var halo: RGBA?
    var haloWidth: Double
    /// Whether its layer draws its labels top of the view first (MapLibre's
    /// `symbol-z-order: auto` for a layer that allows overlap or ignores placement).
    var drawsByViewportY = false
}
