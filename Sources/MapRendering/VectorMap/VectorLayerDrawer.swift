import Foundation
import Raster

/// Draws one style layer at a time: collects the matching features of every
/// tile, projected to output pixels and grouped by their evaluated paint,
/// then draws each group in one fill or stroke.
///
/// One pass per group, across tiles, matters beyond speed: tiles overlap in
/// their buffers, and a feature cut at a tile edge appears in both. Drawn as
/// one non-zero shape the overlap reaches full coverage once, where two
/// passes would blend a translucent colour twice along every tile edge.
struct VectorLayerDrawer {
    /// Output pixels per point.
    let scale: Double
    /// The style zoom properties are evaluated at.
    let zoom: Double
    /// The most pixels a width, gap, offset or translate may reach: twice the
    /// canvas's diagonal. Past it a line covers the canvas anyway, and a
    /// hostile width (1e9 px) would make round joins of millions of steps.
    let reach: Double

    /// How a group of polygons is filled.
    private struct FillPaint: Hashable {
        var color: RGBA
        var outline: RGBA?
        var sortKey: Double
        /// A `fill-pattern`'s image ("" for none), drawn at `opacity` instead of the colours.
        var pattern = ""
        var opacity = 1.0
        /// `fill-antialias`: a pattern's edges smoothed, else cut at pixel centres.
        var antialias = true
    }

    /// How a group of lines is stroked, widths and offsets in output pixels.
    private struct LinePaint: Hashable {
        var color: RGBA
        var width: Double
        var gap: Double
        var offset: Double
        var blur: Double
        /// The dashes' field and how it is read; nil for a solid line.
        var dash: LineFeather.Dash?
        /// A `line-gradient`, drawn instead of `color`; nil for none.
        var gradient: LineGradient?
        var cap: StyleLineCap
        var join: StyleLineJoin
        var miterLimit: Double
        var sortKey: Double
        /// A `line-pattern`'s image ("" for none), drawn at `opacity` instead of the colour.
        var pattern = ""
        var opacity = 1.0
    }

    private var fillIndex: [FillPaint: Int] = [:]
    /// Per group, its rings in pixels, (under pitch) each point's depth and
    /// (flat) each ring's tile square, which its outline stays in.
    private var fills: [(paint: FillPaint, rings: [[Point]], depths: [[Double]], tiles: [PixelSquare])] = []
    private var lineIndex: [LinePaint: Int] = [:]
    /// Per group, its lines and the square of the tile each came from (MapLibre clips each tile's drawing to it).
    private var lines: [(paint: LinePaint, polylines: [Polyline])] = []
    /// One line to stroke: its points in pixels, whether it is a closed ring, the tile square it is
    /// clipped to, the sharp corners' offset, and (for a gradient) how its progress follows its length.
    private typealias Polyline = (points: [Point], closed: Bool, tile: TileSquare, sharpCornerOffset: Double, progress: LineGradient.Progress?)
    /// A tile's square in output pixels.
    private typealias TileSquare = (minX: Double, minY: Double, maxX: Double, maxY: Double)

    /// The canvas size in pixels.
    let width: Int
    let height: Int
    /// The camera's pitch, nil for none: fills are cut to what MapLibre draws
    /// and put on the image; lines are stroked on the map plane, widths
    /// there, and their triangles put on the image (as MapLibre extrudes
    /// lines on the map, so a far line is drawn thinner).
    let pitch: PitchProjection?
    /// The sprite's images a layer's patterns name, and the camera they are
    /// laid out for (nil: patterns are not drawn).
    var sprites: [String: SpriteImage] = [:]
    var camera: VectorMapCamera?

    init(scale: Double, zoom: Double, width: Int, height: Int, pitch: PitchProjection? = nil) {
        self.scale = scale
        self.zoom = zoom
        self.width = width
        self.height = height
        self.pitch = pitch
        reach = 2 * (Double(width * width + height * height)).squareRoot() + 16
    }

    /// Dash fields made so far, by pattern and cap.
    private var dashTextures: [DashKey: LineDashTexture?] = [:]
    private struct DashKey: Hashable {
        var pattern: [Double]
        var round: Bool
    }

