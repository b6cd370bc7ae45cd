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

/// Where a symbol layer places its labels (`symbol-placement`).
public enum StyleSymbolPlacement: String, Sendable {
    /// At the feature's point (or a polygon's or line's representative point).
    case point
    /// Along the line, following its direction.
    case line
}
