import Foundation
import Raster

/// Draws a `fill-extrusion` layer as MapLibre does: every polygon raised
/// into a prism (walls along its rings, a roof at its height) projected
/// through the camera in 3D, each face lit per vertex by the style's light as
/// MapLibre's `fill_extrusion.vertex.glsl` lights it, hidden surfaces removed
/// by a depth buffer (the nearest face wins, later faces winning ties, as
/// `LEQUAL` does), into a layer of its own that is composited once at
/// `fill-extrusion-opacity`. Faces are sampled at pixel centres without
/// anti-aliasing, as MapLibre's GL pipeline rasterises them.
///
/// Walls and roof are planar, so each face is scan-filled as a polygon (a
/// roof's holes by the even–odd rule) and its depth and its walls' height
/// fraction interpolated perspective-correctly across the image from the
/// face's plane: `1/w` and `t/w` are affine in image coordinates.
struct FillExtrusionLayerDrawer {
    /// A feature's paint, as ``PreparedLayerGroup`` keeps it.
    struct Paint: Hashable, Sendable {
        /// `fill-extrusion-color`, premultiplied (MapLibre's colours are), 0…1.
        var color: SIMD4<Double>
        /// `fill-extrusion-height` and `fill-extrusion-base`, metres, at least 0.
        var height: Double
        var base: Double
        /// A `fill-extrusion-pattern`'s image ("" for none), tiled instead of the colour.
        var pattern = ""
    }

    /// The lighting of one layer: the style's light and the layer's gradient.
    struct Lighting: Sendable {
        /// The light's direction in tile space, turned for a viewport anchor.
        var direction: SIMD3<Double>
        var color: SIMD3<Double>
        var intensity: Double
        /// `fill-extrusion-vertical-gradient` as 1 or 0.
        var verticalGradient: Double

        init(light: StyleLight, bearing: Double, verticalGradient: Bool) {
            direction = light.direction(bearing: bearing)
            let color = light.color
            self.color = SIMD3(color.red, color.green, color.blue).clamped(lowerBound: .zero, upperBound: .one)
            intensity = min(max(light.intensity, 0), 1)
            self.verticalGradient = verticalGradient ? 1 : 0
        }

        /// The lighting a vertex of `paint` gets under a pattern (MapLibre's
        /// `fill_extrusion_pattern.vertex.glsl`): as ``shade(_:normal:t:)``
        /// with no colour of its own, the pattern's colour multiplied by it.
        func shadePattern(_ paint: Paint, normal: SIMD3<Double>, t: Double) -> SIMD3<Double> {
            var directional = min(max((normal * direction).sum(), 0), 1)
            directional = (1 - intensity) + (max(0.5 + intensity, 1) - (1 - intensity)) * directional
            if normal.y != 0 {
                let lowest = 0.7 + (0.98 - 0.7) * (1 - intensity)
                let gradient = min(max((t + paint.base) * (paint.height / 150).squareRoot(), lowest), 1)
                directional *= (1 - verticalGradient) + verticalGradient * gradient
            }
            let floor = 0.3 * (SIMD3<Double>.one - self.color)
            return (directional * self.color).clamped(lowerBound: floor, upperBound: .one)
        }

        /// The colour a vertex of `paint` gets with surface `normal` (tile
        /// space, as the bucket packs it: `normal.y` counted in 16384ths) at
        /// height fraction `t` (1 at the top, 0 at the foot): MapLibre's
        /// vertex shader, alpha 1.
        func shade(_ paint: Paint, normal: SIMD3<Double>, t: Double) -> SIMD3<Double> {
            var color = SIMD3(paint.color.x, paint.color.y, paint.color.z)
            let value = color.x * 0.2126 + color.y * 0.7152 + color.z * 0.0722
            color += 0.03
            var directional = min(max((normal * direction).sum(), 0), 1)
            directional = (1 - intensity) + (max(1 - value + intensity, 1) - (1 - intensity)) * directional
            if normal.y != 0 {
                let lowest = 0.7 + (0.98 - 0.7) * (1 - intensity)
                let gradient = min(max((t + paint.base) * (paint.height / 150).squareRoot(), lowest), 1)
                directional *= (1 - verticalGradient) + verticalGradient * gradient
            }
            let floor = 0.3 * (SIMD3<Double>.one - self.color)
            return (color * directional * self.color).clamped(lowerBound: floor, upperBound: .one)
        }
    }

