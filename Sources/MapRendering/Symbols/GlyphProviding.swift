import Foundation

/// Where a style's glyph ranges come from: the bytes of one range file of
/// one font stack (`{fontstack}/{range}.pbf` of the style's `glyphs` URL).
public protocol GlyphProviding: Sendable {
    /// The file of the range named `range` (`"0-255"`) of `fontStack` (font
    /// names joined by commas, as MapLibre asks for them); nil when the
    /// source has no such file. Throws for a file that cannot be read, or one
    /// over `limits.maximumBytes` (before reading it whole).
    func glyphRange(fontStack: String, range: String, limits: GlyphRangeLimits) throws -> Data?
}
