/// How line segments meet at a corner of a stroke.
public enum LineJoin: String, Sendable, CaseIterable {
    /// Sharp corner, falling back to bevel beyond the miter limit.
    case miter
    /// Circular arc around the corner.
    case round
    /// The corner cut straight across.
    case bevel
}

/// How an open stroke ends.
public enum LineCap: String, Sendable, CaseIterable {
    /// Flat, exactly at the end point.
    case butt
    /// A half circle beyond the end point.
    case round
    /// Flat, half the width beyond the end point.
    case square
}

/// Width, joins and caps of a stroke.
public struct StrokeStyle: Sendable, Equatable {
    /// Line width in pixels (must be finite and positive).
    public var width: Double
    /// How segments meet.
    public var join: LineJoin
    /// How open subpaths end.
    public var cap: LineCap
    /// Longest miter, as a multiple of half the width, before a miter join becomes a bevel.
    public var miterLimit: Double

    /// A stroke style; by default miter joins (limit 4) and butt caps, as in SVG.
    public init(width: Double, join: LineJoin = .miter, cap: LineCap = .butt, miterLimit: Double = 4) {
        self.width = width
        self.join = join
        self.cap = cap
        self.miterLimit = miterLimit
    }

    /// About how many chords the round joins (up to half a turn each) and
    /// round caps (half a turn at each end of an open polyline) of a stroked
    /// polyline of `vertexCount` points make: work that grows with the width,
    /// for budgets checked before it is done. Zero for miter or bevel joins and butt or square caps.
    public func roundChordEstimate(vertexCount: Int, closed: Bool) -> Int {
        guard vertexCount > 1, join == .round || cap == .round else { return 0 }
        let turn = Stroker.ArcSteps.count(radius: width / 2)
        let joins = join == .round ? (closed ? vertexCount : vertexCount - 2) * (turn / 2 + 1) : 0
        return joins + (!closed && cap == .round ? turn + 2 : 0)
    }
}
