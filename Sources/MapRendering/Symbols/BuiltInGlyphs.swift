import Foundation

/// The package's own glyph set: MapLibre SDF glyph ranges made by
/// `urlscheme glyphs` from Open Sans Regular (Apache-2.0, embedded by
/// `Scripts/make_builtin_glyphs.py`), for Basic Latin and Latin-1, Latin
/// Extended-A/B, Greek, Cyrillic and General Punctuation.
///
/// A style without `glyphs` (or whose glyphs cannot be loaded) draws its
/// labels from these, whatever font stack it names, shaped and drawn as
/// MapLibre draws glyph ranges; characters outside these ranges are left out,
/// as MapLibre leaves out glyphs a range lacks.
public struct BuiltInGlyphs: GlyphProviding {
    /// The font the ranges were made from.
    public static let fontName = "Open Sans Regular"

    /// The first code point of each range held (each 256 code points).
    public static var rangeStarts: [UInt32] { rangesBase64.keys.sorted() }

    /// The ranges' bytes, decoded once, when a label first needs them.
    private static let ranges: [UInt32: Data] = rangesBase64.compactMapValues { Data(base64Encoded: $0, options: .ignoreUnknownCharacters) }

    /// The built-in glyph set.
    public init() {}

    /// The range `range` (`"0-255"`) whatever `fontStack` names; nil for a
    /// range the set does not hold.
    public func glyphRange(fontStack: String, range: String, limits: GlyphRangeLimits) throws -> Data? {
        let bounds = range.split(separator: "-")
        guard bounds.count == 2, let first = UInt32(bounds[0]), let last = UInt32(bounds[1]), first % 256 == 0, last == first + 255 else {
            return nil
        }
        return Self.ranges[first]
    }
}
