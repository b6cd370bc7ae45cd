/// One layer of a ``VectorStyle``: which features it draws (source layer, zoom
/// range, filter) and how (its type's paint and layout properties).
public struct StyleLayer: Sendable {
    /// What a layer draws, with its type's properties.
    public enum Kind: Sendable {
        /// The map's background.
        case background(BackgroundLayerStyle)
        /// Polygons filled.
        case fill(FillLayerStyle)
        /// Lines (and polygon outlines) stroked.
        case line(LineLayerStyle)
        /// Text labels.
        case symbol(SymbolLayerStyle)
    }

    /// The layer's `id`, unique in its style.
    public var id: String
    /// The `source` it draws from (a vector source's name); nil for a background.
    public var source: String?
    /// The layer in the vector tiles (`source-layer`); nil for a background.
    public var sourceLayer: String?
    /// The least zoom it draws at (`minzoom`, inclusive; default 0).
    public var minimumZoom: Double
    /// The zoom from which it no longer draws (`maxzoom`, exclusive; default 24).
    public var maximumZoom: Double
    /// False when `layout.visibility` is `none`.
    public var isVisible: Bool
    /// The `filter`: features for which it is true are drawn (true if absent).
    public var filter: StyleProperty<Bool>
    /// The layer's type and properties.
    public var kind: Kind

    /// True if the layer draws at `zoom` (visible and within its zoom range).
    public func isShown(atZoom zoom: Double) -> Bool {
        isVisible && zoom >= minimumZoom && zoom < maximumZoom
    }

    /// True if `feature` passes the filter at `zoom`.
    public func matches<Feature: StyleFeature>(_ feature: Feature, atZoom zoom: Double) -> Bool {
        filter.value(atZoom: zoom, for: feature)
    }

    /// The layer with every property that depends on the zoom alone evaluated at
    /// `zoom`: call once per render, then evaluate per feature only what
    /// ``StyleProperty/isFeatureDependent``.
    public func atZoom(_ zoom: Double) -> StyleLayer {
        var layer = self
        layer.filter = filter.atZoom(zoom)
        switch kind {
        case .background(let style): layer.kind = .background(style.atZoom(zoom))
        case .fill(let style): layer.kind = .fill(style.atZoom(zoom))
        case .line(let style): layer.kind = .line(style.atZoom(zoom))
        case .symbol(let style): layer.kind = .symbol(style.atZoom(zoom))
        }
        return layer
    }
}

/// A `background` layer's paint properties.
public struct BackgroundLayerStyle: Sendable {
    /// `background-color` (default black).
    public var color: StyleProperty<StyleColor>
    /// `background-opacity`, 0…1 (default 1).
    public var opacity: StyleProperty<Double>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> BackgroundLayerStyle {
        BackgroundLayerStyle(color: color.atZoom(zoom), opacity: opacity.atZoom(zoom))
    }
}

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
    /// `fill-antialias` (default true).
    public var antialias: StyleProperty<Bool>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> FillLayerStyle {
        FillLayerStyle(color: color.atZoom(zoom), opacity: opacity.atZoom(zoom), outlineColor: outlineColor.atZoom(zoom),
                       translate: translate.atZoom(zoom), antialias: antialias.atZoom(zoom))
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
    /// `line-cap` (default butt).
    public var cap: StyleProperty<StyleLineCap>
    /// `line-join` (default miter).
    public var join: StyleProperty<StyleLineJoin>
    /// `line-miter-limit` (default 2).
    public var miterLimit: StyleProperty<Double>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> LineLayerStyle {
        LineLayerStyle(color: color.atZoom(zoom), width: width.atZoom(zoom), opacity: opacity.atZoom(zoom),
                       gapWidth: gapWidth.atZoom(zoom), dashArray: dashArray.atZoom(zoom), offset: offset.atZoom(zoom),
                       cap: cap.atZoom(zoom), join: join.atZoom(zoom), miterLimit: miterLimit.atZoom(zoom))
    }
}

/// Where a symbol layer places its labels (`symbol-placement`).
public enum StyleSymbolPlacement: String, Sendable {
    /// At the feature's point (or a polygon's or line's representative point).
    case point
    /// Along the line, following its direction.
    case line
}

/// A `symbol` layer's text properties (icons are outside the subset).
public struct SymbolLayerStyle: Sendable {
    /// `text-field`: the label; empty (the default) draws nothing. `{name}` tokens
    /// in a constant are read as properties.
    public var textField: StyleProperty<String>
    /// `text-size` in pixels (default 16).
    public var textSize: StyleProperty<Double>
    /// `symbol-placement` (default point).
    public var placement: StyleProperty<StyleSymbolPlacement>
    /// `text-color` (default black).
    public var textColor: StyleProperty<StyleColor>
    /// `text-halo-color` (default transparent).
    public var haloColor: StyleProperty<StyleColor>
    /// `text-halo-width` in pixels (default 0).
    public var haloWidth: StyleProperty<Double>
    /// `text-opacity`, 0…1 (default 1).
    public var textOpacity: StyleProperty<Double>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> SymbolLayerStyle {
        SymbolLayerStyle(textField: textField.atZoom(zoom), textSize: textSize.atZoom(zoom), placement: placement.atZoom(zoom),
                         textColor: textColor.atZoom(zoom), haloColor: haloColor.atZoom(zoom), haloWidth: haloWidth.atZoom(zoom),
                         textOpacity: textOpacity.atZoom(zoom))
    }
}
