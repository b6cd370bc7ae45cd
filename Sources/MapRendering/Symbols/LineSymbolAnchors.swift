import Foundation
import Raster

/// The anchors of one feature's symbols along its lines in one tile, shared by
/// the text and the icons of a line-placed symbol layer so both find the same
/// anchors (MapLibre's `addFeature` for `symbol-placement: line` and `line-center`).
struct LineSymbolAnchors {
    /// One anchor, on its line (in ``LineAnchors/extent`` units of the tile).
    struct Found {
        var line: [Point]
        var anchor: LineAnchors.Anchor
    }

    /// The anchor search's options for a symbol on `place` (its tile drawn at
    /// `zoom`, `scale` output pixels to the CSS pixel): `textWidth` and `iconWidth`
    /// are the shaped widths (24-pixel ems, CSS pixels), nil without text or icon.
    /// As MapLibre: the tile's units per CSS pixel at the whole zoom (`tilePixelRatio`).
    static func options(spacing: Double, textWidth: Double?, iconWidth: Double?, textMaxSize: Double, maxAngle: Double,
                        place: TileCover.Placed, scale: Double, zoom: Double) -> LineAnchors.Options {
        let overscaling = pow(2, max(0, (zoom + 1e-9).rounded(.down) - Double(place.tile.z)))
        // The tile's side at its own zoom in CSS pixels: 512 for MapLibre's cameras, 256 for a raster-tile grid.
        let tileSize = place.tileSide / scale / pow(2, zoom - Double(place.tile.z))
        let tilePixelRatio = LineAnchors.extent / (tileSize * overscaling)
        let boxScale = tilePixelRatio * textMaxSize / TextShaper.oneEm
        return LineAnchors.Options(spacing: tilePixelRatio * spacing, labelWidth: max(textWidth ?? 0, iconWidth ?? 0) * boxScale,
                                   boxScale: boxScale, hasText: textWidth != nil, maxAngle: maxAngle * .pi / 180,
                                   overscaling: overscaling)
    }

    /// The anchors on `lines` (a feature's, in ``LineAnchors/extent`` units): every `symbol-spacing` along each line
    /// clipped to the tile, or one at the middle of each whole line
    /// (`lineCenter`), only those inside the tile.
    static func anchors(of lines: [[Point]], center: Bool, _ options: LineAnchors.Options) -> [Found] {
        var found: [Found] = []
        if center {
            for line in lines where line.count > 1 {
                guard let anchor = LineAnchors.centerAnchor(line, options),
                      anchor.x >= 0, anchor.x < LineAnchors.extent, anchor.y >= 0, anchor.y < LineAnchors.extent else { continue }
                found.append(Found(line: line, anchor: anchor))
            }
        } else {
            for line in LineAnchors.clip(lines) {
                for anchor in LineAnchors.anchors(line, options) { found.append(Found(line: line, anchor: anchor)) }
            }
        }
        return found
    }

    /// `feature`'s lines (or rings) in `layer`, in ``LineAnchors/extent`` units.
    static func lines(of feature: VectorTileFeature, in layer: VectorTileLayer) -> [[Point]] {
        guard layer.extent > 0 else { return [] }
        let k = LineAnchors.extent / Double(layer.extent)
        return feature.parts.map { part in layer.points(ofPart: part).map { Point(Double($0.x) * k, Double($0.y) * k) } }
    }

    /// One tile's features of a line-placed layer: its index, its text (nil
    /// without), its lines.
    typealias TileFeature = (index: Int, text: String?, lines: [[Point]])

