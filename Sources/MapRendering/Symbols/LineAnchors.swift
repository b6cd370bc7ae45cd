import Foundation
import Raster

/// Where labels go along a line, found as MapLibre's `getAnchors` and
/// `getCenterAnchor` find them: in one tile's units (MapLibre's 8192 per
/// tile side), on the line clipped to the tile, every `symbol-spacing`
/// starting half a label (plus two ems) from an end that is the line's own
/// or half a spacing from one where the line enters the tile, each anchor
/// rounded to a whole unit, kept only inside the tile, where the whole
/// label fits on the line and its bends pass `text-max-angle`.
///
/// Working in the tile's units, not the image's pixels, is what puts labels
/// where MapLibre puts them: the same line in the same tile gets the same
/// anchors whatever the camera.
struct LineAnchors {
    /// MapLibre's tile extent: geometry is scaled to it before anchors are sought.
    static let extent = 8192.0

    /// One anchor: its point, the direction of the segment it lies on
    /// (radians, y down) and that segment's index in the line.
    struct Anchor: Equatable {
        var x: Double
        var y: Double
        var angle: Double
        var segment: Int
    }

    /// How anchors are sought, in tile units.
    struct Options {
        /// The distance between anchors (`symbol-spacing` times the tile's units per pixel).
        var spacing: Double
        /// The label's length: the larger of its text's and icon's widths (in
        /// 24-pixel ems), times ``boxScale``.
        var labelWidth: Double
        /// Tile units per shaped unit of the largest text size (MapLibre's `textMaxBoxScale`).
        var boxScale: Double
        /// Whether the label has text: only text is held to `text-max-angle`.
        var hasText: Bool
        /// `text-max-angle` in radians.
        var maxAngle: Double
        /// How many times the tile is overscaled (1 at or below the source's maximum zoom).
        var overscaling: Double
    }

    /// The most places along one line tried for anchors (65 536).
    static let maximumTries = 1 << 16

    /// MapLibre's `_round` (JavaScript's `Math.round`: halves up).
    static func round(_ v: Double) -> Double { (v + 0.5).rounded(.down) }

    /// The pieces of `lines` inside `0…extent` on both axes (or `minX…maxX` ×
    /// `minY…maxY`), cut as MapLibre's `clipLine` cuts them (entry and exit points rounded to whole units).
    static func clip(_ lines: [[Point]], extent: Double = LineAnchors.extent) -> [[Point]] {
        clip(lines, minX: 0, minY: 0, maxX: extent, maxY: extent)
    }

    static func clip(_ lines: [[Point]], minX: Double, minY: Double, maxX: Double, maxY: Double) -> [[Point]] {
        var clipped: [[Point]] = []
        for line in lines where line.count >= 2 {
            var current: [Point]?
            for i in 0..<(line.count - 1) {
                var p0 = line[i], p1 = line[i + 1]
                func atX(_ x: Double) -> Point { Point(x, round(p0.y + (p1.y - p0.y) * ((x - p0.x) / (p1.x - p0.x)))) }
                func atY(_ y: Double) -> Point { Point(round(p0.x + (p1.x - p0.x) * ((y - p0.y) / (p1.y - p0.y))), y) }
                if p0.x < minX && p1.x < minX { continue }
                if p0.x < minX { p0 = atX(minX) } else if p1.x < minX { p1 = atX(minX) }
                if p0.y < minY && p1.y < minY { continue }
                if p0.y < minY { p0 = atY(minY) } else if p1.y < minY { p1 = atY(minY) }
                if p0.x >= maxX && p1.x >= maxX { continue }
                if p0.x >= maxX { p0 = atX(maxX) } else if p1.x >= maxX { p1 = atX(maxX) }
                if p0.y >= maxY && p1.y >= maxY { continue }
                if p0.y >= maxY { p0 = atY(maxY) } else if p1.y >= maxY { p1 = atY(maxY) }
                if current == nil || current!.last! != p0 {
                    if let done = current { clipped.append(done) }
                    current = [p0]
                }
                current!.append(p1)
            }
            if let done = current { clipped.append(done) }
        }
        return clipped
    }

    static func length(_ line: [Point]) -> Double {
        var total = 0.0
        for i in line.indices.dropFirst() { total += distance(line[i - 1], line[i]) }
        return total
    }

    static func distance(_ a: Point, _ b: Point) -> Double { ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() }

