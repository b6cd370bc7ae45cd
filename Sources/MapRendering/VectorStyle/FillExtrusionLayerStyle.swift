/// A `fill-extrusion` layer's paint properties: polygons raised into prisms
/// from `fill-extrusion-base` to `fill-extrusion-height` metres, lit by the
/// style's ``StyleLight`` as MapLibre's fill-extrusion shader lights them.
public struct FillExtrusionLayerStyle: Sendable {
    /// `fill-extrusion-color` (default black); its alpha darkens, it does not
    /// make the prism translucent (MapLibre's shader writes alpha 1).
    public var color: StyleProperty<StyleColor>
    /// `fill-extrusion-opacity`, 0…1 (default 1): the whole layer's, applied
    /// once to the nearest surfaces (never per face).
    public var opacity: StyleProperty<Double>
    /// `fill-extrusion-height` in metres (default 0; below 0 counts as 0).
    public var height: StyleProperty<Double>
    /// `fill-extrusion-base` in metres (default 0; below 0 counts as 0).
    public var base: StyleProperty<Double>
    /// `fill-extrusion-translate`, `[x, y]` in pixels, x right and y down (default `[0, 0]`).
    public var translate: StyleProperty<[Double]>
    /// `fill-extrusion-translate-anchor` (default map): whether the translate turns with the map.
    public var translateAnchor: StyleProperty<StyleAlignment>
    /// `fill-extrusion-vertical-gradient` (default true): walls darker towards their foot.
    public var verticalGradient: StyleProperty<Bool>
    /// `fill-extrusion-pattern`: a sprite image's name tiled over roofs and
    /// walls instead of the colour; empty (the default) for none.
    public var pattern = StyleProperty<String>(constant: "", convert: StyleLayerReader.text)

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> FillExtrusionLayerStyle {
        FillExtrusionLayerStyle(color: color.atZoom(zoom), opacity: opacity.atZoom(zoom), height: height.atZoom(zoom), base: base.atZoom(zoom),
                                translate: translate.atZoom(zoom), translateAnchor: translateAnchor.atZoom(zoom),
                                verticalGradient: verticalGradient.atZoom(zoom), pattern: pattern.atZoom(zoom))
    }

    /// The feature properties the paint reads; nil when some of it reads the feature's id.
    var propertyKeys: Set<String>? {
        Set(unionOf: [color.propertyKeys, height.propertyKeys, base.propertyKeys, pattern.propertyKeys])
    }
}
