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

    /// One warning per image a layer of `style` names by a constant
    /// `icon-image` that these sprites lack, naming the layers that ask for it
    /// (the renderer draws no icon for them).
    public func warnings(for style: VectorStyle) -> [String] {
        var layersByName: [String: [String]] = [:]
        var order: [String] = []
        for layer in style.layers {
            guard case .symbol(let symbol) = layer.kind, let name = symbol.icon.image.constantValue,
                  !name.isEmpty, images[name] == nil else { continue }
            if layersByName[name] == nil { order.append(name) }
            layersByName[name, default: []].append(layer.id)
        }
        return order.map { name in
            let layers = layersByName[name]!
            return "icon-image '\(name)' is not in the sprite (layer\(layers.count == 1 ? "" : "s") \(layers.map { "'\($0)'" }.joined(separator: ", ")))"
        }
    }

    /// A function adding an extension to the sprite `base`, with `@2x` before
    /// it when `highDensity`, before any query string (MapLibre's `normalizeSpriteURL`).
    static func url(_ base: String, highDensity: Bool) -> (String) -> String {
        let (path, query) = base.firstIndex(of: "?").map { (String(base[..<$0]), String(base[$0...])) } ?? (base, "")
        return { path + (highDensity ? "@2x" : "") + $0 + query }
    }
}
