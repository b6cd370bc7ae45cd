/// A `circle` layer's paint and layout properties: a disc at every vertex of
/// every feature, as MapLibre's circle layer draws them.
public struct CircleLayerStyle: Sendable {
    /// `circle-radius` in pixels, ≥ 0 (default 5).
    public var radius: StyleProperty<Double>
    /// `circle-color` (default black).
    public var color: StyleProperty<StyleColor>
    /// `circle-blur` (default 0): the part of the radius, from the rim
    /// inwards, over which the circle fades (1 fades from the centre).
    public var blur: StyleProperty<Double>
    /// `circle-opacity`, 0…1 (default 1).
    public var opacity: StyleProperty<Double>
    /// `circle-translate`, `[x, y]` in pixels, x right and y down (default `[0, 0]`).
    public var translate: StyleProperty<[Double]>
    /// `circle-translate-anchor` (default map).
    public var translateAnchor: StyleProperty<StyleAlignment>
    /// `circle-pitch-scale` (default map): whether circles shrink with
    /// distance under pitch.
    public var pitchScale: StyleProperty<StyleAlignment>
    /// `circle-pitch-alignment` (default viewport): whether circles lie on
    /// the map under pitch.
    public var pitchAlignment: StyleProperty<StyleAlignment>
    /// `circle-stroke-width` in pixels, ≥ 0 (default 0), outside the radius.
    public var strokeWidth: StyleProperty<Double>
    /// `circle-stroke-color` (default black).
    public var strokeColor: StyleProperty<StyleColor>
    /// `circle-stroke-opacity`, 0…1 (default 1).
    public var strokeOpacity: StyleProperty<Double>
    /// `circle-sort-key` (layout): circles with a greater key are drawn
    /// over those with a smaller one; nil (the default) keeps feature order.
    public var sortKey: StyleProperty<Double?>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> CircleLayerStyle {
        CircleLayerStyle(radius: radius.atZoom(zoom), color: color.atZoom(zoom), blur: blur.atZoom(zoom), opacity: opacity.atZoom(zoom),
                         translate: translate.atZoom(zoom), translateAnchor: translateAnchor.atZoom(zoom),
                         pitchScale: pitchScale.atZoom(zoom), pitchAlignment: pitchAlignment.atZoom(zoom),
                         strokeWidth: strokeWidth.atZoom(zoom), strokeColor: strokeColor.atZoom(zoom),
                         strokeOpacity: strokeOpacity.atZoom(zoom), sortKey: sortKey.atZoom(zoom))
    }

    /// The feature properties the paint and layout read; nil when some of it reads the feature's id.
    var propertyKeys: Set<String>? {
        Set(unionOf: [radius.propertyKeys, color.propertyKeys, blur.propertyKeys, opacity.propertyKeys, translate.propertyKeys,
                      strokeWidth.propertyKeys, strokeColor.propertyKeys, strokeOpacity.propertyKeys, sortKey.propertyKeys])
    }
}
