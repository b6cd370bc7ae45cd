import Foundation
import Raster

/// Draws a `heatmap` layer as MapLibre's two heatmap passes do.
///
/// First every vertex of every feature (as the circle layer takes them: one
/// tile per vertex, the one whose extent holds it) adds a gaussian kernel,
/// `weight · intensity · e^(−½(3d/r)²) / √(2π)` at distance `d` within radius
/// `r`, to a density buffer a quarter of the canvas on each side (MapLibre's
/// offscreen half-float texture, summed by additive blending). The kernel is
/// cut where it falls under 1/4080, on the square MapLibre's quad covers.
/// Then each canvas pixel samples that buffer bilinearly, looks the density
/// up in a 256-entry ramp of `heatmap-color` over `heatmap-density` (also
/// sampled linearly, clamped to 0…1) and multiplies by `heatmap-opacity`.
/// Under pitch the kernel lies on the map: each texel is taken back to the
/// map plane and its distance measured there.
struct HeatmapLayerDrawer {
    /// A group's paint as the style evaluates it per feature.
    struct Paint: Hashable, Sendable {
        /// `heatmap-weight`.
        var weight: Double
        /// `heatmap-radius` in points.
        var radius: Double
    }

    /// The canvas is divided by this on each side for the density buffer, as MapLibre does.
    static let downscale = 4
    /// MapLibre's least density drawn (one step of an 8-bit channel over 16).
    static let zero = 1.0 / 255 / 16
    /// 1/√(2π), the gaussian's coefficient.
    static let gaussCoefficient = 0.3989422804014327

    /// Output pixels per point.
    let scale: Double
    /// The canvas size in pixels.
    let width: Int
    let height: Int
    /// The density buffer's size in texels.
    let textureWidth: Int
    let textureHeight: Int
    /// `heatmap-intensity`.
    let intensity: Double
    /// The summed density, row by row.
    private(set) var density: [Float]
    /// Texels shaded and not yet charged to the budget.
    private var uncharged = 0
    /// Whether any kernel reached the canvas.
    private(set) var isEmpty = true

    init(scale: Double, width: Int, height: Int, intensity: Double) {
        self.scale = scale
        self.width = width
        self.height = height
        textureWidth = max(1, width / Self.downscale)
        textureHeight = max(1, height / Self.downscale)
        self.intensity = intensity.isFinite ? max(0, intensity) : 0
        density = [Float](repeating: 0, count: textureWidth * textureHeight)
    }

    /// The paint of `feature` in `style` at `zoom`; nil when it adds nothing.
    static func paint<Feature: StyleFeature>(of feature: Feature, style: HeatmapLayerStyle, atZoom zoom: Double) -> Paint? {
        let weight = style.weight.value(atZoom: zoom, for: feature)
        let radius = style.radius.value(atZoom: zoom, for: feature)
        guard weight.isFinite, weight > 0, radius.isFinite, radius > 0 else { return nil }
        return Paint(weight: weight, radius: radius)
    }

    /// Adds the kernels of prepared groups of `tileLayer`, placed at `place`,
    /// charging their texels to `budget` as `layer`'s before the work (each
    /// kernel is clipped to the buffer, a sixteenth of the canvas, so a charge
    /// overshoots by at most that). Throws the budget's `VectorTileError`.
    mutating func add(_ prepared: [PreparedLayerGroup], from tileLayer: VectorTileLayer, at place: TileCover.Placed,
                      layer: String, budget: GeneratedGeometryBudget) throws {
        guard tileLayer.extent > 0 else { return }
        let unit = place.tileSide / Double(tileLayer.extent)
        let extent = Int32(clamping: tileLayer.extent)
        for group in prepared {
            guard case .heatmap(let paint) = group.paint else { continue }
            let peak = paint.weight * intensity * Self.gaussCoefficient
            // MapLibre's quad half-side, in radii: where the kernel falls to `zero`.
            let reach = (-2 * log(Self.zero / peak)).squareRoot() / 3
            let radius = paint.radius * scale
            guard reach.isFinite, reach > 0, radius.isFinite else { continue }
            for part in group.parts {
                let points = tileLayer.points(ofPart: Int(part & ~PreparedLayerGroup.closedFlag))
                let closing = part & PreparedLayerGroup.closedFlag != 0 ? points.first : nil
                for point in [points, closing.map { [$0][...] } ?? []].joined()
                    where point.x >= 0 && point.x < extent && point.y >= 0 && point.y < extent {
                    let (u, v) = (Double(point.x) * unit, Double(point.y) * unit)
                    if let pitch = place.pitch {
                        let plane = place.plane(u, v)
                        guard plane.y <= pitch.nearY else { continue }
                        try addKernel(at: plane, radius: radius, reach: reach, peak: peak, onMap: pitch, layer: layer, budget: budget)
                    } else {
                        try addKernel(at: place.pixel(u, v), radius: radius, reach: reach, peak: peak, onMap: nil, layer: layer, budget: budget)
                    }
                }
            }
        }
    }

