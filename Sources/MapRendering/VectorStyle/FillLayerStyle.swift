/// A `fill` layer's paint properties.
public struct FillLayerStyle: Sendable {
    /// `fill-color` (default black).
    public var color: StyleProperty<StyleColor>
    /// `fill-opacity`, 0…1 (default 1).
    public var opacity: StyleProperty<Double>
    /// `fill-outline-color`; nil (the default) outlines nothing.
    public var outlineColor: StyleProperty<StyleColor?>
    /// `fill-translate`, `[x, y]` in pixels, x right and y down (default `[0, 0]`).
    public var translate: StyleProperty<[Double]>
    /// `fill-translate-anchor` (default map): whether the translate turns with the map.
    public var translateAnchor: StyleProperty<StyleAlignment>
    /// `fill-antialias` (default true).
    public var antialias: StyleProperty<Bool>
    /// `fill-sort-key` (default 0): features with lower keys are drawn first.
    public var sortKey: StyleProperty<Double>
    /// `fill-pattern`: a sprite image's name tiled instead of the colour; empty (the default) for none.
    public var pattern: StyleProperty<String>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> FillLayerStyle {
        FillLayerStyle(color: color.atZoom(zoom), opacity: opacity.atZoom(zoom), outlineColor: outlineColor.atZoom(zoom),
                       translate: translate.atZoom(zoom), translateAnchor: translateAnchor.atZoom(zoom), antialias: antialias.atZoom(zoom), sortKey: sortKey.atZoom(zoom),
                       pattern: pattern.atZoom(zoom))
    }

    /// The feature properties the paint reads; nil when some of it reads the feature's id.
    var propertyKeys: Set<String>? {
        Set(unionOf: [color.propertyKeys, opacity.propertyKeys, outlineColor.propertyKeys, translate.propertyKeys,
                      antialias.propertyKeys, sortKey.propertyKeys, pattern.propertyKeys])
    }
}
