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
