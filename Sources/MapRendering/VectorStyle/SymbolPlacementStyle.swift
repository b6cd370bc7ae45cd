import Raster

/// A `symbol` layer's properties that order its symbols and move them when
/// drawn: `symbol-sort-key`, `symbol-z-order`, `text-optional`, and the
/// translations `text-translate`/`icon-translate` with their anchors, as
/// MapLibre places and draws them (`placement.ts`, `symbol_bucket.ts`).
public struct SymbolPlacementStyle: Sendable {
    /// `symbol-sort-key` (default none): symbols with lower keys are placed
    /// first (so win collisions) and drawn first (so lie underneath).
    public var sortKey: StyleProperty<Double?>
    /// `symbol-z-order` (default auto): the order overlapping symbols are drawn in.
    public var zOrder: StyleProperty<StyleSymbolZOrder>
    /// `text-optional` (default false): the icon may be drawn when its text does not fit.
    public var textOptional: StyleProperty<Bool>
    /// `text-translate` in pixels, [x, y] (default [0, 0]): moves the drawn text, not its place.
    public var textTranslate: StyleProperty<[Double]>
    /// `text-translate-anchor` (default map): whether `text-translate` turns with the map.
    public var textTranslateAnchor: StyleProperty<StyleAlignment>
    /// `icon-translate-anchor` (default map): whether `icon-translate` turns with the map.
    public var iconTranslateAnchor: StyleProperty<StyleAlignment>

    /// The layout and paint properties read here.
    static let properties: (layout: Set<String>, paint: Set<String>) = (
        ["symbol-sort-key", "symbol-z-order", "text-optional"], ["text-translate", "text-translate-anchor", "icon-translate-anchor"])

    /// Reads the properties from a layer's `layout` and `paint`.
    init(layout: [String: StyleJSON], paint: [String: StyleJSON], reader: inout StyleLayerReader) throws {
        typealias R = StyleLayerReader
        sortKey = try reader.property("symbol-sort-key", in: layout, "layout", type: .number, default: nil, convert: R.optionalNumber)
        zOrder = try reader.property("symbol-z-order", in: layout, "layout", type: .enumeration, default: .auto,
                                     convert: R.enumeration(StyleSymbolZOrder.self))
        textOptional = try reader.property("text-optional", in: layout, "layout", type: .boolean, default: false, convert: R.boolean)
        textTranslate = try reader.property("text-translate", in: paint, "paint", type: .numberArray, default: [0, 0], convert: R.offset)
        textTranslateAnchor = try reader.property("text-translate-anchor", in: paint, "paint", type: .enumeration, default: .map,
                                                  convert: R.enumeration(StyleAlignment.self))
        iconTranslateAnchor = try reader.property("icon-translate-anchor", in: paint, "paint", type: .enumeration, default: .map,
                                                  convert: R.enumeration(StyleAlignment.self))
    }

    private init(sortKey: StyleProperty<Double?>, zOrder: StyleProperty<StyleSymbolZOrder>, textOptional: StyleProperty<Bool>,
                 textTranslate: StyleProperty<[Double]>, textTranslateAnchor: StyleProperty<StyleAlignment>,
                 iconTranslateAnchor: StyleProperty<StyleAlignment>) {
        self.sortKey = sortKey
        self.zOrder = zOrder
        self.textOptional = textOptional
        self.textTranslate = textTranslate
        self.textTranslateAnchor = textTranslateAnchor
        self.iconTranslateAnchor = iconTranslateAnchor
    }

    /// The style with zoom-only properties evaluated: layout ones at the tile's
    /// zoom (``SymbolTextStyle/layoutZoom(_:)``), paint ones at `zoom`.
    public func atZoom(_ zoom: Double) -> SymbolPlacementStyle {
        let z = SymbolTextStyle.layoutZoom(zoom)
        return SymbolPlacementStyle(sortKey: sortKey.atZoom(z), zOrder: zOrder.atZoom(z), textOptional: textOptional.atZoom(z),
                                    textTranslate: textTranslate.atZoom(zoom), textTranslateAnchor: textTranslateAnchor.atZoom(zoom),
                                    iconTranslateAnchor: iconTranslateAnchor.atZoom(zoom))
    }

    /// `translate` (pixels) as drawn on a map turned by `cos` and `sin` (the
    /// tile's, ``TileCover/Placed``): turned with the map when anchored to it,
    /// as it is on the screen when anchored to the viewport (MapLibre's `translatePosition`).
    static func translation(_ translate: [Double], anchor: StyleAlignment, cos: Double, sin: Double) -> Point {
        guard translate.count == 2 else { return Point(0, 0) }
        guard anchor == .map else { return Point(translate[0], translate[1]) }
        return Point(cos * translate[0] - sin * translate[1], sin * translate[0] + cos * translate[1])
    }
}

/// The order a symbol layer's overlapping symbols are drawn in (`symbol-z-order`).
public enum StyleSymbolZOrder: String, Sendable {
    /// By `symbol-sort-key` when the layer has one, else as `viewport-y` when its symbols may overlap.
    case auto
    /// Top of the view first, so lower symbols are drawn over higher ones.
    case viewportY = "viewport-y"
    /// In the source's order (or the sort key's).
    case source
}
