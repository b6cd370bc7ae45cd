/// A `symbol` layer's text properties drawn when the style has its own
/// glyphs (`glyphs`): font stack, line layout, anchor and offsets, rotation,
/// halo blur. With the embedded font only ``SymbolLayerStyle``'s own are drawn.
///
/// As in MapLibre, layout properties are evaluated at the tile's zoom (the
/// style zoom rounded down, ``layoutZoom(_:)``), paint ones at the style zoom.
public struct SymbolTextStyle: Sendable {
    /// `text-max-width` in ems (default 10), at the layout zoom.
    public var maxWidth: StyleProperty<Double>
    /// `text-font`: the font stack, first font first (default Open Sans Regular, Arial Unicode MS Regular).
    public var font: StyleProperty<[String]>
    /// `text-line-height` in ems (default 1.2).
    public var lineHeight: StyleProperty<Double>
    /// `text-letter-spacing` in ems (default 0).
    public var letterSpacing: StyleProperty<Double>
    /// `text-justify` (default center).
    public var justify: StyleProperty<StyleTextJustify>
    /// `text-anchor` (default center).
    public var anchor: StyleProperty<StyleTextAnchor>
    /// `text-offset` in ems, [x, y] (default [0, 0]).
    public var offset: StyleProperty<[Double]>
    /// `text-radial-offset` in ems (default 0): when set, it replaces `text-offset`, away from the anchor.
    public var radialOffset: StyleProperty<Double>
    /// `text-transform` (default none).
    public var transform: StyleProperty<StyleTextTransform>
    /// `text-rotate` in degrees clockwise (default 0).
    public var rotate: StyleProperty<Double>
    /// `text-halo-blur` in pixels (default 0).
    public var haloBlur: StyleProperty<Double>
    /// `text-variable-anchor`: anchors tried in order until one fits (default none: `text-anchor` alone).
    public var variableAnchor: StyleProperty<[StyleTextAnchor]>
    /// `text-variable-anchor-offset`: anchors tried in order, each with its own
    /// offset in ems (default none); when given it replaces `text-variable-anchor`.
    public var variableAnchorOffset: StyleProperty<[StyleAnchorOffset]>
    /// `text-writing-mode`: the writing modes a point label is tried in, in order
    /// (default none: horizontal only).
    public var writingMode: StyleProperty<[StyleWritingMode]>

    /// The layout properties read here.
    static let layoutProperties = ["text-line-height", "text-letter-spacing", "text-justify", "text-anchor", "text-offset",
                                   "text-radial-offset", "text-transform", "text-rotate", "text-variable-anchor",
                                   "text-variable-anchor-offset", "text-writing-mode"]
    /// The paint properties read here.
    static let paintProperties = ["text-halo-blur"]

    /// Reads the properties from a layer's `layout` and `paint`.
    init(layout: [String: StyleJSON], paint: [String: StyleJSON], reader: inout StyleLayerReader) throws {
        typealias R = StyleLayerReader
        maxWidth = try reader.property("text-max-width", in: layout, "layout", type: .number, default: 10, convert: R.length)
        font = try reader.property("text-font", in: layout, "layout", type: .any,
                                   default: ["Open Sans Regular", "Arial Unicode MS Regular"], convert: R.fontStack)
        lineHeight = try reader.property("text-line-height", in: layout, "layout", type: .number, default: 1.2, convert: R.number)
        letterSpacing = try reader.property("text-letter-spacing", in: layout, "layout", type: .number, default: 0, convert: R.number)
        justify = try reader.property("text-justify", in: layout, "layout", type: .enumeration, default: .center, convert: R.enumeration(StyleTextJustify.self))
        anchor = try reader.property("text-anchor", in: layout, "layout", type: .enumeration, default: .center, convert: R.enumeration(StyleTextAnchor.self))
        offset = try reader.property("text-offset", in: layout, "layout", type: .numberArray, default: [0, 0], convert: R.offset)
        radialOffset = try reader.property("text-radial-offset", in: layout, "layout", type: .number, default: 0, convert: R.number)
        transform = try reader.property("text-transform", in: layout, "layout", type: .enumeration, default: .none, convert: R.enumeration(StyleTextTransform.self))
        rotate = try reader.property("text-rotate", in: layout, "layout", type: .number, default: 0, convert: R.number)
        haloBlur = try reader.property("text-halo-blur", in: paint, "paint", type: .number, default: 0, convert: R.length)
        variableAnchor = try reader.property("text-variable-anchor", in: layout, "layout", type: .any, default: [], convert: R.anchors)
        variableAnchorOffset = try reader.property("text-variable-anchor-offset", in: layout, "layout", type: .any, default: [],
                                                   convert: R.anchorOffsets)
        writingMode = try reader.property("text-writing-mode", in: layout, "layout", type: .any, default: [], convert: R.writingModes)
    }

    private init(maxWidth: StyleProperty<Double>, font: StyleProperty<[String]>, lineHeight: StyleProperty<Double>, letterSpacing: StyleProperty<Double>,
                 justify: StyleProperty<StyleTextJustify>, anchor: StyleProperty<StyleTextAnchor>, offset: StyleProperty<[Double]>,
                 radialOffset: StyleProperty<Double>, transform: StyleProperty<StyleTextTransform>, rotate: StyleProperty<Double>,
                 haloBlur: StyleProperty<Double>, variableAnchor: StyleProperty<[StyleTextAnchor]>,
                 variableAnchorOffset: StyleProperty<[StyleAnchorOffset]>, writingMode: StyleProperty<[StyleWritingMode]>) {
        self.maxWidth = maxWidth
        self.font = font
        self.lineHeight = lineHeight
        self.letterSpacing = letterSpacing
        self.justify = justify
        self.anchor = anchor
        self.offset = offset
        self.radialOffset = radialOffset
        self.transform = transform
        self.rotate = rotate
        self.haloBlur = haloBlur
        self.variableAnchor = variableAnchor
        self.variableAnchorOffset = variableAnchorOffset
        self.writingMode = writingMode
    }

    /// The zoom layout properties are evaluated at for the style zoom `zoom`: the tile's.
    public static func layoutZoom(_ zoom: Double) -> Double { zoom.rounded(.down) }

    /// The style with zoom-only properties evaluated at `zoom` (layout ones at ``layoutZoom(_:)``).
    public func atZoom(_ zoom: Double) -> SymbolTextStyle {
        let z = Self.layoutZoom(zoom)
        return SymbolTextStyle(maxWidth: maxWidth.atZoom(z), font: font.atZoom(z), lineHeight: lineHeight.atZoom(z),
                               letterSpacing: letterSpacing.atZoom(z), justify: justify.atZoom(z), anchor: anchor.atZoom(z),
                               offset: offset.atZoom(z), radialOffset: radialOffset.atZoom(z), transform: transform.atZoom(z),
                               rotate: rotate.atZoom(z), haloBlur: haloBlur.atZoom(zoom), variableAnchor: variableAnchor.atZoom(z),
                               variableAnchorOffset: variableAnchorOffset.atZoom(z), writingMode: writingMode.atZoom(z))
    }
}
