/// A `hillshade` layer's paint properties: how a `raster-dem` source's
/// slopes are shaded (MapLibre's hillshade shaders).
public struct HillshadeLayerStyle: Sendable {
    /// `hillshade-illumination-anchor`: what the light's direction is relative to.
    public enum Anchor: String, Sendable {
        /// North: the light turns with the map.
        case map
        /// The top of the image (the default).
        case viewport
    }

    /// `hillshade-illumination-direction`, degrees clockwise from the anchor's up (default 335).
    public var illuminationDirection: StyleProperty<Double>
    /// `hillshade-illumination-anchor` (default viewport).
    public var illuminationAnchor: StyleProperty<Anchor>
    /// `hillshade-exaggeration`, 0…1 (default 0.5).
    public var exaggeration: StyleProperty<Double>
    /// `hillshade-shadow-color` (default black).
    public var shadowColor: StyleProperty<StyleColor>
    /// `hillshade-highlight-color` (default white).
    public var highlightColor: StyleProperty<StyleColor>
    /// `hillshade-accent-color` (default black).
    public var accentColor: StyleProperty<StyleColor>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> HillshadeLayerStyle {
        HillshadeLayerStyle(illuminationDirection: illuminationDirection.atZoom(zoom), illuminationAnchor: illuminationAnchor.atZoom(zoom),
                            exaggeration: exaggeration.atZoom(zoom), shadowColor: shadowColor.atZoom(zoom),
                            highlightColor: highlightColor.atZoom(zoom), accentColor: accentColor.atZoom(zoom))
    }
}