    /// How a line reads `pattern` (in widths of `width`, the line's width at
    /// the zoom's integer part, in points), as MapLibre's dashed lines do:
    /// measured in pixels of that integer zoom (so a period grows with the
    /// zoom's fraction), the field's edge smoothed over about a pixel.
    private mutating func dash(_ pattern: [Double], width: Double, round: Bool) -> LineFeather.Dash? {
        guard !pattern.isEmpty, width.isFinite, width > 0 else { return nil }
        let key = DashKey(pattern: pattern, round: round)
        let texture: LineDashTexture?
        if let known = dashTextures[key] {
            texture = known
        } else {
            texture = LineDashTexture(pattern, round: round)
            dashTextures[key] = texture
        }
        guard let texture else { return nil }
        let fraction = zoom - zoom.rounded(.down)
        let length = bounded(texture.period * width * scale * pow(2, fraction))
        // MapLibre's sdfgamma: the narrower of the two patterns it crossfades,
        // the one of the zoom below counting half at an integer zoom.
        let narrowest = texture.period * (fraction == 0 ? 0.5 : 1)
        guard length > 0 else { return nil }
        return LineFeather.Dash(texture: texture, length: length, gamma: 1 / (2 * narrowest * scale * width))
    }

    /// `value` held to ±``reach`` (0 when not finite).
    private func bounded(_ value: Double) -> Double {
        value.isFinite ? min(max(value, -reach), reach) : 0
    }

    /// Fills the canvas with a background layer's colour (under pitch, the
    /// ground only: none above MapLibre's far plane).
    func drawBackground(_ style: BackgroundLayerStyle, into canvas: inout BandedCanvas.Recording) {
        let color = Self.rgba(style.color.value(atZoom: zoom), opacity: style.opacity.value(atZoom: zoom))
        let top = min(Double(height), max(0, pitch?.farRow ?? 0))
        canvas.fill(polygons: [[Point(0, top), Point(Double(width), top), Point(Double(width), Double(height)), Point(0, Double(height))]],
                    color: color)
    }

