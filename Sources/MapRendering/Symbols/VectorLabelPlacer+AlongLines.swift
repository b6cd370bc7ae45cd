import Foundation
import Raster

/// Line labels drawn from the style's glyphs, placed as MapLibre places them
/// (`symbol-placement: line` and `line-center`): per tile, at the anchors
/// ``LineSymbolAnchors`` finds (the same its icons use), a label of one text
/// skipped within half a spacing of one placed before in the tile (MapLibre's
/// `anchorIsTooClose`); each glyph set on the projected line by
/// ``LineGlyphPlacer`` (kept upright with `text-keep-upright`), or, with
/// `text-rotation-alignment: viewport`, the text set straight at the anchor as a point label.
extension VectorLabelPlacer {
    /// `feature`'s text shaped on one line as a line label is (no wrapping, no
    /// variable anchors), with its layout; nil without glyphs, text or a glyph
    /// of it in the font stack, or with more characters than `maxGlyphs`.
    /// `vertical`: as MapLibre, a label kept upright along the line with a
    /// character that stands in vertical text is also shaped vertically, drawn
    /// where the line runs steeply (its length spaces the anchors when there is one).
    static func lineShaping(_ style: SymbolLayerStyle, for feature: VectorTileFeature, zoom: Double, glyphs: GlyphCache?,
                            layout given: TextLayout? = nil, maxGlyphs: Int) -> (text: String, shaped: ShapedText, vertical: ShapedText?)? {
        guard let glyphs else { return nil }
        let text = cleaned(style.textField.value(atZoom: zoom, for: feature), alongLine: true)
        guard !text.isEmpty, text.unicodeScalars.count <= maxGlyphs else { return nil }
        var layout = given ?? textLayout(style, for: feature, zoom: zoom, haloWidth: 0)
        layout.maxWidth = .infinity
        layout.variableAnchors = []
        let codePoints = layout.transform.apply(text).unicodeScalars.map(\.value)
        guard let shaped = shape(codePoints, layout, glyphs: glyphs) else { return nil }
        var vertical: ShapedText?
        let placement = style.placement.value(atZoom: zoom)
        if style.alignment.textRotation.value(atZoom: zoom, for: feature).isMap(for: placement),
           style.alignment.textKeepUpright.value(atZoom: zoom, for: feature), VerticalText.allowsVerticalWritingMode(codePoints) {
            vertical = shape(codePoints, layout, vertical: true, alongLine: true, glyphs: glyphs)
        }
        return (text, shaped, vertical)
    }

