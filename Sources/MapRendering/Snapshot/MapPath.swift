import Raster

/// A line through coordinates, or a filled polygon when it has a fill colour.
public struct MapPath: Hashable, Sendable {
    /// The coordinates, in order.
    public var points: [GeoCoordinate]
    /// Stroke colour.
    public var color: RGBA
    /// Stroke width in points (before `scale`); 0 draws no stroke.
    public var width: Double
    /// Fill colour; when set the path is closed and filled.
    public var fill: RGBA?

    /// The stroke colour when none is given (a clear blue).
    public static let defaultColor = RGBA(30, 136, 229)
    /// The stroke width, in points, when none is given.
    public static let defaultWidth = 3.0
    /// The stroke widths, in points, a path may have.
    public static let widthRange = 0.0...64.0

    /// A path through `points`.
    public init(points: [GeoCoordinate], color: RGBA = MapPath.defaultColor, width: Double = MapPath.defaultWidth, fill: RGBA? = nil) {
        self.points = points
        self.color = color
        self.width = width
        self.fill = fill
    }

    /// Whether the path is drawn as a closed polygon.
    public var isClosed: Bool { fill != nil }
}
