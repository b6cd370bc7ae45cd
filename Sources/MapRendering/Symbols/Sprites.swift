import Foundation

/// The images of a style's sprites, by the names `icon-image` and the
/// `*-pattern` properties use: one sprite's names as they are, those of the
/// array form's sprites `id:name` (except the sprite with id `default`), as
/// MapLibre names them.
public struct Sprites: Sendable {
    /// Every image by name.
    public var images: [String: SpriteImage]

    /// Sprites with `images`.
    public init(images: [String: SpriteImage] = [:]) {
        self.images = images
    }

    /// The sprites `style` names, read through `provider`: the `@2x` files
    /// when `pixelRatio` is over 1, as MapLibre chooses them.
    /// - Throws: ``SpriteError`` naming the file at fault.
    public init(of style: VectorStyle, pixelRatio: Double, from provider: any SpriteProviding,
                limits: SpriteLimits = .default) throws {
        var images: [String: SpriteImage] = [:]
        for sprite in style.sprites {
            let url = Self.url(sprite.url, highDensity: pixelRatio > 1)
            let index = try provider.spriteFile(url(".json"), maximumBytes: limits.maximumIndexBytes)
            let sheet = try provider.spriteFile(url(".png"), maximumBytes: limits.maximumSheetBytes)
            let prefix = sprite.id == "default" ? "" : sprite.id + ":"
            let read = try SpriteSheet(index: index, sheet: sheet, name: url(""), prefix: prefix, limits: limits)
            guard images.count + read.images.count <= limits.maximumEntryCount else {
                throw SpriteError(file: url(".json"), "the style's sprites name over \(limits.maximumEntryCount) images, the limit")
            }
            images.merge(read.images) { first, _ in first }
        }
        self.images = images
    }

    /// One warning per image that layers of `style` name by a constant
    /// `icon-image`, `fill-pattern` or `background-pattern` and these sprites
    /// lack (none are loaded, or the sheet has no such image), naming each
    /// layer that asks for it: the renderer draws no icon, and a pattern
    /// layer nothing, for them (as MapLibre).
    public func warnings(for style: VectorStyle) -> [String] {
        var uses: [String: [String]] = [:]
        var order: [String] = []
        for layer in style.layers {
            let asked: (name: String?, use: String)
            switch layer.kind {
            case .symbol(let symbol): asked = (symbol.icon.image.constantValue, "no icon")
            case .fill(let fill): asked = (fill.pattern.constantValue, "no fill-pattern")
            case .line(let line): asked = (line.pattern.constantValue, "no line-pattern")
            case .fillExtrusion(let extrusion): asked = (extrusion.pattern.constantValue, "no fill-extrusion-pattern")
            case .background(let background): asked = (background.pattern.constantValue, "no background-pattern")
            default: continue
            }
            guard let name = asked.name, !name.isEmpty, images[name] == nil else { continue }
            if uses[name] == nil { order.append(name) }
            uses[name, default: []].append("layer '\(layer.id)' draws \(asked.use)")
        }
        return order.map { "image '\($0)' is not in the sprite: " + uses[$0]!.joined(separator: ", ") }
    }

    /// A function adding an extension to the sprite `base`, with `@2x` before
    /// it when `highDensity`, before any query string (MapLibre's `normalizeSpriteURL`).
    static func url(_ base: String, highDensity: Bool) -> (String) -> String {
        let (path, query) = base.firstIndex(of: "?").map { (String(base[..<$0]), String(base[$0...])) } ?? (base, "")
        return { path + (highDensity ? "@2x" : "") + $0 + query }
    }
}
