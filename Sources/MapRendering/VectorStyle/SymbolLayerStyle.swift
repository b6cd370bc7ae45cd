/// A `symbol` layer's text and icon properties.
public struct SymbolLayerStyle: Sendable {
    /// `text-field`: the label; empty (the default) draws nothing. `{name}` tokens
    /// in a constant are read as properties.
    public var textField: StyleProperty<String>
    /// `text-size` in pixels (default 16).
    public var textSize: StyleProperty<Double>
    /// `symbol-placement` (default point).
    public var placement: StyleProperty<StyleSymbolPlacement>
    /// `text-max-width` in ems (default 10): point labels wrap at spaces to
    /// lines no wider; 0 keeps them on one line.
    public var maxWidth: StyleProperty<Double>
    /// `symbol-spacing` in pixels (default 250): the distance between labels
    /// repeated along one line.
    public var spacing: StyleProperty<Double>
    /// `text-padding` in pixels (default 2): room kept clear around a label's
    /// box when it is tested against others.
    public var padding: StyleProperty<Double>
    /// `text-max-angle` in degrees (default 45): the sharpest turn a line label
    /// may follow between neighbouring glyphs.
    public var maxAngle: StyleProperty<Double>
    /// `text-allow-overlap` (default false): when true the label is drawn even
    /// where it overlaps labels placed before it.
    public var allowOverlap: StyleProperty<Bool>
    /// `text-ignore-placement` (default false): when true later labels may
    /// overlap this one.
    public var ignorePlacement: StyleProperty<Bool>
    /// `text-color` (default black).
    public var textColor: StyleProperty<StyleColor>
    /// `text-halo-color` (default transparent).
    public var haloColor: StyleProperty<StyleColor>
    /// `text-halo-width` in pixels (default 0).
    public var haloWidth: StyleProperty<Double>
    /// `text-opacity`, 0…1 (default 1).
    public var textOpacity: StyleProperty<Double>
    /// The icon properties.
    public var icon: SymbolIconStyle
    /// The text layout and paint properties drawn with a style's own glyphs.
    public var text: SymbolTextStyle
    /// The order symbols are placed and drawn in, and their translations.
    public var order: SymbolPlacementStyle
    /// `text-field` as a `format` expression: its sections; nil for plain text.
    public var format: StyleFormattedText?
    /// How text and icons follow lines and the map.
    public var alignment: SymbolAlignmentStyle

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> SymbolLayerStyle {
        SymbolLayerStyle(textField: textField.atZoom(zoom), textSize: textSize.atZoom(zoom), placement: placement.atZoom(zoom),
                         maxWidth: maxWidth.atZoom(zoom), spacing: spacing.atZoom(zoom), padding: padding.atZoom(zoom),
                         maxAngle: maxAngle.atZoom(zoom), allowOverlap: allowOverlap.atZoom(zoom),
                         ignorePlacement: ignorePlacement.atZoom(zoom),
                         textColor: textColor.atZoom(zoom), haloColor: haloColor.atZoom(zoom), haloWidth: haloWidth.atZoom(zoom),
                         textOpacity: textOpacity.atZoom(zoom), icon: icon.atZoom(zoom), text: text.atZoom(zoom),
                         order: order.atZoom(zoom), format: format?.atZoom(zoom),
                         alignment: alignment.atZoom(zoom))
    }
}

/// Where a symbol layer places its labels (`symbol-placement`).
public enum StyleSymbolPlacement: String, Sendable {
    /// At each point of a point feature, a line's first point (as MapLibre), a polygon's centroid.
    case point
    /// Along the line, following its direction, every `symbol-spacing`.
    case line
    /// Once, at the middle of each line.
    case lineCenter = "line-center"
}
