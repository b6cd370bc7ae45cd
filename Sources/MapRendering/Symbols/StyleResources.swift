import Foundation

/// The sprites and glyphs a style names (its `sprite` and `glyphs`), loaded
/// once for a tile source and shared by every snapshot drawn from it.
///
/// Read from files: paths relative to the style's folder, absolute paths and
/// `file://` URLs. What cannot be loaded (an `http(s)` URL, a missing or
/// malformed file, a sheet over ``SpriteLimits``) is named in ``warnings``
/// and drawn as MapLibre draws it then: icons and patterns it names are left
/// out, and labels fall back to the built-in font.
public struct StyleResources: Sendable {
    /// The sprites' `1x` images, drawn at pixel ratio 1.
    public var sprites: Sprites
    /// The sprites' `@2x` images, drawn at pixel ratios over 1 (the `1x`
    /// images when a sprite has no `@2x` files).
    public var highDensitySprites: Sprites
    /// The style's glyph ranges, read on demand and kept; nil without `glyphs`.
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

    /// The sprites and glyphs `style` names, relative ones read from `folder`
    /// (the style file's folder; nil for a style that is not a file, whose
    /// relative names are then not loaded and warned about).
    public init(of style: VectorStyle, folder: URL?, spriteLimits: SpriteLimits = .default,
                glyphLimits: GlyphRangeLimits = .default) {
        var warnings: [String] = []
        var standard = Sprites(), high: Sprites?
        if !style.sprites.isEmpty {
            let local = style.sprites.filter { Self.isLocal($0.url, folder: folder) }
            for sprite in style.sprites where !local.contains(sprite) {
                warnings.append("sprite '\(sprite.url)' is not loaded: \(Self.whyNotLocal(sprite.url)); its icons and patterns are not drawn")
            }
            if !local.isEmpty {
                var named = style
                // Absolute paths as file:// URLs: the provider reads other paths inside its folder.
                named.sprites = local.map { StyleSprite(id: $0.id, url: $0.url.hasPrefix("/") ? "file://" + $0.url : $0.url) }
                let provider = DirectorySpriteProvider(directory: folder ?? URL(fileURLWithPath: "/"))
                do {
                    standard = try Sprites(of: named, pixelRatio: 1, from: provider, limits: spriteLimits)
                    high = try? Sprites(of: named, pixelRatio: 2, from: provider, limits: spriteLimits)
                } catch {
                    warnings.append("\(error); its icons and patterns are not drawn")
                }
            }
        }
        var glyphs: GlyphCache?
        if let template = style.glyphs {
            if Self.isLocal(template, folder: folder) {
                do {
                    let located = template.hasPrefix("file://") || template.hasPrefix("/") || folder == nil
                        ? template : folder!.path + "/" + template
                    glyphs = GlyphCache(provider: try GlyphFolderProvider(template: located), limits: glyphLimits)
                } catch {
                    warnings.append("\(error); labels use the built-in font")
                }
            } else {
                warnings.append("glyphs '\(template)' are not loaded: \(Self.whyNotLocal(template)); labels use the built-in font")
            }
        }
        self.init(sprites: standard, highDensitySprites: high, glyphs: glyphs, warnings: warnings)
    }

    /// The sprites drawn at `pixelRatio`, as MapLibre picks `@2x` files.
    public func sprites(forPixelRatio pixelRatio: Double) -> Sprites {
        pixelRatio > 1 ? highDensitySprites : sprites
    }

    /// Whether `url` names a file: a `file://` URL, an absolute path, or a
    /// relative path when there is a folder to read it from.
    static func isLocal(_ url: String, folder: URL?) -> Bool {
        if url.hasPrefix("file://") || url.hasPrefix("/") { return true }
        return folder != nil && !url.contains("://") && !url.hasPrefix("mapbox:")
    }

    /// Why `url` is not read from a file.
    static func whyNotLocal(_ url: String) -> String {
        url.contains("://") || url.hasPrefix("mapbox:")
            ? "only files are read (a path relative to the style, or a file:// URL)"
            : "a relative path needs the style's folder (open the style from its file)"
    }
}
