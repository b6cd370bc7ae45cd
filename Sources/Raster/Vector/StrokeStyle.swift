/// How a path's outline is drawn.
public struct StrokeStyle: Sendable, Equatable {
    /// How segments meet at a corner.
    public enum Join: Sendable {
        case miter
        case round
        case bevel
    }

    /// How open ends are finished.
    public enum Cap: Sendable {
        /// Flat, exactly at the end point.
        case butt
        /// A half circle past the end point.
        case round
        /// Flat, half the width past the end point.
        case square
    }

    /// Width in pixels.
    public var width: Double
    public var join: Join
    public var cap: Cap
    /// Miter joins longer than this many half-widths become bevels (SVG's default is 4).
    public var miterLimit: Double

    public init(width: Double, join: Join = .round, cap: Cap = .round, miterLimit: Double = 4) {
        self.width = width
        self.join = join
        self.cap = cap
        self.miterLimit = miterLimit
    }
}
