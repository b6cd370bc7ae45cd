import Raster

/// Draws a `circle` layer as MapLibre's circle shader does: a disc at every
/// vertex of every feature (points, and the vertices of lines and polygons),
/// its edge faded over about one device pixel (or over `circle-blur` of the
/// radius), its stroke outside the radius mixed in over the same fade.
///
/// Each circle is drawn by the one tile holding its centre (MapLibre's
/// bucket skips vertices outside the tile's extent), whole and unclipped, so
/// a circle across a tile edge is drawn once, and a translucent one is not
/// darkened where tiles' buffers overlap. Circles are drawn one over the
/// other in tile order (top to bottom, left to right, as MapLibre's painter
/// orders them), feature order within a tile, then by `circle-sort-key`.
struct CircleLayerDrawer {
    /// A circle's paint as the style evaluates it (lengths in points,
    /// before the output scale), what ``PreparedLayerGroup`` keeps.
    struct Paint: Hashable, Sendable {
        /// `circle-radius`.
        var radius: Double
        /// `circle-stroke-width`.
        var strokeWidth: Double
        /// `circle-blur`.
        var blur: Double
        /// `circle-color` at `circle-opacity`, premultiplied, 0…1.
        var color: SIMD4<Float>
        /// `circle-stroke-color` at `circle-stroke-opacity`, premultiplied, 0…1.
        var strokeColor: SIMD4<Float>
        /// `circle-translate` in points ([] for none).
        var translate: [Double]
        /// `circle-translate-anchor` is `map` (the default): the translate turns with the map.
        var translatesWithMap = true
        /// `circle-sort-key`, nil when the layer has none.
        var sortKey: Double?
        /// `circle-pitch-scale` is `map`: under pitch a circle is drawn
        /// smaller farther away (by the centre's depth over its own).
        var scalesWithMap = true
        /// `circle-pitch-alignment` is `map`: under pitch a circle lies on the
        /// map (an ellipse on the image) instead of facing the image.
        var liesOnMap = false
    }

    /// One circle in output pixels, ready to shade.
    struct Circle: Sendable {
        /// The centre.
        var x: Double
        var y: Double
        /// The radius plus the stroke width: the disc's outer edge.
        var outer: Double
        /// Where the stroke begins, as a fraction of `outer` (1 without a stroke).
        var inner: Double
        /// The fade, as a fraction of `outer`.
        var fade: Double
        /// False when the stroke is too thin to draw (under 0.01 points, MapLibre's cut).
        var stroked: Bool
        var color: SIMD4<Float>
        var strokeColor: SIMD4<Float>
        /// For a circle lying on a pitched map (`circle-pitch-alignment: map`):
        /// the projection, with `x`, `y` and `outer` on the map plane. Each
        /// pixel is taken back to the plane and shaded by its distance there,
        /// as MapLibre interpolates the quad's extrusion across the tilted square.
        var onMap: PitchProjection?

        /// The pixels its square covers on a `width` × `height` canvas.
        func bounds(width: Int, height: Int) -> (columns: Range<Int>, rows: Range<Int>) {
            func span(_ low: Double, _ high: Double, _ limit: Int) -> Range<Int> {
                let low = max(0, min(Double(limit), low.rounded(.down)))
                let high = max(low, min(Double(limit), high.rounded(.up)))
                return Int(low)..<Int(high)
            }
            guard let onMap else { return (span(x - outer, x + outer, width), span(y - outer, y + outer, height)) }
            // The square's corners on the image (held in front of the near plane).
            let corners = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map {
                onMap.project(Point(x + $0.0 * outer, min(y + $0.1 * outer, onMap.nearY)))
            }
            let xs = corners.map(\.x), ys = corners.map(\.y)
            guard (xs + ys).allSatisfy(\.isFinite) else { return (0..<0, 0..<0) }
            return (span(xs.min()!, xs.max()!, width), span(max(ys.min()!, onMap.farRow), ys.max()!, height))
        }

        /// The premultiplied colour at the centre of the pixel at `column`, `row`.
        @inline(__always)
        func shade(_ column: Int, _ row: Int) -> SIMD4<Float> {
            var (px, py) = (Double(column) + 0.5, Double(row) + 0.5)
            if let onMap {
                let p = onMap.unproject(Point(px, py))
                (px, py) = (p.x, p.y)
            }
            let dx = px - x, dy = py - y
            let distance = (dx * dx + dy * dy).squareRoot() / outer
            guard distance < 1 else { return .zero }
            let opacity = Self.smoothstep(0, -fade, distance - 1)
            let mix = stroked ? Self.smoothstep(-fade, 0, distance - inner) : 0
            return Float(opacity) * (color + Float(mix) * (strokeColor - color))
        }