    /// The features of `tileLayer` that `layer` (evaluated at `zoom`) draws,
    /// grouped by their paint as the style gives it (before the output scale),
    /// groups in the order of their first feature (for a `circle` layer, whose
    /// circles blend one over the other, a group per run of features alike,
    /// so feature order is kept): what does not depend on
    /// where the tile lands or on the output scale, so it can be kept
    /// between snapshots (``PreparedLayerCache``). The style is evaluated once
    /// per ``FeatureSignature`` seen, or, with `evaluatingEachFeature` (for
    /// tests), for every feature: the groups are the same either way. `tile`
    /// is where the tile layer lies (what `within` tests in), nil when unknown.
    /// `cancellation` is polled before each evaluation (a style may cost much
    /// per feature); its error is thrown.
    static func prepare(_ layer: StyleLayer, from tileLayer: VectorTileLayer, atZoom zoom: Double, tile: TileCoordinate? = nil,
                        evaluatingEachFeature: Bool = false, cancellation: RenderCancellation = RenderCancellation()) throws -> [PreparedLayerGroup] {
        guard tileLayer.extent > 0 else { return [] }
        // What the layer draws a feature with, nil when it draws nothing; asked
        // once per feature signature when the layer's inputs fit one.
        let drawsType: (VectorTileGeometryType) -> Bool
        let paint: (VectorTileFeature) -> PreparedLayerGroup.Paint?
        let keys: Set<String>?
        /// The flag on a polygon's parts: a line layer strokes its rings closed.
        let polygonFlag: UInt32
        switch layer.kind {
        case .fill(let style):
            drawsType = { $0 == .polygon }
            polygonFlag = 0
            paint = { feature in
                let opacity = style.opacity.value(atZoom: zoom, for: feature)
                let translate = style.translate.value(atZoom: zoom, for: feature)
                let anchor = style.translateAnchor.value(atZoom: zoom, for: feature)
                let sortKey = Self.sortKey(style.sortKey.value(atZoom: zoom, for: feature))
                let pattern = Self.pattern(style.pattern, atZoom: zoom, for: feature)
                // A layer with a pattern draws its features with it alone, none without an image.
                if style.pattern.constantValue != "" {
                    guard !pattern.isEmpty else { return nil }
                    let opacity = Self.unit(opacity)
                    guard opacity > 0 else { return nil }
                    return .fill(color: RGBA(0, 0, 0, 0), outline: nil, translate: translate.count == 2 ? translate : [],
                                 translateAnchor: anchor, sortKey: sortKey, pattern: pattern, opacity: opacity,
                                 antialias: style.antialias.value(atZoom: zoom, for: feature))
                }
                let color = Self.rgba(style.color.value(atZoom: zoom, for: feature), opacity: opacity)
                let outline = style.outlineColor.value(atZoom: zoom, for: feature).map { Self.rgba($0, opacity: opacity) }
                guard color.a != 0 || (outline?.a ?? 0) != 0 else { return nil }
                return .fill(color: color, outline: outline, translate: translate.count == 2 ? translate : [],
                             translateAnchor: anchor, sortKey: sortKey, antialias: style.antialias.value(atZoom: zoom, for: feature))
            }
            keys = Set(unionOf: [layer.filter.propertyKeys, style.propertyKeys])
        case .line(let style):
            drawsType = { $0 == .lineString || $0 == .polygon }
            polygonFlag = PreparedLayerGroup.closedFlag
            let ramp = style.gradient.map { StyleColorRamp($0, atZoom: zoom, inputKey: StyleExpression.lineProgressKey) }
            paint = { feature in
                let opacity = style.opacity.value(atZoom: zoom, for: feature)
                let color = Self.rgba(style.color.value(atZoom: zoom, for: feature), opacity: opacity)
                let width = style.width.value(atZoom: zoom, for: feature)
                // The width again at the zoom's integer part only for dashes (it may be costly).
                let dashes = style.dashArray.value(atZoom: zoom, for: feature)
                // MapLibre draws dashes before a gradient, a gradient instead of the colour.
                // A pattern after dashes, before a gradient.
                let pattern = dashes.isEmpty ? Self.pattern(style.pattern, atZoom: zoom, for: feature) : ""
                if dashes.isEmpty, style.pattern.constantValue != "", pattern.isEmpty { return nil }
                let gradient = dashes.isEmpty && pattern.isEmpty ? ramp.map { LineGradient(ramp: $0, opacity: Self.unit(opacity)) } : nil
                guard pattern.isEmpty ? gradient.map({ $0.opacity > 0 }) ?? (color.a != 0) : Self.unit(opacity) > 0,
                      width.isFinite, width > 0 else { return nil }
                let translate = style.translate.value(atZoom: zoom, for: feature)
                var clips: [Double] = []
                if gradient != nil, case .number(let start)? = feature.styleValue(forKey: GeoJSONTiles.clipStartKey),
                   case .number(let end)? = feature.styleValue(forKey: GeoJSONTiles.clipEndKey), start.isFinite, end.isFinite {
                    clips = [start, end]
                }
                return .line(color: color, width: width, gap: style.gapWidth.value(atZoom: zoom, for: feature),
                             offset: style.offset.value(atZoom: zoom, for: feature),
                             blur: style.blur.value(atZoom: zoom, for: feature), translate: translate.count == 2 ? translate : [],
                             translateAnchor: style.translateAnchor.value(atZoom: zoom, for: feature),
                             dashes: dashes,
                             dashWidth: dashes.isEmpty ? 0 : (style.dashWidth ?? style.width).value(atZoom: zoom.rounded(.down), for: feature),
                             cap: style.cap.value(atZoom: zoom, for: feature), join: style.join.value(atZoom: zoom, for: feature),
                             miterLimit: style.miterLimit.value(atZoom: zoom, for: feature),
                             sortKey: Self.sortKey(style.sortKey.value(atZoom: zoom, for: feature)), gradient: gradient, clips: clips,
                             pattern: pattern, opacity: Self.unit(opacity))
            }
            keys = Set(unionOf: [layer.filter.propertyKeys, style.propertyKeys])
        case .circle(let style):
            drawsType = { _ in true }
            polygonFlag = PreparedLayerGroup.closedFlag
            paint = { CircleLayerDrawer.paint(of: $0, style: style, atZoom: zoom).map { .circle($0) } }
            keys = Set(unionOf: [layer.filter.propertyKeys, style.propertyKeys])
        case .heatmap(let style):
            drawsType = { _ in true }
            polygonFlag = PreparedLayerGroup.closedFlag
            paint = { HeatmapLayerDrawer.paint(of: $0, style: style, atZoom: zoom).map { .heatmap($0) } }
            keys = Set(unionOf: [layer.filter.propertyKeys, style.propertyKeys])
        case .fillExtrusion(let style):
            drawsType = { $0 == .polygon }
            polygonFlag = 0
            paint = { FillExtrusionLayerDrawer.paint(of: $0, style: style, atZoom: zoom).map { .fillExtrusion($0) } }
            keys = Set(unionOf: [layer.filter.propertyKeys, style.propertyKeys])
        case .background, .symbol, .raster, .hillshade:
            return []
        }
        let inFeatureOrder: Bool
        if case .circle = layer.kind { inFeatureOrder = true } else { inFeatureOrder = false }
        /// With `inFeatureOrder`: runs of features of one group, in feature order.
        var runs: [PreparedLayerGroup] = []
        var lastGroup = -1
        var groups: [PreparedLayerGroup] = []
        var index: [PreparedLayerGroup.Paint: Int] = [:]
        let signatures = evaluatingEachFeature ? nil : FeatureSignature.Reader(keys: keys, in: tileLayer)
        /// Per signature seen, its group (-1: not drawn).
        var known: [FeatureSignature: Int] = [:]
        for featureIndex in 0..<tileLayer.featureCount {
            var feature = tileLayer.feature(at: featureIndex)
            feature.tile = tile
            guard drawsType(feature.geometryType) else { continue }
            let signature = signatures?.signature(of: feature)
            var group = -1
            if let signature, let seen = known[signature] {
                group = seen
            } else {
                try cancellation.check()
                if layer.matches(feature, atZoom: zoom), let paint = paint(feature) {
                    group = index[paint] ?? {
                        groups.append(PreparedLayerGroup(paint: paint, parts: []))
                        index[paint] = groups.count - 1
                        return groups.count - 1
                    }()
                }
                if let signature { known[signature] = group }
            }
            guard group >= 0 else { continue }
            let flag = feature.geometryType == .polygon ? polygonFlag : 0
            let parts = feature.parts.lazy.map { UInt32(truncatingIfNeeded: $0) | flag }
            if inFeatureOrder {
                if group != lastGroup { runs.append(PreparedLayerGroup(paint: groups[group].paint, parts: [])) }
                runs[runs.count - 1].parts.append(contentsOf: parts)
                lastGroup = group
            } else {
                groups[group].parts.append(contentsOf: parts)
            }
        }
        return inFeatureOrder ? runs : groups
    }