    /// Places `layer`'s labels along lines from `tiles` with the style's glyphs,
    /// each with its symbol's icon from `iconCandidates` (taken out as used);
    /// symbols after `iconsCut` are left out.
    mutating func placeAlongLines(_ layer: StyleLayer, _ style: SymbolLayerStyle, sourceLayer: String,
                                  from tiles: [(tile: VectorTile, place: TileCover.Placed)],
                                  iconCandidates: inout [SymbolIconPlacer.SymbolKey: SymbolIconPlacer.Candidate],
                                  iconsCut: SymbolIconPlacer.SymbolKey?, checkCancellation: () throws -> Void) throws {
        let placement = style.placement.value(atZoom: zoom)
        for (tileIndex, (tile, place)) in tiles.enumerated() {
            guard let tileLayer = tile.layer(named: sourceLayer), tileLayer.extent > 0 else { continue }
            // The anchors of each text placed so far in this tile (MapLibre's `compareText`, per bucket).
            var placedAnchors: [String: [LineAnchors.Anchor]] = [:]
            // The tile's labelled features first: lines of one text meeting end to start are joined (`mergeLines`).
            var labelled: [(index: Int, feature: VectorTileFeature, paint: Paint, text: String, shaped: ShapedText, vertical: ShapedText?)] = []
            var tileFeatures: [LineSymbolAnchors.TileFeature] = []
            for featureIndex in 0..<tileLayer.featureCount {
                guard examine() else { return }
                try checkCancellation()
                var feature = tileLayer.feature(at: featureIndex)
                feature.tile = place.tile   // where `within` tests
                guard feature.geometryType == .lineString || feature.geometryType == .polygon, layer.matches(feature, atZoom: zoom),
                      let paint = paint(style, for: feature),
                      let (text, shaped, vertical) = Self.lineShaping(style, for: feature, zoom: zoom, glyphs: glyphs, layout: paint.text,
                                                                      maxGlyphs: limits.labelGlyphsPerSnapshot) else { continue }
                labelled.append((featureIndex, feature, paint, text, shaped, vertical))
                tileFeatures.append((featureIndex, text, LineSymbolAnchors.lines(of: feature, in: tileLayer)))
            }
            let lines = placement == .line ? LineSymbolAnchors.merged(tileFeatures)
                : Dictionary(tileFeatures.map { ($0.index, $0.lines) }, uniquingKeysWith: { a, _ in a })
            for (featureIndex, feature, paint, text, shaped, vertical) in labelled {
                guard let featureLines = lines[featureIndex] else { continue }
                var iconWidth: Double?
                let iconName = style.icon.image.value(atZoom: zoom, for: feature)
                if !iconName.isEmpty, let image = icons?.sprites.images[iconName] {
                    iconWidth = SymbolIconPlacer.lineIconWidth(image, style.icon, feature, zoom: zoom)
                }
                let options = LineSymbolAnchors.options(spacing: style.spacing.value(atZoom: zoom, for: feature),
                                                        textWidth: (vertical ?? shaped).right - (vertical ?? shaped).left, iconWidth: iconWidth,
                                                        textMaxSize: paint.text.size, maxAngle: style.maxAngle.value(atZoom: zoom, for: feature),
                                                        place: place, scale: scale, zoom: zoom)
                let anchors = LineSymbolAnchors.anchors(of: featureLines, center: placement == .lineCenter, options)
                guard !anchors.isEmpty else { continue }
                let alongLine = style.alignment.textRotation.value(atZoom: zoom, for: feature).isMap(for: placement)
                let keepUpright = style.alignment.textKeepUpright.value(atZoom: zoom, for: feature)
                // Under pitch, `text-pitch-alignment` (`auto`: as the rotation) may lay the text on the map.
                let pitchAlignment = style.alignment.textPitch.value(atZoom: zoom, for: feature)
                let onMap = place.pitch != nil && (pitchAlignment == .map || pitchAlignment == .auto
                                                   && style.alignment.textRotation.value(atZoom: zoom, for: feature).isMap(for: placement))
                let sdfPaint = SDFTextDrawer.Paint(fontScale: paint.text.size / TextShaper.oneEm, pixelRatio: scale, color: paint.color,
                                                   halo: paint.halo, haloWidth: paint.text.haloWidth, haloBlur: paint.text.haloBlur)
                var pointText: PointText?
                for (anchorIndex, found) in anchors.enumerated() {
                    guard examine() else { return }
                    if placement == .line {
                        let a = found.anchor
                        let near = placedAnchors[text, default: []].contains { other in
                            ((a.x - other.x) * (a.x - other.x) + (a.y - other.y) * (a.y - other.y)).squareRoot() < options.spacing / 2
                        }
                        if near { continue }
                        placedAnchors[text, default: []].append(a)
                    }
                    let key = SymbolIconPlacer.SymbolKey(tile: tileIndex, feature: featureIndex, anchor: anchorIndex)
                    if let iconsCut, key.isAfter(iconsCut) { return }
                    let icon = iconCandidates.removeValue(forKey: key)
                    let projected = LineSymbolAnchors.projected(found, on: place)
                    if !alongLine {
                        // Straight at the anchor, as a point label.
                        if pointText == nil {
                            guard var laid = try lay(text, paint) else { return }
                            if onMap, laid.sdf != nil { laid.sdf!.paint.onMap = place.pitch }
                            pointText = laid
                        }
                        _ = placePoint(layerID: layer.id, text: text, laid: pointText!, at: projected.anchor, paint: paint, icon: icon, pitch: place.pitch)
                        continue
                    }
                    guard reserveGlyphs(for: text, size: paint.size) else { return }
                    var chosen: (label: VectorMapLabel, shift: Point)?
                    var circles: [(center: Point, radius: Double)] = []
                    // Under pitch, MapLibre's `updateLineLabels`: the glyphs spaced along the line at the
                    // size over the perspective ratio on the map (the line on the map plane), times it facing
                    // the image; each glyph's quad scaled by the shader's `perspective_ratio`.
                    var laidPaint = sdfPaint, along = projected, spacing = 1.0, ratio = 1.0
                    if let pitch = place.pitch {
                        ratio = SymbolPitch.perspectiveRatio(at: projected.anchor, pitch: pitch, onMap: false)
                        laidPaint.fontScale *= SymbolPitch.perspectiveRatio(at: projected.anchor, pitch: pitch, onMap: onMap)
                        if onMap {
                            laidPaint.onMap = pitch
                            along = LineSymbolAnchors.projected(found, on: place, onPlane: true)
                            spacing = sdfPaint.fontScale / ratio / laidPaint.fontScale
                        }
                    }
                    // Where the line runs steeper than 45° under the text, its vertical version (MapLibre's `useVertical`).
                    let steep = vertical != nil && keepUpright && projected.isSteep(under: Self.glyphOffsets(shaped, sdfPaint))
                    if var label = Self.label(steep ? vertical! : shaped, laidPaint, along: along, keepUpright: keepUpright, layerID: layer.id,
                                              text: text, paint: paint, image: (Double(width), Double(height), labelsCrossEdges), spacing: spacing) {
                        label.anchor = projected.anchor
                        // It collides by circles along the line (MapLibre's `placeCollisionCircles`), not by its glyphs' boxes.
                        circles = collisionCircles(shaped, paint, along: along, scale: ratio, to: laidPaint.onMap)
                        if paint.allowOverlap || !index.collides(circles: circles) {
                            label.boxes = []
                            chosen = (label, Point(0, 0))
                        }
                    }
                    if placeSymbol(chosen, icon: icon, paint: paint), !paint.ignorePlacement { index.insert(circles: circles) }
                    if isExhausted { return }
                }
            }
        }
    }

