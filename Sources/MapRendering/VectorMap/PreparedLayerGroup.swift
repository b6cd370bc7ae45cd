import Raster

/// Features of one tile layer that one style layer draws alike: their paint
/// as the style evaluates it at a zoom (widths and offsets in points, before
/// the output scale) and their parts (indices into the tile layer's
/// `partStarts`), in feature order. What MapLibre keeps per tile and style
/// layer as a "bucket", minus the tessellation.
struct PreparedLayerGroup: Sendable {
    /// A group's paint before scaling.
    enum Paint: Hashable, Sendable {
        /// A `fill`: colour and outline colour at their opacity, translate in points ([] for none);
        /// with a `fill-pattern` (its image's name, "" for none) the pattern at `opacity` instead,
        /// its edges smoothed when `antialias`.
        case fill(color: RGBA, outline: RGBA?, translate: [Double], translateAnchor: StyleAlignment, sortKey: Double,
                  pattern: String = "", opacity: Double = 1, antialias: Bool = true)
        /// A `line`; with a `line-gradient`, its ramp and the feature's
        /// `lineMetrics` (`[start, end]` on its whole line, or [] for none);
        /// with a `line-pattern` (its image's name, "" for none) the pattern at `opacity` instead of the colour.
        case line(color: RGBA, width: Double, gap: Double, offset: Double, blur: Double, translate: [Double], translateAnchor: StyleAlignment,
                  dashes: [Double], dashWidth: Double,
                  cap: StyleLineCap, join: StyleLineJoin, miterLimit: Double, sortKey: Double,
                  gradient: LineGradient? = nil, clips: [Double] = [], pattern: String = "", opacity: Double = 1)
        /// A `circle`.
        case circle(CircleLayerDrawer.Paint)
        /// A `heatmap`'s weight and radius.
        case heatmap(HeatmapLayerDrawer.Paint)
        /// A `fill-extrusion`'s colour, height and base.
        case fillExtrusion(FillExtrusionLayerDrawer.Paint)
    }

    var paint: Paint
    /// Part indices, with ``closedFlag`` set on a line or circle layer's
    /// polygon rings (stroked closed; a circle on the closing vertex too). Kept in feature order, rings and lines interleaved as
    /// the tile has them, so a stroke's pieces add up in the same order.
    var parts: [UInt32]
    /// The bit of a part marking a closed ring (a tile's parts are far fewer than 2³¹).
    static let closedFlag: UInt32 = 1 << 31
}
