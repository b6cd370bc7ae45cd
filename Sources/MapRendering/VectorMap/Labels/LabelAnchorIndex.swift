import Raster

/// Where labels of each text were anchored, bucketed in cells as large as the
/// radius asked about, so "is this text already labelled within `radius`?"
/// looks at nine cells, however many labels share the text.
struct LabelAnchorIndex {
    private struct Cell: Hashable {
        var text: String
        var size: Double
        var x: Int
        var y: Int
    }

    private var cells: [Cell: [Point]] = [:]

    private static func cell(_ text: String, _ p: Point, _ size: Double) -> Cell {
        // Clamped: a hostile radius of 1e-300 must not overflow the cell index.
        func index(_ v: Double) -> Int { Int(min(max((v / size).rounded(.down), -1e9), 1e9)) }
        return Cell(text: text, size: size, x: index(p.x), y: index(p.y))
    }

    /// The cell side for `radius`: at least a pixel.
    private static func size(_ radius: Double) -> Double { radius.isFinite ? max(radius, 1) : 1e9 }

    /// Whether `text` was inserted with this radius within `radius` of `p`.
    func contains(_ text: String, near p: Point, within radius: Double) -> Bool {
        let size = Self.size(radius)
        let center = Self.cell(text, p, size)
        for dy in -1...1 {
            for dx in -1...1 {
                let key = Cell(text: text, size: size, x: center.x + dx, y: center.y + dy)
                if cells[key]?.contains(where: { LabelPath.distance($0, p) < radius }) == true { return true }
            }
        }
        return false
    }

    /// Records a label of `text` at `p`, for queries with `radius`.
    mutating func insert(_ text: String, at p: Point, radius: Double) {
        cells[Self.cell(text, p, Self.size(radius)), default: []].append(p)
    }
}
