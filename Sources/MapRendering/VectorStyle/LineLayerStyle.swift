/// A `line` layer's paint and layout properties.
public struct LineLayerStyle: Sendable {
    /// `line-color` (default black).
    public var color: StyleProperty<StyleColor>
    /// `line-width` in pixels, ≥ 0 (default 1).
    public var width: StyleProperty<Double>
    /// `line-opacity`, 0…1 (default 1).
    public var opacity: StyleProperty<Double>
    /// `line-gap-width`, ≥ 0 (default 0): when positive the line is drawn as two
    /// strokes of `width` either side of a gap this wide (a casing).
    public var gapWidth: StyleProperty<Double>
    /// `line-dasharray`: dash and gap lengths in multiples of the line width;
    /// empty (the default) is solid.
    public var dashArray: StyleProperty<[Double]>
    /// `line-offset` in pixels, to the right of the line's direction (default 0).
    public var offset: StyleProperty<Double>
    /// `line-blur` in pixels, ≥ 0 (default 0): how far inside the edge the line fades out.
    public var blur: StyleProperty<Double>
    /// `line-translate`, `[x, y]` in pixels, x right and y down (default `[0, 0]`).
    public var translate: StyleProperty<[Double]>
    /// `line-translate-anchor` (default map): whether the translate turns with the map.
    public var translateAnchor: StyleProperty<StyleAlignment>
    /// `line-cap` (default butt).
    public var cap: StyleProperty<StyleLineCap>
    /// `line-join` (default miter).
    public var join: StyleProperty<StyleLineJoin>
    /// `line-miter-limit` (default 2).
    public var miterLimit: StyleProperty<Double>
    /// `line-sort-key` (default 0): features with lower keys are drawn first.
    public var sortKey: StyleProperty<Double>
    /// `line-gradient` over `["line-progress"]` (read through
    /// `StyleExpression.lineProgressKey`), nil for none: each line coloured along
    /// its whole length (the source needs `lineMetrics`); `line-color` is not drawn then.
    public var gradient: StyleProperty<StyleColor>? = nil
    /// `line-pattern`: a sprite image's name repeated along the line instead
    /// of its colour; empty (the default) for none.
    public var pattern = StyleProperty<String>(constant: "", convert: StyleLayerReader.text)

    /// `line-width` as dashes measure it: at the zoom's integer part (MapLibre's
    /// `floorwidth`); nil until ``atZoom(_:)`` evaluates it, when `width` serves.
    var dashWidth: StyleProperty<Double>?

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> LineLayerStyle {
        var style = LineLayerStyle(color: color.atZoom(zoom), width: width.atZoom(zoom), opacity: opacity.atZoom(zoom),
                       gapWidth: gapWidth.atZoom(zoom), dashArray: dashArray.atZoom(zoom), offset: offset.atZoom(zoom),
                       blur: blur.atZoom(zoom), translate: translate.atZoom(zoom), translateAnchor: translateAnchor.atZoom(zoom), cap: cap.atZoom(zoom), join: join.atZoom(zoom), miterLimit: miterLimit.atZoom(zoom),
                       sortKey: sortKey.atZoom(zoom), gradient: gradient?.atZoom(zoom), pattern: pattern.atZoom(zoom))
        style.dashWidth = (dashWidth ?? width).atZoom(zoom.rounded(.down))
        return style
    }

    /// The feature properties the paint and layout read; nil when some of it reads the feature's id.
    var propertyKeys: Set<String>? {
        Set(unionOf: [color.propertyKeys, width.propertyKeys, opacity.propertyKeys, gapWidth.propertyKeys,
                      dashArray.propertyKeys, offset.propertyKeys, blur.propertyKeys, translate.propertyKeys, cap.propertyKeys, join.propertyKeys,
                      miterLimit.propertyKeys, sortKey.propertyKeys, pattern.propertyKeys,
                      // A gradient is read along each line from where its tile's piece lies on the whole line.
                      gradient == nil ? [] : [GeoJSONTiles.clipStartKey, GeoJSONTiles.clipEndKey]])
    }
}

/// How a line's ends are drawn (`line-cap`).
public enum StyleLineCap: String, Sendable {
    /// Square at the end point (the default).
    case butt
    /// A half circle past the end.
    case round
    /// A half square past the end.
    case square
}

/// How a line's corners are drawn (`line-join`).
public enum StyleLineJoin: String, Sendable {
    /// Cut off square.
    case bevel
    /// Rounded.
    case round
    /// Pointed, up to the miter limit (the default).
    case miter
}
