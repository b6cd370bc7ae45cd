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
        // Boxed: with its text properties the payload's copies crashed (SIGSEGV in
        // swift_retain) in VectorMapURLTests' async test, debug build.
        /// Text labels.
        indirect case symbol(SymbolLayerStyle)
        /// A `raster` or `image` source's pictures, recoloured.
        case raster(RasterLayerStyle)
        /// A `raster-dem` source's relief, shaded.
        case hillshade(HillshadeLayerStyle)
        /// A disc at every vertex.
        case circle(CircleLayerStyle)
        /// Points spread into a density, coloured.
        case heatmap(HeatmapLayerStyle)
        /// Polygons raised into lit prisms.
        case fillExtrusion(FillExtrusionLayerStyle)
    }

    /// The layer's `id`, unique in its style.
    public var id: String
    /// The `source` it draws from; nil for a background.
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
        case .raster(let style): layer.kind = .raster(style.atZoom(zoom))
        case .hillshade(let style): layer.kind = .hillshade(style.atZoom(zoom))
        case .circle(let style): layer.kind = .circle(style.atZoom(zoom))
        case .heatmap(let style): layer.kind = .heatmap(style.atZoom(zoom))
        case .fillExtrusion(let style): layer.kind = .fillExtrusion(style.atZoom(zoom))
        }
        return layer
    }
}