        /// GLSL's `smoothstep`, also for `edge0` > `edge1` as GPUs compute it.
        static func smoothstep(_ edge0: Double, _ edge1: Double, _ x: Double) -> Double {
            let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
            return t.isNaN ? (x < edge0 ? 0 : 1) : t * t * (3 - 2 * t)
        }
    }

    /// Output pixels per point.
    let scale: Double
    /// The canvas size in pixels.
    let width: Int
    let height: Int
    /// Each tile's circles, in the order added.
    private var tiles: [(place: TileCover.Placed, circles: [(circle: Circle, sortKey: Double?)])] = []

    init(scale: Double, width: Int, height: Int) {
        self.scale = scale
        self.width = width
        self.height = height
    }

    /// The paint of `feature` in `style` (evaluated at `zoom`); nil when it
    /// draws nothing (no radius, or transparent fill and stroke).
    static func paint<Feature: StyleFeature>(of feature: Feature, style: CircleLayerStyle, atZoom zoom: Double) -> Paint? {
        func premultiplied(_ color: StyleColor, _ opacity: Double) -> SIMD4<Float> {
            let alpha = min(max(color.alpha, 0), 1) * (opacity.isFinite ? min(max(opacity, 0), 1) : 1)
            func channel(_ value: Double) -> Float { Float(value.isNaN ? 0 : min(max(value, 0), 1) * alpha) }
            return SIMD4(channel(color.red), channel(color.green), channel(color.blue), Float(alpha))
        }
        let radius = style.radius.value(atZoom: zoom, for: feature)
        let strokeWidth = style.strokeWidth.value(atZoom: zoom, for: feature)
        guard radius.isFinite, strokeWidth.isFinite, radius + strokeWidth > 0 else { return nil }
        let color = premultiplied(style.color.value(atZoom: zoom, for: feature), style.opacity.value(atZoom: zoom, for: feature))
        let strokeColor = premultiplied(style.strokeColor.value(atZoom: zoom, for: feature),
                                        style.strokeOpacity.value(atZoom: zoom, for: feature))
        guard color.w > 0 || (strokeColor.w > 0 && strokeWidth >= 0.01) else { return nil }
        let translate = style.translate.value(atZoom: zoom, for: feature)
        let blur = style.blur.value(atZoom: zoom, for: feature)
        return Paint(radius: radius, strokeWidth: strokeWidth, blur: blur.isFinite ? blur : 0,
                     color: color, strokeColor: strokeColor, translate: translate.count == 2 ? translate : [],
                     translatesWithMap: style.translateAnchor.value(atZoom: zoom, for: feature) == .map,
                     sortKey: style.sortKey.value(atZoom: zoom, for: feature),
                     scalesWithMap: style.pitchScale.value(atZoom: zoom, for: feature) == .map,
                     liesOnMap: style.pitchAlignment.value(atZoom: zoom, for: feature) == .map)
    }

