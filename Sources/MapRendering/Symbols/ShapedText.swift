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
        /// Shaped for vertical writing: standing upright, one em along the line (MapLibre's `vertical`).
        var upright = false
        /// Drawn turned a quarter clockwise about the label's anchor, its pen in that turned frame
        /// (a character of a vertical label that turns with the line).
        var sideways = false
        /// Its line's `lineOffset` in MapLibre's shaping: how far the line's largest
        /// scaled glyph or image reaches past one em (centres them in a vertical line).
        var lineOffset = 0.0
    }

    var glyphs: [Glyph]
    var left: Double
    var top: Double
    var right: Double
    var bottom: Double
    /// The lines the text was broken into.
    var lineCount: Int
}

extension ShapedText {
    /// Whether any glyph stands upright (MapLibre's `verticalizable`): the text was shaped vertically.
    var isVertical: Bool { glyphs.contains(where: \.upright) }

    /// A vertical point label's shaping (``TextShaper/vertical`` with vertical
    /// placement) set as MapLibre draws it: the label is turned a quarter
    /// clockwise about its anchor, so its lines run down the view, right to
    /// left; each upright glyph is turned back (MapLibre's `getGlyphQuads`
    /// rotates it about the middle of its em box's left edge and the shader turns
    /// the whole label), which leaves it unturned at a moved pen; the others are
    /// drawn ``Glyph/sideways``. The box is the shaping's turned with the label.
    func verticalLabel() -> ShapedText {
        var out = self
        let em = TextShaper.oneEm
        for i in out.glyphs.indices {
            var g = out.glyphs[i]
            let halfAdvance = Double(g.glyph.advance) * g.scale / 2
            // Images and scaled glyphs centred in the vertical line.
            let centring = g.image != nil ? -(em - Double(g.glyph.width) * g.scale) / 2 : (g.scale - 1) * em
            let lineOffset = g.lineOffset / 2 - centring
            if g.upright {
                // The turned quad's corner moved back by the label's turn: see MapLibre's
                // `rotateVerticalGlyph` (its centre, −halfAdvance, halfAdvance − SHAPING_DEFAULT_OFFSET,
                // and its half-width correction).
                let imageCorrection = g.image != nil ? em / 2 - halfAdvance : 0
                let x = -halfAdvance + TextShaper.defaultOffset + imageCorrection - g.y + lineOffset
                g.y = g.x + TextShaper.defaultOffset + 10
                g.x = x
            } else {
                g.y -= lineOffset
                g.sideways = true
            }
            out.glyphs[i] = g
        }
        (out.left, out.top, out.right, out.bottom) = (-bottom, left, -top, right)
        return out
    }
}