    /// `features` with lines of the same text that meet end to start joined, as
    /// MapLibre's `mergeLines` joins them (each feature's first line only, in
    /// order): the features left, with their lines, by index.
    static func merged(_ features: [TileFeature]) -> [Int: [[Point]]] {
        var merged: [TileFeature?] = []
        var leftIndex: [String: Int] = [:], rightIndex: [String: Int] = [:]
        func key(_ text: String, _ p: Point) -> String { "\(text):\(p.x):\(p.y)" }
        for feature in features {
            guard let text = feature.text, let first = feature.lines.first, let start = first.first, let end = first.last else {
                merged.append(feature)
                continue
            }
            let leftKey = key(text, start), rightKey = key(text, end)
            if let i = rightIndex[leftKey], let j = leftIndex[rightKey], i != j {
                // Lines of the text at both ends: the three become one.
                leftIndex[rightKey] = nil
                merged[j]!.lines[0] = first + merged[j]!.lines[0].dropFirst()
                rightIndex[leftKey] = nil
                merged[i]!.lines[0] = merged[i]!.lines[0].dropLast() + merged[j]!.lines[0]
                leftIndex[leftKey] = nil
                rightIndex[rightKey] = nil
                rightIndex[key(text, merged[i]!.lines[0].last!)] = i
                merged[j] = nil
            } else if let i = rightIndex[leftKey] {
                rightIndex[leftKey] = nil
                rightIndex[rightKey] = i
                merged[i]!.lines[0] = merged[i]!.lines[0].dropLast() + first
            } else if let j = leftIndex[rightKey] {
                leftIndex[rightKey] = nil
                leftIndex[leftKey] = j
                merged[j]!.lines[0] = first + merged[j]!.lines[0].dropFirst()
            } else {
                merged.append(feature)
                leftIndex[leftKey] = merged.count - 1
                rightIndex[rightKey] = merged.count - 1
            }
        }
        var byIndex: [Int: [[Point]]] = [:]
        for case let feature? in merged { byIndex[feature.index] = feature.lines }
        return byIndex
    }

    /// `found`'s line and anchor in output pixels on `place`: on the image, or
    /// (`onPlane`) on the map plane before the camera's pitch.
    static func projected(_ found: Found, on place: TileCover.Placed, onPlane: Bool = false) -> LineGlyphPlacer {
        let unit = place.tileSide / LineAnchors.extent
        let point = onPlane ? place.plane : place.pixel
        let anchor = point(found.anchor.x * unit, found.anchor.y * unit)
        guard !onPlane, let pitch = place.pitch else {
            return LineGlyphPlacer(line: found.line.map { point($0.x * unit, $0.y * unit) }, anchor: anchor, segment: found.anchor.segment)
        }
        // On the image, a vertex behind the camera has no projection: as MapLibre's
        // `projectTruncatedLineSegment`, the segment towards it is projected a unit from
        // the vertex before it and extended far past the image, and the line ends there.
        let tile = found.line.map { Point($0.x * unit, $0.y * unit) }
        var line = tile.map { place.pixel($0.x, $0.y) }
        let reach = 4 * (pitch.width + pitch.height)
        func behind(_ p: Point) -> Bool { pitch.depthRatio(atPlaneY: place.plane(p.x, p.y).y) <= 0 }
        func truncated(from previous: Point, _ projected: Point, towards next: Point) -> Point {
            let dx = previous.x - next.x, dy = previous.y - next.y, length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { return projected }
            let back = place.pixel(previous.x + dx / length, previous.y + dy / length)
            let sx = projected.x - back.x, sy = projected.y - back.y, span = (sx * sx + sy * sy).squareRoot()
            guard span > 0, span.isFinite else { return projected }
            return Point(projected.x + sx * reach / span, projected.y + sy * reach / span)
        }
        let anchorOnTile = Point(found.anchor.x * unit, found.anchor.y * unit)
        var segment = found.anchor.segment
        var previous = (tile: anchorOnTile, image: anchor)
        for i in (segment + 1)..<max(segment + 1, tile.count) {
            if behind(tile[i]) {
                line[i] = truncated(from: previous.tile, previous.image, towards: tile[i])
                line.removeSubrange((i + 1)...)
                break
            }
            previous = (tile[i], line[i])
        }
        previous = (anchorOnTile, anchor)
        for i in stride(from: min(segment, tile.count - 1), through: 0, by: -1) {
            if behind(tile[i]) {
                line[i] = truncated(from: previous.tile, previous.image, towards: tile[i])
                line.removeSubrange(..<i)
                segment -= i
                break
            }
            previous = (tile[i], line[i])
        }
        return LineGlyphPlacer(line: line, anchor: anchor, segment: segment)
    }
}