    /// Adds the circles of prepared groups of `tileLayer`, placed at `place`:
    /// one per vertex inside the tile (a polygon ring's first vertex twice, as
    /// MapLibre reads rings closed), in output pixels: each centre through
    /// `place` (turned and pitched with the camera), the disc facing the
    /// image (MapLibre's default `circle-pitch-alignment: viewport`), its
    /// radius divided by the depth under `circle-pitch-scale: map`.
    mutating func add(_ prepared: [PreparedLayerGroup], from tileLayer: VectorTileLayer, at place: TileCover.Placed) {
        guard tileLayer.extent > 0 else { return }
        let unit = place.tileSide / Double(tileLayer.extent)
        let extent = Int32(clamping: tileLayer.extent)
        var circles: [(circle: Circle, sortKey: Double?)] = []
        for group in prepared {
            guard case .circle(let paint) = group.paint else { continue }
            let outer = (paint.radius + paint.strokeWidth) * scale
            guard outer.isFinite, outer > 0 else { continue }
            // MapLibre's least fade: one device pixel, as a fraction of the radius.
            let fade = max(paint.blur, 1 / outer)
            var dx = paint.translate.count == 2 ? paint.translate[0] * scale : 0
            var dy = paint.translate.count == 2 ? paint.translate[1] * scale : 0
            if paint.translatesWithMap && place.pitch == nil {
                // Anchored to the map, the shift turns with it (MapLibre's `translatePosition`).
                (dx, dy) = (place.cos * dx - place.sin * dy, place.sin * dx + place.cos * dy)
            }
            let template = Circle(x: 0, y: 0, outer: outer, inner: paint.radius * scale / outer, fade: fade,
                                  stroked: paint.strokeWidth >= 0.01, color: paint.color, strokeColor: paint.strokeColor)
            for part in group.parts {
                let points = tileLayer.points(ofPart: Int(part & ~PreparedLayerGroup.closedFlag))
                let closing = part & PreparedLayerGroup.closedFlag != 0 ? points.first : nil
                for point in [points, closing.map { [$0][...] } ?? []].joined()
                    where point.x >= 0 && point.x < extent && point.y >= 0 && point.y < extent {
                    var circle = template
                    if let pitch = place.pitch {
                        // Behind MapLibre's near plane a circle is not drawn.
                        let plane = place.plane(Double(point.x) * unit, Double(point.y) * unit)
                        guard plane.y <= pitch.nearY else { continue }
                        if paint.liesOnMap {
                            // On the plane, a radius of the centre's scale; under `circle-pitch-scale:
                            // viewport` grown by the depth, so it is its radius where it lies.
                            (circle.x, circle.y, circle.onMap) = (plane.x + dx, plane.y + dy, pitch)
                            if !paint.scalesWithMap { circle.outer *= pitch.depthRatio(atPlaneY: plane.y) }
                            circle.fade = max(paint.blur, 1 / circle.outer)
                            guard circle.outer.isFinite else { continue }
                            circles.append((circle, paint.sortKey))
                            continue
                        }
                        let centre = pitch.project(plane)
                        (circle.x, circle.y) = (centre.x + dx, centre.y + dy)
                        if paint.scalesWithMap {
                            circle.outer /= pitch.depthRatio(atPlaneY: plane.y)
                            circle.fade = max(paint.blur, 1 / circle.outer)
                        }
                    } else {
                        let centre = place.pixel(Double(point.x) * unit, Double(point.y) * unit)
                        (circle.x, circle.y) = (centre.x + dx, centre.y + dy)
                    }
                    guard circle.x.isFinite, circle.y.isFinite, circle.outer.isFinite else { continue }
                    circles.append((circle, paint.sortKey))
                }
            }
        }
        if !circles.isEmpty { tiles.append((place, circles)) }
    }

    /// Records the circles added, in MapLibre's order, charging each
    /// circle's shaded pixels to `budget` as `layer`'s, and forgets them.
    /// Throws the budget's `VectorTileError` or the cancellation's error.
    mutating func flush(into canvas: inout BandedCanvas.Recording, layer: String,
                        budget: GeneratedGeometryBudget, cancellation: RenderCancellation) throws {
        defer { tiles.removeAll() }
        // Top to bottom, then left to right; `sorted` keeps equal keys in order.
        var circles = tiles.enumerated()
            .sorted { ($0.element.place.y, $0.element.place.x, $0.offset) < ($1.element.place.y, $1.element.place.x, $1.offset) }
            .flatMap(\.element.circles)
        if circles.contains(where: { $0.sortKey != nil }) {
            circles = circles.enumerated()
                .sorted { ($0.element.sortKey ?? 0, $0.offset) < ($1.element.sortKey ?? 0, $1.offset) }
                .map(\.element)
        }
        var shown: [Circle] = []
        var area = 0
        for (circle, _) in circles {
            let (columns, rows) = circle.bounds(width: width, height: height)
            guard !columns.isEmpty, !rows.isEmpty else { continue }
            area += columns.count * rows.count
            shown.append(circle)
            if shown.count % 4096 == 0 {
                try cancellation.check()
                try budget.charge(area, layer: layer, work: Self.work)
                area = 0
            }
        }
        try budget.charge(area, layer: layer, work: Self.work)
        if !shown.isEmpty { canvas.shade(circles: shown) }
    }

    /// What circles cost, as the budget's error names it.
    static let work = "its circles' pixels"

    /// Shades `circles` onto `canvas` in order (each blended over those before).
    static func draw(_ circles: [Circle], on canvas: inout Canvas) {
        for circle in circles {
            let (columns, rows) = circle.bounds(width: canvas.width, height: canvas.height)
            canvas.shade(columns: columns, rows: rows, circle.shade)
        }
    }
}
