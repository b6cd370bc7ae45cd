import Foundation

/// A vector outline: subpaths of lines and Bézier curves, in canvas pixels.
///
/// Build it with `move(to:)`, `line(to:)`, `quad(to:control:)`, `cubic(to:control1:control2:)`
/// and `close()`, or the `circle`/`rect`/`roundedRect` helpers. Curves are
/// flattened to lines (within a quarter pixel) when the path is rasterised.
public struct Path: Sendable, Equatable {
    /// One drawing command.
    public enum Element: Sendable, Equatable {
        /// Start a new subpath here.
        case move(Point)
        /// Straight line to the point.
        case line(Point)
        /// Quadratic Bézier curve.
        case quad(control: Point, to: Point)
        /// Cubic Bézier curve.
        case cubic(control1: Point, control2: Point, to: Point)
        /// Line back to the subpath's start.
        case close
    }

    /// The commands in order.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}

    /// A closed polygon through `points` (nothing when empty).
    public init(polygon points: [Point]) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { line(to: p) }
        close()
    }

    /// An open polyline through `points` (for stroking).
    public init(polyline points: [Point]) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { line(to: p) }
    }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: Point) { elements.append(.move(point)) }
    /// A straight line from the current point.
    public mutating func line(to point: Point) { elements.append(.line(point)) }
    /// A quadratic Bézier curve from the current point.
    public mutating func quad(to point: Point, control: Point) { elements.append(.quad(control: control, to: point)) }
    /// A cubic Bézier curve from the current point.
    public mutating func cubic(to point: Point, control1: Point, control2: Point) {
        elements.append(.cubic(control1: control1, control2: control2, to: point))
    }
    /// Closes the current subpath with a line back to its start.
    public mutating func close() { elements.append(.close) }

    /// Appends all of `other`'s subpaths.
    public mutating func append(_ other: Path) { elements.append(contentsOf: other.elements) }

    /// A circle as four cubic arcs (clockwise on screen).
    public static func circle(center: Point, radius: Double) -> Path {
        ellipse(in: center.x - radius, center.y - radius, 2 * radius, 2 * radius)
    }

    /// An axis-aligned ellipse inscribed in the rectangle.
    public static func ellipse(in x: Double, _ y: Double, _ width: Double, _ height: Double) -> Path {
        let k = 0.5522847498307936 // 4/3·(√2−1): cubic control distance for a quarter circle
        let rx = width / 2, ry = height / 2, cx = x + rx, cy = y + ry
        var p = Path()
        p.move(to: Point(cx + rx, cy))
        p.cubic(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + k * ry), control2: Point(cx + k * rx, cy + ry))
        p.cubic(to: Point(cx - rx, cy), control1: Point(cx - k * rx, cy + ry), control2: Point(cx - rx, cy + k * ry))
        p.cubic(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - k * ry), control2: Point(cx - k * rx, cy - ry))
        p.cubic(to: Point(cx + rx, cy), control1: Point(cx + k * rx, cy - ry), control2: Point(cx + rx, cy - k * ry))
        p.close()
        return p
    }

    /// An axis-aligned rectangle (clockwise on screen).
    public static func rect(x: Double, y: Double, width: Double, height: Double) -> Path {
        Path(polygon: [Point(x, y), Point(x + width, y), Point(x + width, y + height), Point(x, y + height)])
    }

    /// A rectangle with circular corners of `radius` (clamped to half the shorter side).
    public static func roundedRect(x: Double, y: Double, width: Double, height: Double, radius: Double) -> Path {
        let r = max(0, min(radius, width / 2, height / 2))
        if !(r > 0) { return rect(x: x, y: y, width: width, height: height) }
        let k = 0.5522847498307936 * r
        var p = Path()
        p.move(to: Point(x + r, y))
        p.line(to: Point(x + width - r, y))
        p.cubic(to: Point(x + width, y + r), control1: Point(x + width - r + k, y), control2: Point(x + width, y + r - k))
        p.line(to: Point(x + width, y + height - r))
        p.cubic(to: Point(x + width - r, y + height), control1: Point(x + width, y + height - r + k), control2: Point(x + width - r + k, y + height))
        p.line(to: Point(x + r, y + height))
        p.cubic(to: Point(x, y + height - r), control1: Point(x + r - k, y + height), control2: Point(x, y + height - r + k))
        p.line(to: Point(x, y + r))
        p.cubic(to: Point(x + r, y), control1: Point(x, y + r - k), control2: Point(x + r - k, y))
        p.close()
        return p
    }

    /// The path as polylines, curves flattened so no point strays more than
    /// `tolerance` pixels from the curve. Each entry records whether it was closed.
    /// Throws when a coordinate is NaN or infinite.
    public func flattened(tolerance: Double = 0.1) throws -> [(points: [Point], closed: Bool)] {
        var result: [(points: [Point], closed: Bool)] = []
        var current: [Point] = []
        func finish(closed: Bool) {
            if current.count >= 2 { result.append((current, closed)) }
            current = []
        }
        func check(_ p: Point) throws {
            guard p.isFinite else { throw RasterError.invalidArgument("path coordinate (\(p.x), \(p.y)) is not finite") }
        }
        for element in elements {
            switch element {
            case .move(let p):
                try check(p)
                finish(closed: false)
                current = [p]
            case .line(let p):
                try check(p)
                if current.isEmpty { current = [p] } else { current.append(p) }
            case let .quad(c, p):
                try check(c); try check(p)
                guard let p0 = current.last else { current = [p]; continue }
                let dd = abs(p0.x - 2 * c.x + p.x) + abs(p0.y - 2 * c.y + p.y)
                let n = Self.segmentCount(deviation: dd / 4, tolerance: tolerance)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    current.append(Point(u * u * p0.x + 2 * u * t * c.x + t * t * p.x, u * u * p0.y + 2 * u * t * c.y + t * t * p.y))
                }
            case let .cubic(c1, c2, p):
                try check(c1); try check(c2); try check(p)
                guard let p0 = current.last else { current = [p]; continue }
                let dd = max(abs(p0.x - 2 * c1.x + c2.x) + abs(p0.y - 2 * c1.y + c2.y),
                             abs(c1.x - 2 * c2.x + p.x) + abs(c1.y - 2 * c2.y + p.y))
                let n = Self.segmentCount(deviation: dd * 0.75, tolerance: tolerance)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, cc = 3 * u * t * t, d = t * t * t
                    current.append(Point(a * p0.x + b * c1.x + cc * c2.x + d * p.x, a * p0.y + b * c1.y + cc * c2.y + d * p.y))
                }
            case .close:
                let start = current.first
                finish(closed: true)
                if let start { current = [start] }
            }
        }
        finish(closed: false)
        return result
    }

    /// Segments needed so a curve whose second difference is `deviation` stays within tolerance.
    private static func segmentCount(deviation: Double, tolerance: Double) -> Int {
        let n = (deviation / tolerance).squareRoot().rounded(.up)
        return n.isFinite ? max(1, min(1000, Int(n))) : 1
    }
}