    /// One point of a face: where it is on the map plane (output pixels), its
    /// elevation (output pixels) and its height fraction (0 foot, 1 top).
    struct FacePoint {
        var x: Double
        var y: Double
        var z: Double
        var t: Double
        /// Where a pattern is read, in points of the zoom's integer part
        /// (`get_pattern_pos` before dividing by the image's size).
        var u = 0.0, v = 0.0
    }

    /// A face's point on the image: its position (output pixels), clip w,
    /// GL window depth (0…1), height fraction and pattern position (``FacePoint``'s `u`, `v`).
    struct Vertex {
        var x: Double
        var y: Double
        var w: Double
        var window: Double
        var t: Double
        var u: Double
        var v: Double
    }

    let width: Int
    let height: Int
    /// Output pixels per point.
    let scale: Double
    /// Output pixels per metre of height at the camera's centre (MapLibre
    /// scales the z of every tile by the centre's `pixelsPerMeter`).
    let pixelsPerMetre: Double
    let lighting: Lighting
    /// The layer's `fill-extrusion-translate` in points and its anchor.
    let translate: [Double]
    let translatesWithMap: Bool
    /// `fill-extrusion-opacity`, applied as each pixel is written.
    let opacity: Double
    /// The camera (a pitch of 0 still projects in perspective).
    let projection: PitchProjection
    /// Premultiplied RGBA8 of the nearest faces, at `opacity`.
    private(set) var pixels: [UInt8]
    /// Per pixel, the depth of the nearest face drawn as GL keeps it (the
    /// window depth in 16 bits, MapLibre Native's depth renderbuffer; ``farthest`` for none): shared by the
    /// style's extrusion layers, as MapLibre's 3D pass shares its depth
    /// buffer (a box of a later layer hides behind an earlier one's). Kept
    /// as coarsely as GL keeps it, so faces that meet tie as they do there.
    private(set) var nearest: [UInt16]
    /// The cleared depth buffer's value.
    static let farthest = UInt16.max
    /// False for a depth-only pass (an earlier layer's faces, hiding this one's).
    let writesColor: Bool
    /// Whether any face was drawn.
    private(set) var drewAny = false
    /// The sprite's images `fill-extrusion-pattern` names, and the camera they are laid out for.
    let sprites: [String: SpriteImage]
    let camera: VectorMapCamera

    /// What extrusions cost, as the budget's error names it.
    static let work = "its extrusions' faces (pixels and edges scanned)"

    /// A drawer for `style` (evaluated at the camera's style zoom) under
    /// `camera`, lit by `light`, its faces tested against `depth` (the
    /// ``nearest`` of the style's earlier extrusion layers, empty for none),
    /// with `writesColor` false drawing depth only.
    init(camera: VectorMapCamera, style: FillExtrusionLayerStyle, light: StyleLight, depth: [UInt16] = [], writesColor: Bool = true,
         sprites: [String: SpriteImage] = [:]) {
        self.camera = camera
        self.sprites = sprites
        width = camera.pixelWidth
        height = camera.pixelHeight
        scale = camera.scale
        let zoom = camera.styleZoom
        // Metres per point at the centre: GL JS's `mercatorZfromAltitude` (its earth's
        // radius, 6,371,008.8 m, the one the render tests' expected images were drawn with).
        let metresPerPoint = cos(camera.center.latitude * .pi / 180) * 2 * .pi * 6_371_008.8 / (512 * pow(2, zoom))
        pixelsPerMetre = metresPerPoint > 0 ? scale / metresPerPoint : 0
        lighting = Lighting(light: light, bearing: camera.bearing, verticalGradient: style.verticalGradient.value(atZoom: zoom))
        let translate = style.translate.value(atZoom: zoom)
        self.translate = translate.count == 2 ? translate : [0, 0]
        translatesWithMap = style.translateAnchor.value(atZoom: zoom) == .map
        let opacity = style.opacity.value(atZoom: zoom)
        self.opacity = opacity.isFinite ? min(max(opacity, 0), 1) : 1
        projection = PitchProjection(pitch: camera.pitch, width: Double(width), height: Double(height), axonometric: camera.axonometric)
        pixels = []
        nearest = depth.count == width * height ? depth : []
        self.writesColor = writesColor
    }

