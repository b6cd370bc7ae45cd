import Foundation
import Raster

/// Sets a line label's glyphs one by one along its line as MapLibre's
/// `placeGlyphsAlongLine` does: from the anchor, each glyph's centre is
/// walked its offset along the line (forwards or back), lands on some
/// segment and takes that segment's direction. With `keep-upright` a label
/// whose last glyph would land left of its first is set again flipped: walked
/// the other way, each glyph turned half a turn, so it reads left to right.
/// A glyph walked past either end of the line hides the whole label.
///
/// Everything is in output pixels: the line's vertices and the anchor as the
/// camera projects them (``TileCover/Placed/pixel(_:_:)``).
struct LineGlyphPlacer {
    /// The line's vertices.
    let line: [Point]
    /// The anchor's point.
    let anchor: Point
    /// The index of the segment (from `line[segment]` to `line[segment + 1]`) the anchor lies on.
    let segment: Int

    /// One glyph's centre on the line and its direction (radians, clockwise from x, y down).
    typealias Placed = (point: Point, angle: Double)

    /// The glyphs whose centres lie `offsets` pixels from the anchor along the
    /// line (negative: back towards its start), flipped when `keepUpright` and
    /// they would read upside down; nil when one runs off the line.
    func place(_ offsets: [Double], keepUpright: Bool) -> [Placed]? {
        guard !offsets.isEmpty else { return [] }
        if keepUpright {
            // One glyph: the direction of the anchor's own segment decides.
            guard let (start, end) = ends(offsets) else { return nil }
            if start.x > end.x { return placeAll(offsets, flip: true) }
        }
        return placeAll(offsets, flip: false)
    }

    /// Whether the line rises more than it runs from the first of `offsets` to
    /// the last (for one glyph: along the anchor's segment), so a label with a
    /// vertical version is drawn in it (MapLibre's `useVertical`); false when
    /// a glyph runs off the line.
    func isSteep(under offsets: [Double]) -> Bool {
        guard let (start, end) = ends(offsets) else { return false }
        return abs(end.y - start.y) > abs(end.x - start.x)
    }

    /// A vertical label's glyphs `offsets` from the anchor along the line, walked
    /// from its other end when the line runs up the view here, so the text reads
    /// downwards; nil when one runs off the line.
    func placeVertically(_ offsets: [Double]) -> [Placed]? {
        guard let (start, end) = ends(offsets) else { return offsets.isEmpty ? [] : nil }
        return placeAll(offsets, flip: start.y > end.y)
    }

    /// Where the first and last of `offsets` land unflipped (one glyph: the anchor and its segment's end).
    private func ends(_ offsets: [Double]) -> (Point, Point)? {
        guard let first = offsets.first, let last = offsets.last else { return nil }
        if offsets.count > 1 {
            guard let a = place(first, flip: false), let b = place(last, flip: false) else { return nil }
            return (a.point, b.point)
        }
        guard segment + 1 < line.count else { return nil }
        return (anchor, line[segment + 1])
    }

    private func placeAll(_ offsets: [Double], flip: Bool) -> [Placed]? {
        var placed: [Placed] = []
        placed.reserveCapacity(offsets.count)
        for offset in offsets {
            guard let one = place(offset, flip: flip) else { return nil }
            placed.append(one)
        }
        return placed
    }

    /// The point `offset` pixels from the anchor along the line and the
    /// glyph's direction there (MapLibre's `placeGlyphAlongLine`).
    func place(_ offset: Double, flip: Bool) -> Placed? {
        walk(offset, flip: flip).map { ($0.point, $0.angle) }
    }

    /// The line from the glyph centred `first` pixels from the anchor to the one
    /// `last` pixels from it, through the vertices between (unflipped): what
    /// MapLibre's collision circles are spaced along. Nil when either runs off the line.
    func path(from first: Double, to last: Double) -> [Point]? {
        guard let start = walk(first, flip: false), let end = walk(last, flip: false) else { return nil }
        return Array(start.path.dropFirst().reversed()) + end.path.dropFirst()
    }

    /// ``place(_:flip:)`` with the vertices walked past: the anchor first, the point last.
    private func walk(_ offset: Double, flip: Bool) -> (point: Point, angle: Double, path: [Point])? {
        var direction = offset > 0 ? 1 : -1
        var angle = 0.0
        if flip {
            direction = -direction
            angle = .pi
        }
        if direction < 0 { angle += .pi }
        var index = direction > 0 ? segment : segment + 1
        var current = anchor, previous = anchor
        var toPrevious = 0.0, span = 0.0
        let distance = abs(offset)
        var path: [Point] = []
        while toPrevious + span <= distance {
            index += direction
            guard index >= 0, index < line.count else { return nil }
            path.append(current)
            previous = current
            current = line[index]
            toPrevious += span
            span = LineAnchors.distance(previous, current)
        }
        let t = span > 0 ? (distance - toPrevious) / span : 0
        let point = Point(previous.x + (current.x - previous.x) * t, previous.y + (current.y - previous.y) * t)
        path.append(point)
        return (point, angle + atan2(current.y - previous.y, current.x - previous.x), path)
    }
}
