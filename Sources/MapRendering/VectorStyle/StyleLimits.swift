/// Bounds on a style document, checked before the work they bound, so a hostile
/// style is a quick `VectorStyleError` of kind `.limitExceeded` rather than a hang
/// or a memory spike.
public struct StyleLimits: Sendable, Equatable {
    /// The largest style JSON accepted, in bytes. Default 4 MiB (real styles,
    /// OpenMapTiles' and Protomaps' included, are 30–300 KB).
    public var maximumByteCount: Int
    /// The most layers a style may have. Default 2,000 (real styles have 50–400).
    public var maximumLayerCount: Int
    /// The deepest nesting of an expression, filter or function (arrays within
    /// arrays). Default 32; the JSON as a whole may nest 8 more levels
    /// (`layers`, a layer, `paint`, …). Real styles nest under 10.
    public var maximumExpressionDepth: Int
    /// The most nodes (operators and their operands, a literal counting as
    /// one) in one property's expression, filter or function. Default 10,000;
    /// the largest in the built-in styles has 42. A value evaluated per
    /// feature costs its nodes for every feature drawn, so a style of 285,000
    /// `["id"]` terms would cost seconds per tile: it is refused when read.
    public var maximumExpressionNodes: Int

    /// Limits with the documented defaults, or the values given.
    public init(maximumByteCount: Int = 4 << 20, maximumLayerCount: Int = 2_000, maximumExpressionDepth: Int = 32,
                maximumExpressionNodes: Int = 10_000) {
        self.maximumByteCount = maximumByteCount
        self.maximumLayerCount = maximumLayerCount
        self.maximumExpressionDepth = maximumExpressionDepth
        self.maximumExpressionNodes = maximumExpressionNodes
    }

    /// The defaults.
    public static let `default` = StyleLimits()
}