    /// The paint of `feature` in `style` (evaluated at `zoom`); nil when the
    /// colour is not finite.
    static func paint<Feature: StyleFeature>(of feature: Feature, style: FillExtrusionLayerStyle, atZoom zoom: Double) -> Paint? {
        let pattern = VectorLayerDrawer.pattern(style.pattern, atZoom: zoom, for: feature)
        // A layer with a pattern draws its features with it alone, none without an image.
        if style.pattern.constantValue != "", pattern.isEmpty { return nil }
        let color = style.color.value(atZoom: zoom, for: feature)
        let alpha = min(max(color.alpha, 0), 1)
        func channel(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) * alpha }
        func metres(_ value: Double) -> Double { value.isFinite ? max(0, value) : 0 }
        return Paint(color: SIMD4(channel(color.red), channel(color.green), channel(color.blue), alpha),
                     height: metres(style.height.value(atZoom: zoom, for: feature)),
                     base: metres(style.base.value(atZoom: zoom, for: feature)), pattern: pattern)
    }

    /// Draws the prisms of prepared groups of `tileLayer`, placed at `place`,
    /// charging each face's scanned rows, edges and pixels to `budget` as
    /// `layer`'s. Throws the budget's `VectorTileError` or the cancellation's error.
    mutating func add(_ prepared: [PreparedLayerGroup], from tileLayer: VectorTileLayer, at place: TileCover.Placed,
                      layer: String, budget: GeneratedGeometryBudget, cancellation: RenderCancellation) throws {
        guard tileLayer.extent > 0, opacity > 0, width > 0, height > 0 else { return }
        let unit = place.tileSide / Double(tileLayer.extent)
        let extent = Int32(clamping: tileLayer.extent)
        var (dx, dy) = (translate[0] * scale, translate[1] * scale)
        if translatesWithMap { (dx, dy) = (place.cos * dx - place.sin * dy, place.sin * dx + place.cos * dy) }
        // Where patterns are read: points of the zoom's integer part, from the world's origin
        // (the tile's corner there plus its units, MapLibre's pixel_coord and tile ratio);
        // walls along their ring's length and down their height (`u_height_factor`), both
        // in units of a tile of MapLibre's extent, 8192.
        let integerZoom = camera.styleZoom.rounded(.down)
        let tileSize = 512 * pow(2, integerZoom - Double(place.tile.z))
        let (tileLeft, tileTop) = (tileSize * Double(place.tile.x), tileSize * Double(place.tile.y))
        let pointsPerUnit = tileSize / Double(tileLayer.extent), pointsPerMapLibreUnit = tileSize / 8192
        let pointsPerMetre = pow(2, integerZoom) / 65536
        for group in prepared {
            guard case .fillExtrusion(let paint) = group.paint else { continue }
            var pattern: SpritePattern?
            if !paint.pattern.isEmpty {
                guard let image = sprites[paint.pattern] else { continue }
                pattern = SpritePattern(image, camera: camera, opacity: 1)
            }
            func shade(normal: SIMD3<Double>, t: Double) -> SIMD3<Double> {
                pattern == nil ? lighting.shade(paint, normal: normal, t: t) : lighting.shadePattern(paint, normal: normal, t: t)
            }
            let (top, foot) = (paint.height * pixelsPerMetre, paint.base * pixelsPerMetre)
            // The roof is lit with the normal the bucket packs for it: (1, 0, 16384) / 16384.
            let roofColor = shade(normal: SIMD3(1.0 / 16384, 0, 1), t: 1)
            var polygon: [[FacePoint]] = []
            func drawRoof() throws {
                defer { polygon.removeAll() }
                guard !polygon.isEmpty else { return }
                try fill(polygon, bottom: roofColor, top: roofColor, pattern: pattern, layer: layer, budget: budget)
            }
            for part in group.parts {
                try cancellation.check()
                let index = Int(part & ~PreparedLayerGroup.closedFlag)
                if tileLayer.partIsExterior[index] { try drawRoof() }
                let points = tileLayer.points(ofPart: index)
                guard let first = points.first else { continue }
                let ring = Array(points) + [first]
                func plane(_ p: VectorTilePoint) -> Point {
                    let q = place.plane(Double(p.x) * unit, Double(p.y) * unit)
                    return Point(q.x + dx, q.y + dy)
                }
                polygon.append(ring.dropLast().map { p in
                    let q = plane(p)
                    return FacePoint(x: q.x, y: q.y, z: top, t: 1,
                                     u: tileLeft + Double(p.x) * pointsPerUnit, v: tileTop + Double(p.y) * pointsPerUnit)
                })
                guard top > foot, !Self.isEntirelyOutside(ring, extent: extent) else { continue }
                // How far along the ring each wall starts, in MapLibre's tile units, each wall's
                // length truncated to a whole unit and the count restarting past 32767 (its 16 bits).
                var edgeDistance = 0.0
                let (topV, footV) = (tileTop - paint.height * pointsPerMetre, tileTop - paint.base * pointsPerMetre)
                for i in ring.indices.dropFirst() {
                    let (p1, p2) = (ring[i], ring[i - 1])
                    let (ex, ey) = (Double(p1.x) - Double(p2.x), Double(p1.y) - Double(p2.y))
                    let length = (ex * ex + ey * ey).squareRoot()
                    let units = (length * pointsPerUnit / pointsPerMapLibreUnit).rounded(.towardZero)
                    if edgeDistance + units > 32767 { edgeDistance = 0 }
                    guard !Self.isBoundaryEdge(p1, p2, extent: extent) else {
                        edgeDistance += units
                        continue
                    }
                    guard length > 0 else { continue }
                    // The bucket's normal: the edge's perpendicular, x packed with the
                    // top flag (t) in its lowest bit, y truncated to 16384ths.
                    let (px, py) = (-ey / length, ex / length)
                    let nx = ((px * 8192).rounded(.down) * 2) / 16384
                    let ny = (py * 16384).rounded(.towardZero) / 16384
                    let bottom = shade(normal: SIMD3(nx, ny, 0), t: 0)
                    let topColor = shade(normal: SIMD3(nx + 1.0 / 16384, ny, 0), t: 1)
                    let (a, b) = (plane(p2), plane(p1))
                    let (ub, ua) = (tileLeft + edgeDistance * pointsPerMapLibreUnit, tileLeft + (edgeDistance + units) * pointsPerMapLibreUnit)
                    edgeDistance += units
                    let wall = [FacePoint(x: a.x, y: a.y, z: foot, t: 0, u: ua, v: footV), FacePoint(x: b.x, y: b.y, z: foot, t: 0, u: ub, v: footV),
                                FacePoint(x: b.x, y: b.y, z: top, t: 1, u: ub, v: topV), FacePoint(x: a.x, y: a.y, z: top, t: 1, u: ua, v: topV)]
                    try fill([wall], bottom: bottom, top: topColor, pattern: pattern, layer: layer, budget: budget)
                }
            }
            try drawRoof()
        }
    }

    /// The layer's pixels (premultiplied RGBA8, already at its opacity), nil
    /// when nothing was drawn.
    var layerPixels: [UInt8]? { drewAny ? pixels : nil }

    /// Whether every point of `ring` lies beyond one side of the tile (MapLibre's `isEntirelyOutside`).
    static func isEntirelyOutside(_ ring: [VectorTilePoint], extent: Int32) -> Bool {
        ring.allSatisfy { $0.x < 0 } || ring.allSatisfy { $0.x > extent } || ring.allSatisfy { $0.y < 0 } || ring.allSatisfy { $0.y > extent }
    }

    /// Whether the edge runs along the tile's buffer, outside it (a clipped
    /// polygon's cut, which gets no wall: MapLibre's `isBoundaryEdge`).
    static func isBoundaryEdge(_ p1: VectorTilePoint, _ p2: VectorTilePoint, extent: Int32) -> Bool {
        (p1.x == p2.x && (p1.x < 0 || p1.x > extent)) || (p1.y == p2.y && (p1.y < 0 || p1.y > extent))
    }

    /// Scan-fills the planar face `rings` (even–odd), cut at the near plane,
    /// writing each pixel whose centre it covers and where it is nearest:
    /// coloured from `bottom` to `top` by the height fraction, perspective-correct.
    private mutating func fill(_ rings: [[FacePoint]], bottom: SIMD3<Double>, top: SIMD3<Double>, pattern: SpritePattern?,
                               layer: String, budget: GeneratedGeometryBudget) throws {
        // Project, cutting each ring at the near plane (w is affine in 3D).
        let near = projection.nearDepth
        var screen: [[Vertex]] = []
        for ring in rings {
            let projected = ring.map { p -> (vertex: Vertex, p: FacePoint) in
                let (q, w, depth) = projection.project(Point(p.x, p.y), elevation: p.z)
                return (Vertex(x: q.x, y: q.y, w: w, window: projection.windowDepth(w: w, depth: depth), t: p.t, u: p.u, v: p.v), p)
            }
            var out: [Vertex] = []
            guard var previous = projected.last else { continue }
            for current in projected {
                if (current.vertex.w >= near) != (previous.vertex.w >= near) {
                    let s = (near - previous.vertex.w) / (current.vertex.w - previous.vertex.w)
                    func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * s }
                    let (c, d) = (previous.p, current.p)
                    let p = FacePoint(x: mix(c.x, d.x), y: mix(c.y, d.y), z: mix(c.z, d.z), t: mix(c.t, d.t), u: mix(c.u, d.u), v: mix(c.v, d.v))
                    let (q, w, depth) = projection.project(Point(p.x, p.y), elevation: p.z)
                    out.append(Vertex(x: q.x, y: q.y, w: w, window: projection.windowDepth(w: w, depth: depth), t: p.t, u: p.u, v: p.v))
                }
                if current.vertex.w >= near { out.append(current.vertex) }
                previous = current
            }
            guard out.count >= 3, out.allSatisfy({ $0.x.isFinite && $0.y.isFinite && abs($0.x) < 1e9 && abs($0.y) < 1e9 }) else { continue }
            // Snapped to 1/256 pixel, as GL rasterisers hold vertex positions (8 bits of sub-pixel precision).
            screen.append(out.map { Vertex(x: ($0.x * 256).rounded() / 256, y: ($0.y * 256).rounded() / 256, w: $0.w, window: $0.window,
                                           t: $0.t, u: $0.u, v: $0.v) })
        }
        guard let outer = screen.first else { return }
        // The plane's 1/w and t/w as affine functions of the image point, from
        // the widest triangle of the first ring's points.
        let a = outer[0]
        var b = outer[1], best = 0.0
        for p in outer.dropFirst() {
            let d = (p.x - a.x) * (p.x - a.x) + (p.y - a.y) * (p.y - a.y)
            if d > best { (best, b) = (d, p) }
        }
        var c = outer[2], area = 0.0
        for p in outer {
            let cross = abs((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x))
            if cross > area { (area, c) = (cross, p) }
        }
        // Seen edge on (under a hundredth of a pixel across): nothing to draw.
        guard area > 0.01 * best.squareRoot(), area > 1e-9 else { return }
        func affine(_ fa: Double, _ fb: Double, _ fc: Double) -> (Double, Double, Double) {
            let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)
            let gx = ((fb - fa) * (c.y - a.y) - (fc - fa) * (b.y - a.y)) / det
            let gy = ((fc - fa) * (b.x - a.x) - (fb - fa) * (c.x - a.x)) / det
            return (gx, gy, fa - gx * a.x - gy * a.y)
        }
        let inverse = affine(1 / a.w, 1 / b.w, 1 / c.w)
        let fraction = affine(a.t / a.w, b.t / b.w, c.t / c.w)
        let window = affine(a.window, b.window, c.window)
        // A pattern's position, relative to the first point's so the affine stays precise far from the world's origin.
        let patternU = affine(0, (b.u - a.u) / b.w, (c.u - a.u) / c.w), patternV = affine(0, (b.v - a.v) / b.w, (c.v - a.v) / c.w)
        // The rows whose centres the face spans, within the image.
        let ys = screen.joined().map(\.y)
        let firstRow = max(0, Int(max(-1, (ys.min()! - 0.5).rounded(.up))))
        let lastRow = min(height - 1, Int(min(Double(height), (ys.max()! - 0.5).rounded(.up) - 1)))
        guard firstRow <= lastRow else { return }
        // Charged before the work: per row, the edges crossed and the face's columns.
        let xs = screen.joined().map(\.x)
        let columns = max(0, min(Double(width), xs.max()!.rounded(.up)) - max(0, xs.min()!.rounded(.down)))
        let edges = screen.reduce(0) { $0 + $1.count }
        try budget.charge((lastRow - firstRow + 1) * (edges + 1 + Int(columns)), layer: layer, work: Self.work)
        // The buffers are made for the first face charged: a layer refused at once never holds them.
        if pixels.isEmpty && writesColor { pixels = [UInt8](repeating: 0, count: width * height * 4) }
        if nearest.isEmpty { nearest = [UInt16](repeating: Self.farthest, count: width * height) }
        // GL's window depth, in 16 bits.
        let depthScale = Double(Self.farthest)
        let shift = opacity
        let bottomColor = bottom * shift, topColor = top * shift
        let alpha = UInt8((255 * shift).rounded())
        let opacity = Float(shift)
        var crossings: [Double] = []
        var filled = 0
        for row in firstRow...lastRow {
            let y = Double(row) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for ring in screen {
                var previous = ring[ring.count - 1]
                for current in ring {
                    if (previous.y <= y) != (current.y <= y) {
                        crossings.append(previous.x + (y - previous.y) / (current.y - previous.y) * (current.x - previous.x))
                    }
                    previous = current
                }
            }
            crossings.sort()
            var i = 0
            while i + 1 < crossings.count {
                // Pixels whose centre x + 0.5 lies in [left, right).
                let from = max(0, Int(max(-1, (crossings[i] - 0.5).rounded(.up))))
                let to = min(width, Int(min(Double(width) + 1, (crossings[i + 1] - 0.5).rounded(.up))))
                i += 2
                guard from < to else { continue }
                filled += to - from
                for column in from..<to {
                    let x = Double(column) + 0.5
                    let inverseDepth = inverse.0 * x + inverse.1 * y + inverse.2
                    let pixel = row * width + column
                    let windowDepth = depthScale * (window.0 * x + window.1 * y + window.2)
                    guard inverseDepth > 0, windowDepth >= 0, windowDepth <= depthScale else { continue }
                    // LEQUAL: a later face at the same depth wins.
                    let depth = UInt16(windowDepth.rounded())
                    guard depth <= nearest[pixel] else { continue }
                    nearest[pixel] = depth
                    guard writesColor else { continue }
                    let t = min(max((fraction.0 * x + fraction.1 * y + fraction.2) / inverseDepth, 0), 1)
                    let offset = pixel * 4
                    if let pattern {
                        // The pattern's premultiplied colour lit by the interpolated lighting, at the layer's opacity.
                        let u = a.u + (patternU.0 * x + patternU.1 * y + patternU.2) / inverseDepth
                        let v = a.v + (patternV.0 * x + patternV.1 * y + patternV.2) / inverseDepth
                        let lit = SIMD4<Float>(SIMD3<Float>(bottom + (top - bottom) * t), 1)
                        let color = pattern.color(atWorldPoints: u, v) * lit * opacity
                        for channel in 0..<4 { pixels[offset + channel] = UInt8((min(max(color[channel], 0), 1) * 255).rounded()) }
                        continue
                    }
                    let color = bottomColor + (topColor - bottomColor) * t
                    pixels[offset] = UInt8((color.x * 255).rounded())
                    pixels[offset + 1] = UInt8((color.y * 255).rounded())
                    pixels[offset + 2] = UInt8((color.z * 255).rounded())
                    pixels[offset + 3] = alpha
                }
            }
        }
        if filled > 0 && writesColor { drewAny = true }
    }
}
