import Raster

/// One section of a `format` text as shaping and drawing read it: its
/// `font-scale`, font stack (the layer's when the section names none) and
/// colour, or the sprite image it draws in the text.
struct FormattedTextSection {
    /// `font-scale` (1 by default).
    var scale: Double
    /// The font stack its glyphs come from.
    var fontStack: [String]
    /// Its `text-color` with `text-opacity` applied; nil for the layer's colour.
    var color: RGBA?
    /// The image of an image section (nil for text, or when the sprite lacks it: then nothing is drawn).
    var image: SpriteImage?
}
