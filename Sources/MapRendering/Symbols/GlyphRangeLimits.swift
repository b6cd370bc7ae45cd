/// Bounds on one glyph range file, checked before its glyphs are kept: a
/// hostile or broken file is refused with a ``GlyphRangeError`` naming the limit.
public struct GlyphRangeLimits: Sendable, Equatable {
    /// The largest file read, in bytes. Real ranges are 20–300 KB (CJK ones the largest).
    public var maximumBytes: Int
    /// The most glyph entries a file may hold (a range covers 256 code points).
    public var maximumGlyphs: Int
    /// The largest glyph ink side, in pixels at the 24-pixel glyph size.
    public var maximumGlyphSide: Int

    /// Limits with the given values.
    public init(maximumBytes: Int = 4 << 20, maximumGlyphs: Int = 1024, maximumGlyphSide: Int = 255) {
        self.maximumBytes = maximumBytes
        self.maximumGlyphs = maximumGlyphs
        self.maximumGlyphSide = maximumGlyphSide
    }

    /// 4 MiB, 1024 glyphs, 255-pixel sides.
    public static let `default` = GlyphRangeLimits()
}
