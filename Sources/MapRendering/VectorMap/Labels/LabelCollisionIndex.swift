import Raster

/// The boxes (and line labels' circles) of the labels placed so far, bucketed in a grid over the image,
/// so testing a new label's boxes costs a few cells, not every label.
///
/// Cells are at least 64 pixels and at most 1/32 of the image's longer side,
/// so however large a box (text at 500 px), it spans at most 33 × 33 cells.
struct LabelCollisionIndex {
    private let cellSize: Double
    private let columns: Int
    private let rows: Int
    private var cells: [[Int32]]
    private var boxes: [LabelBox] = []
    /// Per entry: 0 for a box, else the radius of the circle centred in it (MapLibre's collision circles).
    private var radii: [Double] = []

    init(width: Int, height: Int) {
        cellSize = max(64, Double(max(width, height)) / 32)
        columns = max(1, Int((Double(width) / cellSize).rounded(.up)))
        rows = max(1, Int((Double(height) / cellSize).rounded(.up)))
        cells = Array(repeating: [], count: columns * rows)
    }

    /// The cells `box` touches, clamped to the grid.
    private func cellRange(_ box: LabelBox) -> (x: ClosedRange<Int>, y: ClosedRange<Int>) {
        func cell(_ v: Double, _ count: Int) -> Int { min(count - 1, max(0, Int((v / cellSize).rounded(.down)))) }
        return (cell(box.minX, columns)...cell(box.maxX, columns), cell(box.minY, rows)...cell(box.maxY, rows))
    }

    /// Whether any of `query` overlaps a box already inserted.
    func collides(_ query: [LabelBox]) -> Bool {
        for box in query {
            let range = cellRange(box)
            for y in range.y {
                for x in range.x {
                    for index in cells[y * columns + x] where boxes[Int(index)].intersects(box) {
                        let radius = radii[Int(index)]
                        if radius == 0 { return true }
                        let other = boxes[Int(index)]
                        if Self.circle(Point((other.minX + other.maxX) / 2, (other.minY + other.maxY) / 2), radius, meets: box) { return true }
                    }
                }
            }
        }
        return false
    }

    /// Whether any of the circles `query` (centre and radius) overlaps a box or circle already inserted,
    /// tested as MapLibre's `GridIndex` tests them.
    func collides(circles query: [(center: Point, radius: Double)]) -> Bool {
        for (c, r) in query {
            let bounds = LabelBox(minX: c.x - r, minY: c.y - r, maxX: c.x + r, maxY: c.y + r)
            let range = cellRange(bounds)
            for y in range.y {
                for x in range.x {
                    for index in cells[y * columns + x] {
                        let other = boxes[Int(index)], otherRadius = radii[Int(index)]
                        if otherRadius > 0 {
                            let dx = (other.minX + other.maxX) / 2 - c.x, dy = (other.minY + other.maxY) / 2 - c.y
                            if (r + otherRadius) * (r + otherRadius) > dx * dx + dy * dy { return true }
                        } else if Self.circle(c, r, meets: other) {
                            return true
                        }
                    }
                }
            }
        }
        return false
    }

    /// MapLibre's `_circleAndRectCollide`.
    private static func circle(_ c: Point, _ r: Double, meets box: LabelBox) -> Bool {
        let halfWidth = (box.maxX - box.minX) / 2, halfHeight = (box.maxY - box.minY) / 2
        let dx = abs(c.x - (box.minX + halfWidth)), dy = abs(c.y - (box.minY + halfHeight))
        if dx > halfWidth + r || dy > halfHeight + r { return false }
        if dx <= halfWidth || dy <= halfHeight { return true }
        return (dx - halfWidth) * (dx - halfWidth) + (dy - halfHeight) * (dy - halfHeight) <= r * r
    }

    /// Adds the circles `inserted` so later queries see them.
    mutating func insert(circles inserted: [(center: Point, radius: Double)]) {
        insert(inserted.map { LabelBox(minX: $0.center.x - $0.radius, minY: $0.center.y - $0.radius,
                                       maxX: $0.center.x + $0.radius, maxY: $0.center.y + $0.radius) },
               radii: inserted.map(\.radius))
    }

    /// Adds `inserted` so later queries see them.
    mutating func insert(_ inserted: [LabelBox]) {
        insert(inserted, radii: [Double](repeating: 0, count: inserted.count))
    }

    private mutating func insert(_ inserted: [LabelBox], radii radiusList: [Double]) {
        for (box, radius) in zip(inserted, radiusList) {
            let index = Int32(boxes.count)
            boxes.append(box)
            radii.append(radius)
            let range = cellRange(box)
            for y in range.y {
                for x in range.x { cells[y * columns + x].append(index) }
            }
        }
    }
}
