/// A feature seen with the sprite its symbol is drawn from: `icon-image`'s
/// `["coalesce", ["image", name], …]` passes over the images the sprite lacks
/// (MapLibre's `ResolvedImage.available`), so a style's usual fallback to a
/// generic icon works. Everything else is the feature's own.
struct SpriteAwareFeature<Base: StyleFeature>: StyleFeature {
    var base: Base
    var images: [String: SpriteImage]

    var styleGeometryType: StyleGeometryType { base.styleGeometryType }
    var featureID: UInt64? { base.featureID }
    func styleValue(forKey key: String) -> StyleValue? { base.styleValue(forKey: key) }
    func styleTileGeometry() -> StyleTileGeometry? { base.styleTileGeometry() }
    func styleHasImage(named name: String) -> Bool { images[name] != nil }
}
