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

    /// The anchor search's options for a symbol on a tile of zoom `tileZoom`
    /// drawn at `zoom`: `textWidth` and `iconWidth` are the shaped widths (24-pixel
    /// ems, CSS pixels), nil without text or icon.
    static func options(spacing: Double, textWidth: Double?, iconWidth: Double?, textMaxSize: Double, maxAngle: Double,
                        tileZoom: Int, zoom: Double) -> LineAnchors.Options {
        let overscaling = pow(2, max(0, (zoom + 1e-9).rounded(.down) - Double(tileZoom)))
        let tilePixelRatio = LineAnchors.extent / (512 * overscaling)
        let boxScale = tilePixelRatio * textMaxSize / TextShaper.oneEm
        return LineAnchors.Options(spacing: tilePixelRatio * spacing, labelWidth: max(textWidth ?? 0, iconWidth ?? 0) * boxScale,
                                   boxScale: boxScale, hasText: textWidth != nil, maxAngle: maxAngle * .pi / 180,
                                   overscaling: overscaling)
    }

    /// `feature`'s anchors in `layer`: every `symbol-spacing` along each line
    /// clipped to the tile, or one at the middle of each whole line
    /// (`lineCenter`), only those inside the tile.
    static func anchors(of feature: VectorTileFeature, in layer: VectorTileLayer, center: Bool, _ options: LineAnchors.Options) -> [Found] {
        guard layer.extent > 0 else { return [] }
        let k = LineAnchors.extent / Double(layer.extent)
        let lines = feature.parts.map { part in layer.points(ofPart: part).map { Point(Double($0.x) * k, Double($0.y) * k) } }
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

    /// `found`'s line and anchor in output pixels on `place`.
    static func projected(_ found: Found, on place: TileCover.Placed) -> LineGlyphPlacer {
        let unit = place.tileSide / LineAnchors.extent
        return LineGlyphPlacer(line: found.line.map { place.pixel($0.x * unit, $0.y * unit) },
                               anchor: place.pixel(found.anchor.x * unit, found.anchor.y * unit), segment: found.anchor.segment)
    }
}