    /// Adds prepared groups of `tileLayer`, placed at `place`: paint scaled to
    /// output pixels and points projected.
    mutating func add(_ prepared: [PreparedLayerGroup], from tileLayer: VectorTileLayer, at place: TileCover.Placed) {
        guard tileLayer.extent > 0 else { return }
        let unit = place.tileSide / Double(tileLayer.extent)
        for prepared in prepared {
            switch prepared.paint {
            case let .fill(color, outline, translate, anchor, sortKey, pattern, opacity, antialias):
                let shifted = translated(place, by: translate, anchor: anchor)
                let paint = FillPaint(color: color, outline: outline, sortKey: sortKey, pattern: pattern, opacity: opacity, antialias: antialias)
                let group = fillIndex[paint] ?? {
                    fills.append((paint, [], [], []))
                    fillIndex[paint] = fills.count - 1
                    return fills.count - 1
                }()
                let square = Self.clipSquare(of: place)
                let tile = PixelSquare(minX: square.minX, minY: square.minY, maxX: square.maxX, maxY: square.maxY)
                for part in prepared.parts {
                    let ring = Self.project(tileLayer.points(ofPart: Int(part)), at: shifted, unit: unit, keepLast: false)
                    if let pitch, ring.count >= 3 {
                        let projected = pitch.clip(ring: ring).map { pitch.project($0, elevation: 0) }
                        guard projected.count >= 3 else { continue }
                        fills[group].rings.append(projected.map(\.point))
                        fills[group].depths.append(projected.map(\.depth))
                        continue
                    }
                    if ring.count >= 3 {
                        fills[group].rings.append(ring)
                        fills[group].tiles.append(tile)
                    }
                }
            case .circle, .heatmap, .fillExtrusion:
                break
            case let .line(color, rawWidth, gap, offset, blur, translate, anchor, dashes, dashWidth, cap, join, miterLimit, sortKey, gradient, clips,
                           pattern, opacity):
                let width = bounded(rawWidth * scale)
                guard width > 0 else { continue }
                let paint = LinePaint(
                    color: color, width: width, gap: max(0, bounded(gap * scale)), offset: bounded(offset * scale),
                    blur: max(0, bounded(blur * scale)),
                    dash: dash(dashes, width: dashWidth, round: cap == .round), gradient: gradient, cap: cap, join: join, miterLimit: miterLimit,
                    sortKey: sortKey, pattern: pattern, opacity: opacity)
                // MapLibre clips each tile's drawing to its square (before any
                // translate moves the lines); a square turned other than by right
                // angles is no rectangle, so such a map's lines are clipped to the canvas alone.
                let tile = Self.clipSquare(of: place)
                // MapLibre's 15 pixels of the tile's zoom, none past 16 times over-zoomed.
                let overscaling = pow(2, zoom.rounded(.down) - Double(place.tile.z))
                let sharpCornerOffset = overscaling <= 16 ? 15 * scale * pow(2, zoom - zoom.rounded(.down)) : 0
                let shifted = translated(place, by: translate, anchor: anchor)
                let group = lineIndex[paint] ?? {
                    lines.append((paint, []))
                    lineIndex[paint] = lines.count - 1
                    return lines.count - 1
                }()
                for part in prepared.parts {
                    let index = Int(part & ~PreparedLayerGroup.closedFlag)
                    let line = Self.project(tileLayer.points(ofPart: index), at: shifted, unit: unit, keepLast: true)
                    let closed = part & PreparedLayerGroup.closedFlag != 0
                    var progress: LineGradient.Progress?
                    if gradient != nil {
                        progress = clips.count == 2 ? LineGradient.Progress(clipStart: clips[0], clipEnd: clips[1], length: LineGeometry.length(of: line, closed: false))
                            : LineGradient.Progress(pixelsPerTileUnit: unit)
                    }
                    if let pitch, line.count >= 2 {
                        // Cut to what the camera sees, on the plane; a cut ring is stroked open.
                        let pieces = pitch.clip(line: closed ? line + [line[0]] : line)
                        if pieces.count == 1, pieces[0].count == line.count + (closed ? 1 : 0) {
                            lines[group].polylines.append((line, closed, tile, sharpCornerOffset, progress))
                        } else {
                            for piece in pieces { lines[group].polylines.append((piece, false, tile, sharpCornerOffset, progress)) }
                        }
                        continue
                    }
                    if line.count >= 2 { lines[group].polylines.append((line, closed, tile, sharpCornerOffset, progress)) }
                }
            }
        }
    }

