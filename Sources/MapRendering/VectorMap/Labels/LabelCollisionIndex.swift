/// The boxes of the labels placed so far, bucketed in a grid over the image,
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
                    for index in cells[y * columns + x] where boxes[Int(index)].intersects(box) { return true }
                }
            }
        }
        return false
    }

    /// Adds `inserted` so later queries see them.
    mutating func insert(_ inserted: [LabelBox]) {
        for box in inserted {
            let index = Int32(boxes.count)
            boxes.append(box)
            let range = cellRange(box)
            for y in range.y {
                for x in range.x { cells[y * columns + x].append(index) }
            }
        }
    }
}
