/// A `symbol` layer's icon properties: the sprite image drawn at each
/// point, as MapLibre draws it (see `docs/vector-maps.md`).
public struct SymbolIconStyle: Sendable {
    /// `icon-image`: the sprite image's name; empty (the default) draws no
    /// icon. `{name}` tokens in a constant are read as properties.
    public var image: StyleProperty<String>
    /// `icon-size` (default 1): the image's scale.
    public var size: StyleProperty<Double>
    /// `icon-anchor` (default center): the image's part at the point.
    public var anchor: StyleProperty<StyleIconAnchor>
    /// `icon-offset` in image pixels times `icon-size` (default [0, 0]).
    public var offset: StyleProperty<[Double]>
    /// `icon-rotate` in degrees clockwise (default 0).
    public var rotate: StyleProperty<Double>
    /// `icon-padding` in pixels (default 2): room kept clear around the icon.
    public var padding: StyleProperty<Double>
    /// `icon-allow-overlap` (default false).
    public var allowOverlap: StyleProperty<Bool>
    /// `icon-ignore-placement` (default false).
    public var ignorePlacement: StyleProperty<Bool>
    /// `icon-optional` (default false): the text may be drawn without the icon.
    public var optional: StyleProperty<Bool>
    /// `icon-opacity`, 0…1 (default 1).
    public var opacity: StyleProperty<Double>
    /// `icon-color` (default black): an SDF image's colour.
    public var color: StyleProperty<StyleColor>
    /// `icon-halo-color` (default transparent): an SDF image's halo.
    public var haloColor: StyleProperty<StyleColor>
    /// `icon-halo-width` in pixels (default 0).
    public var haloWidth: StyleProperty<Double>
    /// `icon-halo-blur` in pixels (default 0).
    public var haloBlur: StyleProperty<Double>
    /// `icon-translate` in pixels (default [0, 0]): moves the drawn icon, not its place.
    public var translate: StyleProperty<[Double]>
    /// `icon-text-fit` (default none): the icon stretched around the text.
    public var textFit: StyleProperty<StyleIconTextFit>
    /// `icon-text-fit-padding`: top, right, bottom, left in pixels (default 0s), added around the text.
    public var textFitPadding: StyleProperty<[Double]>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> SymbolIconStyle {
        SymbolIconStyle(image: image.atZoom(zoom), size: size.atZoom(zoom), anchor: anchor.atZoom(zoom), offset: offset.atZoom(zoom),
                        rotate: rotate.atZoom(zoom), padding: padding.atZoom(zoom), allowOverlap: allowOverlap.atZoom(zoom),
                        ignorePlacement: ignorePlacement.atZoom(zoom), optional: optional.atZoom(zoom), opacity: opacity.atZoom(zoom),
                        color: color.atZoom(zoom), haloColor: haloColor.atZoom(zoom), haloWidth: haloWidth.atZoom(zoom),
                        haloBlur: haloBlur.atZoom(zoom), translate: translate.atZoom(zoom),
                        textFit: textFit.atZoom(zoom), textFitPadding: textFitPadding.atZoom(zoom))
    }

    /// The icon properties of a symbol layer's `layout` and `paint`.
    static func read(layout: [String: StyleJSON], paint: [String: StyleJSON], reader: inout StyleLayerReader) throws -> SymbolIconStyle {
        typealias R = StyleLayerReader
        return SymbolIconStyle(
            image: try reader.property("icon-image", in: layout, "layout", type: .string, default: "", convert: R.text),
            size: try reader.property("icon-size", in: layout, "layout", type: .number, default: 1, convert: R.length),
            anchor: try reader.property("icon-anchor", in: layout, "layout", type: .enumeration, default: .center, convert: R.enumeration(StyleIconAnchor.self)),
            offset: try reader.property("icon-offset", in: layout, "layout", type: .numberArray, default: [0, 0], convert: R.offset),
            rotate: try reader.property("icon-rotate", in: layout, "layout", type: .number, default: 0, convert: R.number),
            padding: try reader.property("icon-padding", in: layout, "layout", type: .any, default: 2, convert: R.padding),
            allowOverlap: try reader.property("icon-allow-overlap", in: layout, "layout", type: .boolean, default: false, convert: R.boolean),
            ignorePlacement: try reader.property("icon-ignore-placement", in: layout, "layout", type: .boolean, default: false, convert: R.boolean),
            optional: try reader.property("icon-optional", in: layout, "layout", type: .boolean, default: false, convert: R.boolean),
            opacity: try reader.property("icon-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
            color: try reader.property("icon-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color),
            haloColor: try reader.property("icon-halo-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0, alpha: 0), convert: R.color),
            haloWidth: try reader.property("icon-halo-width", in: paint, "paint", type: .number, default: 0, convert: R.length),
            haloBlur: try reader.property("icon-halo-blur", in: paint, "paint", type: .number, default: 0, convert: R.length),
            translate: try reader.property("icon-translate", in: paint, "paint", type: .numberArray, default: [0, 0], convert: R.offset),
            textFit: try reader.property("icon-text-fit", in: layout, "layout", type: .enumeration, default: .none,
                                         convert: R.enumeration(StyleIconTextFit.self)),
            textFitPadding: try reader.property("icon-text-fit-padding", in: layout, "layout", type: .numberArray, default: [0, 0, 0, 0],
                                                convert: Self.fitPadding))
    }

    /// `icon-text-fit-padding`: four numbers.
    private static let fitPadding: @Sendable (StyleValue) -> [Double]? = { value in
        guard case .array(let elements) = value, elements.count == 4 else { return nil }
        let numbers = elements.compactMap(StyleLayerReader.number)
        return numbers.count == 4 ? numbers : nil
    }

    /// The layout and paint properties ``read(layout:paint:reader:)`` reads.
    static let properties: (layout: Set<String>, paint: Set<String>) = (
        ["icon-image", "icon-size", "icon-anchor", "icon-offset", "icon-rotate", "icon-padding", "icon-allow-overlap",
         "icon-ignore-placement", "icon-optional", "icon-text-fit", "icon-text-fit-padding"],
        ["icon-opacity", "icon-color", "icon-halo-color", "icon-halo-width", "icon-halo-blur", "icon-translate"])
}

/// The part of an icon placed at its point (`icon-anchor`).
public enum StyleIconAnchor: String, Sendable {
    /// The centre (the default).
    case center
    /// The middle of an edge.
    case left, right, top, bottom
    /// A corner.
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// How far across the icon (0 left … 1 right) and down it (0 top … 1 bottom) the point lies.
    var alignment: (x: Double, y: Double) {
        switch self {
        case .center: (0.5, 0.5)
        case .left: (0, 0.5)
        case .right: (1, 0.5)
        case .top: (0.5, 0)
        case .bottom: (0.5, 1)
        case .topLeft: (0, 0)
        case .topRight: (1, 0)
        case .bottomLeft: (0, 1)
        case .bottomRight: (1, 1)
        }
    }
}

/// How an icon is stretched around its text (`icon-text-fit`).
public enum StyleIconTextFit: String, Sendable {
    /// Not stretched (the default).
    case none
    /// Stretched across the text's width.
    case width
    /// Stretched down the text's height.
    case height
    /// Stretched both ways.
    case both
}