    /// The rectangle in output pixels that `place`'s tile square covers when it
    /// is one (unturned, or turned by right angles, without pitch); else no clip.
    private static func clipSquare(of place: TileCover.Placed) -> TileSquare {
        let rightAngle = place.pitch == nil && (abs(place.sin) < 1e-9 || abs(place.cos) < 1e-9)
        guard !place.isTurned || rightAngle else {
            return (minX: -Double.greatestFiniteMagnitude, minY: -Double.greatestFiniteMagnitude,
                    maxX: Double.greatestFiniteMagnitude, maxY: Double.greatestFiniteMagnitude)
        }
        guard place.isTurned else { return (minX: place.x, minY: place.y, maxX: place.x + place.tileSide, maxY: place.y + place.tileSide) }
        let a = place.plane(0, 0), b = place.plane(place.tileSide, place.tileSide)
        // Corners of a right-angle turn, rounded where the sine and cosine are not exactly 0 or ±1.
        func snapped(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
        return (minX: snapped(min(a.x, b.x)), minY: snapped(min(a.y, b.y)), maxX: snapped(max(a.x, b.x)), maxY: snapped(max(a.y, b.y)))
    }

    /// `place` moved by a layer's `*-translate` (in points), on the map plane as
    /// MapLibre's `translatePosition` moves a tile: under anchor `map` the shift
    /// turns with the map; under `viewport` it is turned back by the bearing,
    /// so it stays upright on the image.
    private func translated(_ place: TileCover.Placed, by translate: [Double], anchor: StyleAlignment) -> TileCover.Placed {
        guard translate.count == 2 else { return place }
        let (x, y) = (bounded(translate[0] * scale), bounded(translate[1] * scale))
        let (u, v) = anchor == .map ? (x, y) : (place.cos * x + place.sin * y, place.cos * y - place.sin * x)
        var shifted = place
        let origin = place.plane(u, v)
        (shifted.x, shifted.y) = (origin.x, origin.y)
        return shifted
    }

    /// Records the drawing of what was collected, in the order the groups
    /// first appeared, and forgets it. Every stroke's work (its dashes,
    /// offset copies, joins and caps: ``GeneratedGeometryBudget``) is charged
    /// to `budget` as `layer`'s before it is made; `cancellation` is polled per line.
    /// Throws the budget's `VectorTileError` or the cancellation's error.
    mutating func flush(into canvas: inout BandedCanvas.Recording, layer: String,
                        budget: GeneratedGeometryBudget, cancellation: RenderCancellation) throws {
        defer {
            fills.removeAll(keepingCapacity: true)
            fillIndex.removeAll(keepingCapacity: true)
            lines.removeAll(keepingCapacity: true)
            lineIndex.removeAll(keepingCapacity: true)
        }
        // Groups in order of their sort keys, else of their first feature (a stable sort).
        for (paint, rings, depths, tiles) in Self.bySortKey(fills, { $0.paint.sortKey }) where !rings.isEmpty {
            if !paint.pattern.isEmpty {
                // An image the sprite lacks draws nothing, as in MapLibre.
                if let pattern = pattern(named: paint.pattern, opacity: paint.opacity) {
                    canvas.fill(polygons: rings, antialiased: paint.antialias, shader: pattern.shader)
                }
                continue
            }
            // Tile rings are wound exterior one way, holes the other: non-zero.
            canvas.fillAsMapLibre(rings: rings, depths: depths, tiles: tiles, color: paint.color, outline: paint.outline, antialias: paint.antialias)
        }
        for (paint, polylines) in Self.bySortKey(lines, { $0.paint.sortKey }) where !polylines.isEmpty {
            let feather = LineFeather(width: paint.width, gap: paint.gap, blur: paint.blur, offset: paint.offset, dash: paint.dash)
            // Only for the budget: what the stroke costs, as wide as the triangles reach.
            let style = StrokeStyle(width: 2 * feather.outset, join: LineJoin(rawValue: paint.join.rawValue) ?? .miter,
                                    cap: LineCap(rawValue: paint.cap.rawValue) ?? .butt,
                                    miterLimit: paint.miterLimit.isFinite ? max(1, paint.miterLimit) : 2)
            var meshes: [ShadedTriangles] = []
            for (line, closed, tile, sharpCornerOffset, progress) in polylines {
                try cancellation.check()
                let length = LineGeometry.length(of: line, closed: closed)
                try budget.charge(GeneratedGeometryBudget.strokeCost(lines: 1, points: line.count, length: length, closed: closed, style: style),
                                  layer: layer)
                var tessellation = LineTessellator()
                tessellation.add(line, closed: closed, join: paint.join, cap: paint.cap,
                                 miterLimit: paint.miterLimit.isFinite ? max(1, paint.miterLimit) : 2, sharpCornerOffset: sharpCornerOffset)
                var mesh = feather.mesh(of: tessellation, clip: tile)
                if let progress {
                    for i in mesh.vertices.indices { mesh.vertices[i].w = progress.atVertex(mesh.vertices[i].w) }
                }
                meshes.append(pitch.map { $0.project(mesh) } ?? mesh)
            }
            let pattern = paint.pattern.isEmpty ? nil : self.pattern(named: paint.pattern, opacity: paint.opacity)
            if !paint.pattern.isEmpty, pattern == nil { continue }
            if Self.fragmentEstimate(meshes, canvasArea: Double(width * height)) <= Self.fragmentsPerCanvasPixel * Double(width * height) {
                if let pattern {
                    canvas.drawLines(meshes, pattern: pattern, feather: feather)
                } else if let gradient = paint.gradient {
                    canvas.drawLines(meshes, gradient: gradient, feather: feather)
                } else {
                    canvas.drawLines(meshes, color: paint.color, feather: feather)
                }
            } else {
                // Lines so wide (hostile widths held to the reach) that shading each
                // triangle's pixels would cost tens of canvases: one union stroke
                // of the outer width instead, bounded work and the same cover.
                let wide = StrokeStyle(width: max(1, 2 * feather.outset - 1), join: style.join, cap: style.cap, miterLimit: style.miterLimit)
                canvas.stroke(polylines: polylines.map { line in (pitch.map { line.points.map($0.project) } ?? line.points, line.closed) },
                              color: paint.color, style: wide)
            }
        }
    }

    /// The pattern of the sprite's image `name` at `opacity`, laid out for
    /// ``camera``; nil when the sprite lacks it.
    private func pattern(named name: String, opacity: Double) -> SpritePattern? {
        guard let camera, let image = sprites[name] else { return nil }
        return SpritePattern(image, camera: camera, opacity: opacity)
    }

    /// A feature's `*-pattern` image name: what the style gives at the
    /// zoom's integer part when it reads the feature (MapLibre lays out
    /// data-driven patterns with its tiles, at their zoom); a zoom-only one
    /// is already evaluated at the map's zoom.
    static func pattern<Feature: StyleFeature>(_ property: StyleProperty<String>, atZoom zoom: Double, for feature: Feature) -> String {
        property.value(atZoom: property.isFeatureDependent ? zoom.rounded(.down) : zoom, for: feature)
    }

    /// An opacity held to 0…1 (1 when not finite).
    static func unit(_ value: Double) -> Double {
        value.isFinite ? min(max(value, 0), 1) : 1
    }

    /// A `*-sort-key` as groups are ordered by it: 0 when not finite.
    static func sortKey(_ value: Double) -> Double { value.isFinite ? value : 0 }

    /// `groups` stably sorted by `key`.
    private static func bySortKey<Group>(_ groups: [Group], _ key: (Group) -> Double) -> [Group] {
        groups.enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }.map(\.element)
    }

