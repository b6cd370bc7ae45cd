import Foundation

/// The sprites and glyphs a style names (its `sprite` and `glyphs`), loaded
/// once for a tile source and shared by every snapshot drawn from it.
///
/// Read through a ``StyleResourceLoading``: files (paths relative to the
/// style's folder, absolute paths, `file://` URLs), and `http(s)` through a
/// session with URLSchemeKit's `StyleSessionResources`. What cannot be loaded
/// (a URL the loader does not read, a missing or malformed file, a sheet over
/// ``SpriteLimits``) is named in ``warnings`` and drawn as MapLibre draws it
/// then: icons and patterns it names are left out, and labels fall back to
/// the built-in glyphs (``BuiltInGlyphs``), as they do for a style without `glyphs`.
public struct StyleResources: Sendable {
    /// The sprites' `1x` images, drawn at pixel ratio 1.
    public var sprites: Sprites
    /// The sprites' `@2x` images, drawn at pixel ratios over 1 (the `1x`
    /// images when a sprite has no `@2x` files).
    public var highDensitySprites: Sprites
    /// The style's glyph ranges, read on demand and kept: the ``BuiltInGlyphs``
    /// for a style without `glyphs` (nil only when the caller says so).
    public var glyphs: GlyphCache?
    /// Why a sprite or the glyphs named by the style are not drawn, one line each.
    public var warnings: [String]

    /// Resources holding `sprites` (for both densities) and `glyphs`.
    public init(sprites: Sprites = Sprites(), highDensitySprites: Sprites? = nil, glyphs: GlyphCache? = nil, warnings: [String] = []) {
        self.sprites = sprites
        self.highDensitySprites = highDensitySprites ?? sprites
        self.glyphs = glyphs
        self.warnings = warnings
    }

    /// The sprites and glyphs `style` names, read from files: relative ones
    /// from `folder` (the style file's folder; nil for a style that is not a
    /// file, whose relative names are then not loaded and warned about).
    public init(of style: VectorStyle, folder: URL?, spriteLimits: SpriteLimits = .default,
                glyphLimits: GlyphRangeLimits = .default) {
        // Without a folder relative names are refused before they reach the loader, so "/" is never read from.
        self.init(of: style, folder: folder, loading: StyleFolderResources(folder: folder ?? URL(fileURLWithPath: "/")),
                  spriteLimits: spriteLimits, glyphLimits: glyphLimits)
    }

    /// The sprites and glyphs `style` names, read through `resources` (e.g.
    /// URLSchemeKit's `StyleSessionResources` for `http(s)` too): relative
    /// names from `folder`, or warned about without one; a URL `resources`
    /// does not read is warned about before anything is read. Sprites are
    /// read here, glyph ranges when a label first needs them (their failures
    /// are the ``GlyphCache``'s `errors`).
    public init(of style: VectorStyle, folder: URL?, loading resources: any StyleResourceLoading,
                spriteLimits: SpriteLimits = .default, glyphLimits: GlyphRangeLimits = .default) {
        var warnings: [String] = []
        func readable(_ url: String) -> String? {
            if folder == nil && Self.isRelative(url) { return "a relative path needs the style's folder (open the style from its file)" }
            guard !resources.reads(url) else { return nil }
            return resources.reads("https://example.org/")
                ? "only files and http(s) URLs are read"
                : "only files are read (a path relative to the style, or a file:// URL; http(s) needs a session's configuration)"
        }
        var standard = Sprites(), high: Sprites?
        if !style.sprites.isEmpty {
            var named = style
            named.sprites = style.sprites.filter { sprite in
                guard let reason = readable(sprite.url) else { return true }
                warnings.append("sprite '\(sprite.url)' is not loaded: \(reason); its icons and patterns are not drawn")
                return false
            }
            if !named.sprites.isEmpty {
                let provider = ResourceSpriteProvider(resources: resources)
                do {
                    standard = try Sprites(of: named, pixelRatio: 1, from: provider, limits: spriteLimits)
                    high = try? Sprites(of: named, pixelRatio: 2, from: provider, limits: spriteLimits)
                } catch {
                    warnings.append("\(error); its icons and patterns are not drawn")
                }
            }
        }
        var glyphs = GlyphCache(provider: BuiltInGlyphs(), limits: glyphLimits)
        if let template = style.glyphs {
            if let reason = readable(template) {
                warnings.append("glyphs '\(template)' are not loaded: \(reason); labels use the built-in glyphs (\(BuiltInGlyphs.fontName))")
            } else {
                glyphs = GlyphCache(provider: ResourceGlyphProvider(resources: resources, template: template), limits: glyphLimits)
            }
        }
        self.init(sprites: standard, highDensitySprites: high, glyphs: glyphs, warnings: warnings)
    }

    /// The sprites drawn at `pixelRatio`, as MapLibre picks `@2x` files.
    public func sprites(forPixelRatio pixelRatio: Double) -> Sprites {
        pixelRatio > 1 ? highDensitySprites : sprites
    }

    /// Whether `url` is a path relative to the style (no scheme, not absolute).
    static func isRelative(_ url: String) -> Bool {
        !url.hasPrefix("/") && !url.contains("://") && !url.hasPrefix("mapbox:")
    }
}
