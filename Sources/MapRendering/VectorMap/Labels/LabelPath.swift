import Foundation
import Raster

/// A polyline in output pixels measured along its length: where line labels
/// are laid out. Also the clipping and joining that turn a street cut into
/// tiles back into one line.
struct LabelPath {
    /// The vertices, repeated points dropped.
    let points: [Point]
    /// `lengths[i]`: distance along the line from its start to `points[i]`.
    let lengths: [Double]

    init(_ points: [Point]) {
        var kept: [Point] = []
        kept.reserveCapacity(points.count)
        for p in points where kept.last.map({ abs($0.x - p.x) + abs($0.y - p.y) > 1e-9 }) ?? true { kept.append(p) }
        var lengths = [Double](repeating: 0, count: kept.count)
        for i in kept.indices.dropFirst() {
            lengths[i] = lengths[i - 1] + Self.distance(kept[i - 1], kept[i])
        }
        self.points = kept
        self.lengths = lengths
    }

    /// The line's length in pixels.
    var length: Double { lengths.last ?? 0 }

    /// The same line walked from its end.
    var reversed: LabelPath { LabelPath(points.reversed()) }

    static func distance(_ a: Point, _ b: Point) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }

    /// The index of the segment holding `distance` (clamped to the line).
    func segment(at distance: Double) -> Int {
        // Binary search: the last vertex at or before `distance`.
        var low = 0, high = max(0, points.count - 2)
        while low < high {
            let middle = (low + high + 1) / 2
            if lengths[middle] <= distance { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The point `distance` pixels along the line and the direction (radians,
    /// y down) of the segment it lies on.
    func point(at distance: Double) -> (point: Point, angle: Double) {
        let i = segment(at: distance)
        let a = points[i], b = points[i + 1]
        let span = lengths[i + 1] - lengths[i]
        let t = span > 0 ? min(max((distance - lengths[i]) / span, 0), 1) : 0
        return (Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t), atan2(b.y - a.y, b.x - a.x))
    }

    /// Whether the turns at the vertices strictly between `start` and `end`
    /// (distances along the line) stay gentle: in every stretch `window`
    /// pixels long, the turns add up to at most `maximumTurn` radians
    /// (MapLibre's `text-max-angle` test).
    func bendsGently(from start: Double, to end: Double, window: Double, maximumTurn: Double) -> Bool {
        var turns: [(at: Double, turn: Double)] = []
        var i = segment(at: start) + 1
        while i < points.count - 1, lengths[i] < end {
            let before = atan2(points[i].y - points[i - 1].y, points[i].x - points[i - 1].x)
            let after = atan2(points[i + 1].y - points[i].y, points[i + 1].x - points[i].x)
            var turn = abs(after - before)
            if turn > .pi { turn = 2 * .pi - turn }
            if turn > maximumTurn { return false }
            if turn > 1e-6 { turns.append((lengths[i], turn)) }
            i += 1
        }
        var sum = 0.0, first = 0
        for k in turns.indices {
            sum += turns[k].turn
            while turns[k].at - turns[first].at > window {
                sum -= turns[first].turn
                first += 1
            }
            if sum > maximumTurn { return false }
        }
        return true
    }

    /// The pieces of `polyline` inside `minX…maxX × minY…maxY` (Liang–Barsky
    /// per segment): a line leaving and re-entering gives several pieces.
    static func clip(_ polyline: [Point], minX: Double, minY: Double, maxX: Double, maxY: Double) -> [[Point]] {
        var pieces: [[Point]] = []
        var current: [Point] = []
        for i in polyline.indices.dropFirst() {
            let a = polyline[i - 1], b = polyline[i]
            let dx = b.x - a.x, dy = b.y - a.y
            var t0 = 0.0, t1 = 1.0
            var inside = true
            for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
                if p == 0 {
                    if q < 0 { inside = false; break }
                } else {
                    let r = q / p
                    if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                    if t0 > t1 { inside = false; break }
                }
            }
            guard inside else {
                if current.count >= 2 { pieces.append(current) }
                current = []
                continue
            }
            let start = t0 == 0 ? a : Point(a.x + dx * t0, a.y + dy * t0)
            let end = t1 == 1 ? b : Point(a.x + dx * t1, a.y + dy * t1)
            if current.isEmpty || t0 > 0 {
                if current.count >= 2 { pieces.append(current) }
                current = [start]
            }
            current.append(end)
            if t1 < 1 {
                pieces.append(current)
                current = []
            }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// `pieces` joined wherever one ends within half a pixel of where another
    /// starts or ends (a street cut at tile edges, in any direction), greedily.
    static func join(_ pieces: [[Point]]) -> [[Point]] {
        guard pieces.count > 1 else { return pieces }
        struct Key: Hashable { var x: Int, y: Int }
        func key(_ p: Point) -> Key { Key(x: Int((p.x).rounded(.down)), y: Int((p.y).rounded(.down))) }
        // Endpoint → pieces ending or starting there.
        var ends: [Key: [Int]] = [:]
        for (i, piece) in pieces.enumerated() {
            ends[key(piece[0]), default: []].append(i)
            ends[key(piece[piece.count - 1]), default: []].append(i)
        }
        var used = [Bool](repeating: false, count: pieces.count)
        /// An unused piece with an end within half a pixel of `p`, and whether it starts there.
        func partner(of p: Point) -> (index: Int, startsThere: Bool)? {
            let k = key(p)
            for dy in -1...1 {
                for dx in -1...1 {
                    for i in ends[Key(x: k.x + dx, y: k.y + dy)] ?? [] where !used[i] {
                        if distance(pieces[i][0], p) < 0.5 { return (i, true) }
                        if distance(pieces[i][pieces[i].count - 1], p) < 0.5 { return (i, false) }
                    }
                }
            }
            return nil
        }
        var joined: [[Point]] = []
        for i in pieces.indices where !used[i] {
            used[i] = true
            var line = pieces[i]
            while let (j, startsThere) = partner(of: line[line.count - 1]) {
                used[j] = true
                line += (startsThere ? pieces[j] : pieces[j].reversed()).dropFirst()
            }
            while let (j, startsThere) = partner(of: line[0]) {
                used[j] = true
                line = (startsThere ? pieces[j].reversed() : pieces[j]).dropLast() + line
            }
            joined.append(line)
        }
        return joined
    }
}