    /// The anchors along `line` (already clipped to the tile), in order.
    static func anchors(_ line: [Point], _ options: Options, extent: Double = LineAnchors.extent) -> [Anchor] {
        guard line.count >= 2 else { return [] }
        let first = line[0]
        let continued = first.x == 0 || first.x == extent || first.y == 0 || first.y == extent
        var spacing = options.spacing
        // A label long for the spacing keeps a quarter spacing between label edges.
        if spacing - options.labelWidth < spacing / 4 { spacing = options.labelWidth + spacing / 4 }
        guard spacing > 0, spacing.isFinite else { return [] }
        // Two ems past a line's own end keep labels off T-junctions.
        let shapedWidth = options.labelWidth / options.boxScale
        let offset = continued
            ? (spacing / 2 * options.overscaling).truncatingRemainder(dividingBy: spacing)
            : ((shapedWidth / 2 + 2 * TextShaper.oneEm) * options.boxScale * options.overscaling).truncatingRemainder(dividingBy: spacing)
        return resample(line, offset: offset, spacing: spacing, options: options, continued: continued, atMiddle: false, extent: extent)
    }

    private static func resample(_ line: [Point], offset: Double, spacing: Double, options: Options, continued: Bool, atMiddle: Bool,
                                 extent: Double) -> [Anchor] {
        let half = options.labelWidth / 2
        let total = length(line)
        var travelled = 0.0, marked = offset - spacing
        var found: [Anchor] = []
        // Bounded: a spacing under a unit (a deeply overscaled tile) on a long line would be millions of tries.
        var tries = 0
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let span = distance(a, b)
            let angle = atan2(b.y - a.y, b.x - a.x)
            while marked + spacing < travelled + span, tries < maximumTries {
                tries += 1
                marked += spacing
                let t = (marked - travelled) / span
                let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t
                if x >= 0, x < extent, y >= 0, y < extent, marked - half >= 0, marked + half <= total {
                    let anchor = Anchor(x: round(x), y: round(y), angle: angle, segment: i)
                    if passesMaxAngle(line, anchor, options) { found.append(anchor) }
                }
            }
            travelled += span
        }
        if !atMiddle, found.isEmpty, !continued {
            // None fitted: one try at the middle of the line (short lines in overscaled tiles).
            return resample(line, offset: travelled / 2, spacing: spacing, options: options, continued: continued, atMiddle: true, extent: extent)
        }
        return found
    }

    /// The one anchor at the middle of `line` (`symbol-placement: line-center`),
    /// nil when the label's bends there fail `text-max-angle`.
    static func centerAnchor(_ line: [Point], _ options: Options) -> Anchor? {
        guard line.count >= 2 else { return nil }
        let center = length(line) / 2
        var before = 0.0
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let span = distance(a, b)
            if before + span > center {
                let t = (center - before) / span
                let anchor = Anchor(x: round(a.x + (b.x - a.x) * t), y: round(a.y + (b.y - a.y) * t),
                                    angle: atan2(b.y - a.y, b.x - a.x), segment: i)
                return passesMaxAngle(line, anchor, options) ? anchor : nil
            }
            before += span
        }
        return nil
    }

    /// MapLibre's `checkMaxAngle`: the label fits on the line either side of
    /// `anchor`, and in no stretch of three fifths of an em (at the largest
    /// text size) do the line's turns under it add up past the maximum. Labels
    /// without text always pass.
    static func passesMaxAngle(_ line: [Point], _ anchor: Anchor, _ options: Options) -> Bool {
        guard options.hasText else { return true }
        let window = 3.0 / 5.0 * TextShaper.oneEm * options.boxScale
        let labelWidth = options.labelWidth
        var p = Point(anchor.x, anchor.y)
        var index = anchor.segment + 1
        var along = 0.0
        // Back to the first segment the label lies on.
        while along > -labelWidth / 2 {
            index -= 1
            if index < 0 { return false }
            along -= distance(line[index], p)
            p = line[index]
        }
        along += distance(line[index], line[index + 1])
        index += 1
        var corners: [(at: Double, turn: Double)] = []
        var first = 0
        var sum = 0.0
        // Forward over the label's length, summing the turns in the window.
        while along < labelWidth / 2 {
            guard index + 1 < line.count else { return false }
            let previous = line[index - 1], current = line[index], next = line[index + 1]
            let before = atan2(previous.y - current.y, previous.x - current.x)
            let after = atan2(current.y - next.y, current.x - next.x)
            var turn = before - after
            turn = abs((turn + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi)
            corners.append((along, turn))
            sum += turn
            while along - corners[first].at > window {
                sum -= corners[first].turn
                first += 1
            }
            if sum > options.maxAngle { return false }
            index += 1
            along += distance(current, next)
        }
        return true
    }
}
