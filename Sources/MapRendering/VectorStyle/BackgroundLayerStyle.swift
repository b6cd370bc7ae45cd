/// A `background` layer's paint properties.
public struct BackgroundLayerStyle: Sendable {
    /// `background-color` (default black).
    public var color: StyleProperty<StyleColor>
    /// `background-opacity`, 0…1 (default 1).
    public var opacity: StyleProperty<Double>
    /// `background-pattern`: a sprite image's name tiled instead of the colour; empty (the default) for none.
    public var pattern: StyleProperty<String>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> BackgroundLayerStyle {
        BackgroundLayerStyle(color: color.atZoom(zoom), opacity: opacity.atZoom(zoom), pattern: pattern.atZoom(zoom))
    }
}
