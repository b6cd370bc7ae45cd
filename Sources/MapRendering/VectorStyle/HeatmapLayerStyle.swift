/// A `heatmap` layer's paint properties: every vertex of every feature spread
/// as a gaussian kernel, the summed density coloured through `heatmap-color`,
/// as MapLibre's heatmap layer draws them.
public struct HeatmapLayerStyle: Sendable {
    /// `heatmap-radius` in pixels, ≥ 1 (default 30): the kernel's radius.
    public var radius: StyleProperty<Double>
    /// `heatmap-weight`, ≥ 0 (default 1): how much a point adds.
    public var weight: StyleProperty<Double>
    /// `heatmap-intensity`, ≥ 0 (default 1): a factor over every weight.
    public var intensity: StyleProperty<Double>
    /// `heatmap-color` over `["heatmap-density"]` (read through
    /// `StyleExpression.heatmapDensityKey`); MapLibre's blue-to-red ramp by default.
    public var color: StyleProperty<StyleColor>
    /// `heatmap-opacity`, 0…1 (default 1).
    public var opacity: StyleProperty<Double>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> HeatmapLayerStyle {
        HeatmapLayerStyle(radius: radius.atZoom(zoom), weight: weight.atZoom(zoom), intensity: intensity.atZoom(zoom),
                          color: color.atZoom(zoom), opacity: opacity.atZoom(zoom))
    }

    /// The feature properties the paint reads; nil when some of it reads the feature's id.
    var propertyKeys: Set<String>? {
        Set(unionOf: [radius.propertyKeys, weight.propertyKeys])
    }

    /// The specification's default `heatmap-color`.
    static let defaultColor = StyleJSON.array(
        [.string("interpolate"), .array([.string("linear")]), .array([.string("heatmap-density")])]
            + [(0, "rgba(0, 0, 255, 0)"), (0.1, "royalblue"), (0.3, "cyan"), (0.5, "lime"), (0.7, "yellow"), (1, "red")]
            .flatMap { [StyleJSON.number($0.0), .string($0.1)] })
}