    /// Adds one kernel centred at `centre` (canvas pixels, or map-plane
    /// pixels with `onMap`), its square reaching `reach` radii.
    private mutating func addKernel(at centre: Point, radius: Double, reach: Double, peak: Double, onMap: PitchProjection?,
                                    layer: String, budget: GeneratedGeometryBudget) throws {
        let half = reach * radius
        // The square's extent on the canvas.
        var (minX, maxX, minY, maxY) = (centre.x - half, centre.x + half, centre.y - half, centre.y + half)
        if let onMap {
            let corners = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map {
                onMap.project(Point(centre.x + $0.0 * half, min(centre.y + $0.1 * half, onMap.nearY)))
            }
            let xs = corners.map(\.x), ys = corners.map(\.y)
            guard (xs + ys).allSatisfy(\.isFinite) else { return }
            (minX, maxX, minY, maxY) = (xs.min()!, xs.max()!, max(ys.min()!, onMap.farRow), ys.max()!)
        }
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return }
        // Texel i's centre lies at (i + ½)·width/textureWidth on the canvas.
        let stepX = Double(width) / Double(textureWidth), stepY = Double(height) / Double(textureHeight)
        func texels(_ low: Double, _ high: Double, _ step: Double, _ count: Int) -> Range<Int> {
            let first = max(0, min(Double(count), (low / step - 0.5).rounded(.up)))
            let last = max(first, min(Double(count), (high / step - 0.5).rounded(.down) + 1))
            return Int(first)..<Int(last)
        }
        let columns = texels(minX, maxX, stepX, textureWidth), rows = texels(minY, maxY, stepY, textureHeight)
        guard !columns.isEmpty, !rows.isEmpty else { return }
        uncharged += columns.count * rows.count
        if uncharged >= 1 << 16 {
            try budget.charge(uncharged, layer: layer, work: Self.work)
            uncharged = 0
        }
        isEmpty = false
        let falloff = -4.5 / (radius * radius)
        for row in rows {
            let y = (Double(row) + 0.5) * stepY
            for column in columns {
                var p = Point((Double(column) + 0.5) * stepX, y)
                if let onMap { p = onMap.unproject(p) }
                let dx: Double = p.x - centre.x, dy: Double = p.y - centre.y
                guard abs(dx) <= half, abs(dy) <= half else { continue }
                let squared: Double = dx * dx + dy * dy
                density[row * textureWidth + column] += Float(peak * exp(falloff * squared))
            }
        }
    }

    /// The ramp of `color` over `heatmap-density` (``StyleColorRamp``).
    static func ramp(_ color: StyleProperty<StyleColor>, atZoom zoom: Double) -> StyleColorRamp {
        StyleColorRamp(color, atZoom: zoom, inputKey: StyleExpression.heatmapDensityKey)
    }

    /// The coloured layer: premultiplied RGBA8 of the whole canvas, the density
    /// looked up in `ramp` (``ramp(_:atZoom:)``) at `opacity`; nil when nothing shows.
    func pixels(ramp: StyleColorRamp, opacity: Double) -> [UInt8]? {
        guard !isEmpty, opacity > 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let factor = Float(min(opacity, 1))
        let stepX = Double(textureWidth) / Double(width), stepY = Double(textureHeight) / Double(height)
        /// A coordinate in texels split into the lower texel, the upper one and the weight of the upper.
        func split(_ position: Double, _ count: Int) -> (Int, Int, Float) {
            let t = position - 0.5
            let low = t.rounded(.down)
            let lowIndex = Int(max(0, min(Double(count - 1), low))), highIndex = Int(max(0, min(Double(count - 1), low + 1)))
            return (lowIndex, highIndex, Float(t - low))
        }
        let columns = (0..<width).map { split((Double($0) + 0.5) * stepX, textureWidth) }
        for row in 0..<height {
            let (top, bottom, fy) = split((Double(row) + 0.5) * stepY, textureHeight)
            let upper = top * textureWidth, lower = bottom * textureWidth
            for column in 0..<width {
                let (left, right, fx) = columns[column]
                let a = density[upper + left] + (density[upper + right] - density[upper + left]) * fx
                let b = density[lower + left] + (density[lower + right] - density[lower + left]) * fx
                let t = a + (b - a) * fy
                guard t > 0 else { continue }
                let color = ramp.sample(t) * factor
                let offset = (row * width + column) * 4
                for channel in 0..<4 { pixels[offset + channel] = UInt8((min(max(color[channel], 0), 1) * 255).rounded()) }
            }
        }
        return pixels
    }

    /// What heatmaps cost, as the budget's error names it.
    static let work = "its heatmap kernels' texels"
}