    /// The circles a line label collides by, in the collision grid's
    /// coordinates, as MapLibre's `placeCollisionCircles` spaces them: along
    /// the line from its first glyph's centre to its last's, the part in the
    /// grid, each of radius half the text's height (at least 10 units of 24 to
    /// the em) at its size plus `text-padding`, at most 2.5 radii apart.
    ///
    /// Under pitch the text's size is scaled by `textScale` (the perspective
    /// ratio), and a line on the map plane is put on the image by `onMap`.
    func collisionCircles(_ text: ShapedText, _ paint: Paint, along line: LineGlyphPlacer, scale textScale: Double = 1,
                          to onMap: PitchProjection? = nil) -> [(center: Point, radius: Double)] {
        guard let first = text.glyphs.first, let last = text.glyphs.last, text.bottom - text.top > 0 else { return [] }
        let s = paint.text.size / TextShaper.oneEm * scale * textScale
        let radius = max(10, text.bottom - text.top) * s / 2 + paint.padding
        // Along a line on the map, the glyphs' distances are the plane's.
        let along = onMap == nil ? s : paint.text.size / TextShaper.oneEm * scale / textScale
        guard let path = line.path(from: (first.x + Double(first.glyph.advance) / 2) * along,
                                   to: (last.x + Double(last.glyph.advance) / 2) * along), !path.isEmpty else { return [] }
        let pad = SymbolIconPlacer.viewportPadding * scale
        let shifted = path.map { onMap?.project($0) ?? $0 }.map { Point($0.x + pad, $0.y + pad) }
        let maxX = Double(width) + 2 * pad, maxY = Double(height) + 2 * pad
        let xs = shifted.map(\.x), ys = shifted.map(\.y)
        let segments: [[Point]]
        if xs.min()! >= 0, xs.max()! <= maxX, ys.min()! >= 0, ys.max()! <= maxY {
            segments = [shifted]
        } else if xs.max()! < 0 || xs.min()! > maxX || ys.max()! < 0 || ys.min()! > maxY {
            segments = []
        } else {
            segments = LineAnchors.clip([shifted], minX: 0, minY: 0, maxX: maxX, maxY: maxY)
        }
        var circles: [(center: Point, radius: Double)] = []
        for segment in segments {
            var distances = [0.0]
            for i in segment.indices.dropFirst() { distances.append(distances[i - 1] + LineAnchors.distance(segment[i - 1], segment[i])) }
            let length = distances.last!
            let padding = min(radius * 0.25, length * 0.5)
            let padded = length - 2 * padding
            let count = length <= 0.5 * radius ? 1 : min(Int((padded / (radius * 2.5)).rounded(.up)) + 1, 4096)
            for i in 0..<count {
                let target = Double(i) / Double(max(count - 1, 1)) * padded + padding
                var k = 1
                while k < distances.count - 1, distances[k] < target { k += 1 }
                guard k < segment.count else { circles.append((segment[0], radius)); continue }
                let span = distances[k] - distances[k - 1]
                let t = span > 0 ? (target - distances[k - 1]) / span : 0
                let a = segment[k - 1], b = segment[k]
                circles.append((Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t), radius))
            }
        }
        return circles
    }

    /// `text`'s glyphs set one by one along `line` from its anchor (each glyph's
    /// centre its shaped offset along the line, turned to the segment under it),
    /// each glyph's box its turned bounds. Nil when a glyph runs off the line, or
    /// (unless labels may cross the image's edges) a box leaves the image. The
    /// glyphs' distances along the line are `spacing` times their size (under pitch
    /// MapLibre spaces them at another size than it draws them); on the map
    /// (the paint's `onMap`) the line lies on the map plane.
    static func label(_ text: ShapedText, _ sdfPaint: SDFTextDrawer.Paint, along line: LineGlyphPlacer, keepUpright: Bool,
                      layerID: String, text label: String, paint: Paint,
                      image: (width: Double, height: Double, crossesEdges: Bool), spacing: Double = 1) -> VectorMapLabel? {
        let s = sdfPaint.fontScale * sdfPaint.pixelRatio
        let offsets = glyphOffsets(text, sdfPaint).map { $0 * spacing }
        guard let placed = text.isVertical ? line.placeVertically(offsets) : line.place(offsets, keepUpright: keepUpright) else { return nil }
        var glyphs: [(text: ShapedText, at: Point, angle: Double)] = []
        var boxes: [LabelBox] = []
        for (glyph, at) in zip(text.glyphs, placed) {
            let advance = Double(glyph.glyph.advance)
            var one = ShapedText(glyphs: [.init(glyph: glyph.glyph, x: -advance / 2, y: glyph.y)], left: -advance / 2, top: text.top,
                                 right: advance / 2, bottom: text.bottom, lineCount: 1)
            var angle = at.angle
            if glyph.upright {
                // Turned back a quarter about its em box (MapLibre's `rotateVerticalGlyph` along a line),
                // which stands it up on a line running down the view.
                one.glyphs[0].x = -advance / 2 + TextShaper.defaultOffset - glyph.y
                one.glyphs[0].y = -advance / 2 + TextShaper.defaultOffset + 10
                angle -= .pi / 2
            }
            glyphs.append((one, at.point, angle))
            let c = cos(at.angle), sn = sin(at.angle)
            let halfWidth = advance / 2 * s, halfHeight = (text.bottom - text.top) / 2 * s
            let hx = abs(c) * halfWidth + abs(sn) * halfHeight, hy = abs(sn) * halfWidth + abs(c) * halfHeight
            let center = sdfPaint.onMap?.project(at.point) ?? at.point
            let box = LabelBox(minX: center.x - hx, minY: center.y - hy, maxX: center.x + hx, maxY: center.y + hy)
            guard image.crossesEdges || box.isInside(width: image.width, height: image.height) else { return nil }
            boxes.append(box)
        }
        return VectorMapLabel(layerID: layerID, text: label, anchor: line.anchor, boxes: boxes, layout: .sdfAlongLine(glyphs, sdfPaint),
                              color: paint.color, halo: paint.halo, haloWidth: paint.haloWidth,
                              drawsByViewportY: paint.allowOverlap || paint.ignorePlacement)
    }

    /// Each glyph's centre along the line from the anchor, in output pixels (MapLibre's `glyphOffset`).
    static func glyphOffsets(_ text: ShapedText, _ sdfPaint: SDFTextDrawer.Paint) -> [Double] {
        let s = sdfPaint.fontScale * sdfPaint.pixelRatio
        return text.glyphs.map { ($0.x + Double($0.glyph.advance) / 2) * s }
    }
}
