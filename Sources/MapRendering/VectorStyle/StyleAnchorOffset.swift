/// One entry of `text-variable-anchor-offset`: an anchor and the text's
/// offset from it, in ems (x right, y down).
public struct StyleAnchorOffset: Sendable, Hashable {
    /// Where the text sits relative to the point.
    public var anchor: StyleTextAnchor
    /// The offset in ems to the right.
    public var x: Double
    /// The offset in ems down.
    public var y: Double

    /// An anchor with its offset in ems.
    public init(anchor: StyleTextAnchor, x: Double, y: Double) {
        self.anchor = anchor
        self.x = x
        self.y = y
    }
}
