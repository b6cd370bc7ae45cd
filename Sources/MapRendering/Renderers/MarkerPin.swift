import Foundation
import Raster

/// The pin drawn for a marker: a round head over a point whose tip touches
/// the coordinate, outlined in white, with its label (or a white dot) in the head.
enum MarkerPin {
    static func draw(_ marker: MapMarker, at tip: (x: Double, y: Double), scale: Double, on canvas: inout Canvas) throws {
        let height = marker.size.height * scale
        let radius = height * 0.32
        let head = Point(tip.x, tip.y - height + radius)
        let outline = teardrop(tip: Point(tip.x, tip.y), head: head, radius: radius)
        try canvas.stroke(Path(polygon: outline), color: RGBA(255, 255, 255, 230), style: StrokeStyle(width: 1.5 * scale))
        try canvas.fill(Path(polygon: outline), color: marker.color)
        if let label = marker.label {
            let font = BitmapFont.fixed6x13
            let fontScale = max(1, Int(radius * 2 / Double(font.cellHeight + 4)))
            let size = font.size(of: String(label), scale: fontScale)
            canvas.drawText(String(label), x: Int((head.x - Double(size.width) / 2).rounded()),
                            y: Int((head.y - Double(size.height) / 2).rounded()) + fontScale, scale: fontScale, color: .white)
        } else {
            try canvas.fill(Path.circle(center: head, radius: radius * 0.42), color: .white)
        }
    }

    /// A circle of `radius` at `head` joined by tangent lines to a point at `tip`.
    static func teardrop(tip: Point, head: Point, radius: Double) -> [Point] {
        let toTip = tip - head
        let distance = toTip.length
        guard distance > radius else { return Path.circlePoints(center: head, radius: radius) }
        let direction = atan2(toTip.y, toTip.x)
        let spread = acos(radius / distance)
        let steps = max(12, Int(radius))
        var points: [Point] = []
        for i in 0...steps {
            let angle = direction + spread + (2 * Double.pi - 2 * spread) * Double(i) / Double(steps)
            points.append(Point(head.x + radius * cos(angle), head.y + radius * sin(angle)))
        }
        points.append(tip)
        return points
    }
}
