import Foundation

/// A shape made of straight segments: one or more subpaths (polylines or
/// closed polygons). Curves are flattened into segments as they are added,
/// within a quarter of a pixel.
public struct Path: Sendable, Equatable {
    /// One connected run of points; `closed` joins the last point to the first.
    public struct Subpath: Sendable, Equatable {
        public var points: [Point]
        public var closed: Bool
    }

    public private(set) var subpaths: [Subpath] = []

    /// How far a flattened curve may stray from the true one, in pixels.
    static let flatness = 0.25

    public init() {}

    /// A closed polygon through `points`.
    public init(polygon points: [Point]) {
        subpaths = [Subpath(points: points, closed: true)]
    }

    /// An open polyline through `points`.
    public init(polyline points: [Point]) {
        subpaths = [Subpath(points: points, closed: false)]
    }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: Point) {
        subpaths.append(Subpath(points: [point], closed: false))
    }

    /// Adds a straight segment (starting a subpath at the origin if there is none).
    public mutating func line(to point: Point) {
        if subpaths.isEmpty || subpaths[subpaths.count - 1].closed { move(to: subpaths.last?.points.first ?? Point(0, 0)) }
        subpaths[subpaths.count - 1].points.append(point)
    }

    /// Adds a quadratic Bézier curve from the current point.
    public mutating func quadCurve(to end: Point, control: Point) {
        let start = subpaths.last?.points.last ?? Point(0, 0)
        let steps = Self.steps(for: (start - control).length + (control - end).length)
        for i in 1...steps {
            let t = Double(i) / Double(steps), u = 1 - t
            line(to: start * (u * u) + control * (2 * u * t) + end * (t * t))
        }
    }

    /// Adds a cubic Bézier curve from the current point.
    public mutating func curve(to end: Point, control1: Point, control2: Point) {
        let start = subpaths.last?.points.last ?? Point(0, 0)
        let steps = Self.steps(for: (start - control1).length + (control1 - control2).length + (control2 - end).length)
        for i in 1...steps {
            let t = Double(i) / Double(steps), u = 1 - t
            line(to: start * (u * u * u) + control1 * (3 * u * u * t) + control2 * (3 * u * t * t) + end * (t * t * t))
        }
    }

    /// Closes the current subpath.
    public mutating func close() {
        if !subpaths.isEmpty { subpaths[subpaths.count - 1].closed = true }
    }

    /// Appends every subpath of `other`.
    public mutating func append(_ other: Path) {
        subpaths += other.subpaths
    }

    /// A circle as a closed polygon, flattened within `flatness` (counter-clockwise on screen).
    public static func circle(center: Point, radius: Double) -> Path {
        Path(polygon: circlePoints(center: center, radius: radius))
    }

    /// An axis-aligned rectangle.
    public static func rectangle(x: Double, y: Double, width: Double, height: Double) -> Path {
        Path(polygon: [Point(x, y), Point(x + width, y), Point(x + width, y + height), Point(x, y + height)])
    }

    /// The vertices of a circle flattened within `flatness` (counter-clockwise on screen).
    public static func circlePoints(center: Point, radius: Double) -> [Point] {
        guard radius > 0, radius.isFinite else { return [] }
        let n = radius <= flatness ? 8 : min(1024, max(8, Int((Double.pi / acos(1 - flatness / radius)).rounded(.up))))
        return (0..<n).map { i in
            let angle = -2 * Double.pi * Double(i) / Double(n)
            return Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
        }
    }

    /// `polygon` wound counter-clockwise on screen (negative shoelace area in
    /// y-down coordinates): shapes filled together with the non-zero rule must
    /// share a winding, or where they meet they cancel instead of merging.
    public static func counterClockwise(_ polygon: [Point]) -> [Point] {
        var area = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            area += a.x * b.y - b.x * a.y
        }
        return area > 0 ? polygon.reversed() : polygon
    }

    private static func steps(for length: Double) -> Int {
        guard length.isFinite else { return 1 }
        return min(256, max(1, Int((length / 4).squareRoot().rounded(.up) * 2)))
    }
}
