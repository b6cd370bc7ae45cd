import Foundation
import Raster

/// The pin drawn for a marker: a round head over a point whose tip touches
/// the coordinate, outlined in white, with its label (or a white dot) in the head.
enum MarkerPin {
    /// The head's radius as a fraction of the pin's height.
    static let headRadius = 0.32

    static func draw(_ marker: MapMarker, at tip: (x: Double, y: Double), scale: Double, on canvas: inout Canvas) throws {
        let height = marker.size.height * scale
        let radius = height * headRadius
        let head = Point(tip.x, tip.y - height + radius)
        let outline = teardrop(tip: Point(tip.x, tip.y), head: head, radius: radius)
        try canvas.stroke(Path(polygon: outline), color: RGBA(255, 255, 255, 230), style: StrokeStyle(width: 1.5 * scale, join: .round, cap: .round))
        try canvas.fill(Path(polygon: outline), color: marker.color)
        if let label = marker.label {
            // The 6×13 font unscaled: legible in every pin size at every density.
            let size = FixedFont.fixed6x13.size(of: String(label))
            canvas.draw(text: String(label), at: Int((head.x - Double(size.width) / 2).rounded()),
                        Int((head.y - Double(size.height) / 2).rounded()) + 1, color: .white)
        } else {
            try canvas.fill(Path.circle(center: head, radius: radius * 0.42), color: .white)
        }
    }

    /// The box a pin drawn at `tip` covers, white outline included: what labels keep clear of.
    static func bounds(of marker: MapMarker, at tip: (x: Double, y: Double), scale: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let height = marker.size.height * scale, outline = 0.75 * scale
        let radius = height * headRadius + outline
        return (tip.x - radius, tip.y - height - outline, 2 * radius, height + 2 * outline)
    }

    /// A circle of `radius` at `head` joined by tangent lines to a point at `tip`.
    static func teardrop(tip: Point, head: Point, radius: Double) -> [Point] {
        let dx = tip.x - head.x, dy = tip.y - head.y
        let distance = (dx * dx + dy * dy).squareRoot()
        let steps = max(12, Int(radius))
        guard distance > radius else {
            return (0..<steps).map { i in
                let angle = 2 * Double.pi * Double(i) / Double(steps)
                return Point(head.x + radius * cos(angle), head.y + radius * sin(angle))
            }
        }
        let direction = atan2(dy, dx)
        let spread = acos(radius / distance)
        var points: [Point] = []
        for i in 0...steps {
            let angle = direction + spread + (2 * Double.pi - 2 * spread) * Double(i) / Double(steps)
            points.append(Point(head.x + radius * cos(angle), head.y + radius * sin(angle)))
        }
        points.append(tip)
        return points
    }
}