    /// How many canvases' worth of pixels a group's triangles may shade
    /// before the group is stroked as one shape instead.
    static let fragmentsPerCanvasPixel = 64.0

    /// About how many pixels `meshes` shade: each triangle's area, at most the canvas's.
    static func fragmentEstimate(_ meshes: [ShadedTriangles], canvasArea: Double) -> Double {
        var total = 0.0
        for mesh in meshes {
            for t in 0..<mesh.triangleCount {
                let a = mesh.vertices[Int(mesh.indices[3 * t])], b = mesh.vertices[Int(mesh.indices[3 * t + 1])]
                let c = mesh.vertices[Int(mesh.indices[3 * t + 2])]
                total += min(canvasArea, abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / 2)
            }
        }
        return total
    }

    /// Tile points in output pixels on the map plane (through `place`, turned
    /// with the camera, before any pitch), dropping each closer than a quarter pixel (Manhattan) to the
    /// last kept: over-zoomed or not, no vertex is wasted below what
    /// anti-aliasing shows. `keepLast` keeps a line's end point. `unit` is
    /// output pixels per tile unit.
    static func project(_ points: ArraySlice<VectorTilePoint>, at place: TileCover.Placed, unit: Double, keepLast: Bool) -> [Point] {
        var out: [Point] = []
        out.reserveCapacity(points.count)
        var droppedLast = false
        // One affine map: tile units straight to output pixels.
        let (a, b, x, y) = (place.cos * unit, place.sin * unit, place.x, place.y)
        for point in points {
            let px = Double(point.x), py = Double(point.y)
            let p = Point(x + a * px - b * py, y + b * px + a * py)
            if let last = out.last, abs(p.x - last.x) + abs(p.y - last.y) < 0.25 {
                droppedLast = true
                continue
            }
            droppedLast = false
            out.append(p)
        }
        if keepLast, droppedLast, let end = points.last {
            // The end replaces the last kept point (a line's first point stays).
            let p = place.plane(Double(end.x) * unit, Double(end.y) * unit)
            if out.count >= 2 { out[out.count - 1] = p } else { out.append(p) }
        }
        return out
    }

    /// A style colour at `opacity` as 8-bit straight RGBA.
    static func rgba(_ color: StyleColor, opacity: Double) -> RGBA {
        var color = color
        color.alpha *= opacity.isFinite ? min(max(opacity, 0), 1) : 1
        return color.rgba
    }
}
