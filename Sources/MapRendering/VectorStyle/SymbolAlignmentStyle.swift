/// How a symbol layer's text and icons follow their lines and the map
/// (`text-keep-upright`, `icon-keep-upright`, `*-rotation-alignment`, `*-pitch-alignment`).
public struct SymbolAlignmentStyle: Sendable {
    /// `text-keep-upright` (default true): a line label that would read upside down is flipped.
    public var textKeepUpright: StyleProperty<Bool>
    /// `icon-keep-upright` (default false): the same for icons along lines.
    public var iconKeepUpright: StyleProperty<Bool>
    /// `text-rotation-alignment` (default auto: the map along lines, else the viewport).
    public var textRotation: StyleProperty<StyleSymbolAlignment>
    /// `icon-rotation-alignment` (default auto).
    public var iconRotation: StyleProperty<StyleSymbolAlignment>
    /// `text-pitch-alignment` (default auto: as the rotation alignment).
    public var textPitch: StyleProperty<StyleSymbolAlignment>
    /// `icon-pitch-alignment` (default auto).
    public var iconPitch: StyleProperty<StyleSymbolAlignment>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> SymbolAlignmentStyle {
        SymbolAlignmentStyle(textKeepUpright: textKeepUpright.atZoom(zoom), iconKeepUpright: iconKeepUpright.atZoom(zoom),
                             textRotation: textRotation.atZoom(zoom), iconRotation: iconRotation.atZoom(zoom),
                             textPitch: textPitch.atZoom(zoom), iconPitch: iconPitch.atZoom(zoom))
    }

    /// The properties of a symbol layer's `layout`.
    static func read(layout: [String: StyleJSON], reader: inout StyleLayerReader) throws -> SymbolAlignmentStyle {
        typealias R = StyleLayerReader
        func alignment(_ name: String) throws -> StyleProperty<StyleSymbolAlignment> {
            try reader.property(name, in: layout, "layout", type: .enumeration, default: .auto, convert: R.enumeration(StyleSymbolAlignment.self))
        }
        return SymbolAlignmentStyle(
            textKeepUpright: try reader.property("text-keep-upright", in: layout, "layout", type: .boolean, default: true, convert: R.boolean),
            iconKeepUpright: try reader.property("icon-keep-upright", in: layout, "layout", type: .boolean, default: false, convert: R.boolean),
            textRotation: try alignment("text-rotation-alignment"), iconRotation: try alignment("icon-rotation-alignment"),
            textPitch: try alignment("text-pitch-alignment"), iconPitch: try alignment("icon-pitch-alignment"))
    }

    /// The layout properties ``read(layout:reader:)`` reads.
    static let properties: Set<String> = ["text-keep-upright", "icon-keep-upright", "text-rotation-alignment", "icon-rotation-alignment",
                                          "text-pitch-alignment", "icon-pitch-alignment"]
}

/// What a symbol's text or icon turns and tilts with (`*-rotation-alignment`, `*-pitch-alignment`).
public enum StyleSymbolAlignment: String, Sendable {
    /// With the map.
    case map
    /// Upright on the screen.
    case viewport
    /// The map for symbols along lines, else the viewport (for pitch: as the rotation alignment).
    case auto

    /// Whether a rotation alignment turns the symbol with the map for `placement`.
    func isMap(for placement: StyleSymbolPlacement) -> Bool {
        self == .map || (self == .auto && placement != .point)
    }
}
