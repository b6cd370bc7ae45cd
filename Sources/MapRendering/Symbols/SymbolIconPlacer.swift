import Foundation
import Raster

/// Places and draws the icons of a snapshot's `symbol` layers (`icon-image`
/// from the style's ``Sprites``) as MapLibre does for point placement: each
/// icon's quad is the image's display size scaled by `icon-size` about its
/// `icon-anchor`, moved by `icon-offset` (times the size), turned by
/// `icon-rotate` about the point (`getIconQuads`); its collision box is that
/// quad's bounds grown by `icon-padding`, tested against the icons placed
/// before it in a grid reaching 100 pixels past the image (MapLibre's
/// `CollisionIndex`). Layers are placed top-most first and drawn in style order.
///
/// Pixels are sampled as MapLibre's `symbol_icon` and `symbol_sdf` shaders
/// sample the atlas: nearest when the image is drawn texel for pixel, linear
/// when it is scaled, turned, of another pixel ratio or an SDF; an SDF image
/// is recoloured by `icon-color` over an `icon-halo-*` pass.
struct SymbolIconPlacer {
    let sprites: Sprites
    /// Output pixels per CSS pixel.
    let scale: Double
    let zoom: Double
    let width: Int
    let height: Int
    let limits: VectorMapLimits

    private var index: LabelCollisionIndex
    private(set) var icons: [PlacedIcon] = []
    /// Image names asked for and missing from the sprites, in order of first asking.
    private(set) var missing: [String] = []
    private var missingSet: Set<String> = []
    /// Features examined so far (bounded by `labelFeaturesPerSnapshot`).
    private var examined = 0
    /// Output pixels the placed icons cover so far (bounded: see ``maximumCoverage``).
    private var coverage = 0.0

    /// How far past the image an icon is still placed (so the half of it
    /// inside is drawn), in CSS pixels: MapLibre's collision grid padding.
    static let viewportPadding = 100.0
    /// The most output pixels the icons of one snapshot may cover (2²⁵, 128
    /// images of 512²): each is sampled, so beyond it icons are left out.
    static let maximumCoverage = Double(1 << 25)

    init(sprites: Sprites, scale: Double, zoom: Double, width: Int, height: Int, limits: VectorMapLimits) {
        self.sprites = sprites
        self.scale = scale
        self.zoom = zoom
        self.width = width
        self.height = height
        self.limits = limits
        let pad = Int(Self.viewportPadding * scale)
        index = LabelCollisionIndex(width: width + 2 * pad, height: height + 2 * pad)
    }

    /// One icon placed: where and how it is drawn.
    struct PlacedIcon {
        var layerID: String
        var image: SpriteImage
        /// The point, in output pixels (with `icon-translate`).
        var anchor: Point
        /// The quad's top-left and bottom-right corners about the point
        /// before rotation, in output pixels.
        var topLeft: Point, bottomRight: Point
        /// `icon-rotate` in radians, clockwise.
        var angle: Double
        var size: Double
        var linear: Bool
        var opacity: Double
        var color: SIMD4<Float>, halo: SIMD4<Float>?
        var haloWidth: Double, haloBlur: Double
        /// Where it is drawn among its layer's icons when they may overlap:
        /// by tile, then down the tile, then later features first (MapLibre's `sortFeatures`).
        var drawOrder: (tile: Int, y: Int, feature: Int) = (0, 0, 0)
    }

    /// Places the icons of `layer` (a symbol layer evaluated at the zoom) from `tiles`.
    mutating func place(_ layer: StyleLayer, from tiles: [(tile: VectorTile, place: TileCover.Placed)],
                        checkCancellation: () throws -> Void = {}) throws {
        guard case .symbol(let style) = layer.kind, let sourceLayer = layer.sourceLayer else { return }
        let icon = style.icon
        if let constant = icon.image.constantValue, constant.isEmpty { return }
        // Point placement only: icons along lines are left to the line placement.
        guard style.placement.value(atZoom: zoom) == .point else { return }
        // MapLibre draws overlapping point symbols top to bottom, so lower ones cover higher ones.
        let sortByY = icon.allowOverlap.value(atZoom: zoom, for: NoStyleFeature()) || icon.ignorePlacement.value(atZoom: zoom, for: NoStyleFeature())
            || style.allowOverlap.value(atZoom: zoom, for: NoStyleFeature()) || style.ignorePlacement.value(atZoom: zoom, for: NoStyleFeature())
        let first = icons.count
        defer {
            if sortByY {
                icons[first...].sort { a, b in
                    (a.drawOrder.tile, a.drawOrder.y, -a.drawOrder.feature) < (b.drawOrder.tile, b.drawOrder.y, -b.drawOrder.feature)
                }
            }
        }
        for (tileIndex, (tile, place)) in tiles.enumerated() {
            guard let tileLayer = tile.layer(named: sourceLayer), tileLayer.extent > 0 else { continue }
            let extent = Double(tileLayer.extent)
            let unit = place.tileSide / extent
            for featureIndex in 0..<tileLayer.featureCount {
                examined += 1
                guard examined <= limits.labelFeaturesPerSnapshot, icons.count < limits.labelsPerSnapshot else { return }
                try checkCancellation()
                let feature = tileLayer.feature(at: featureIndex)
                guard layer.matches(feature, atZoom: zoom) else { continue }
                let name = icon.image.value(atZoom: zoom, for: feature)
                guard !name.isEmpty else { continue }
                guard let image = sprites.images[name] else {
                    if missingSet.insert(name).inserted { missing.append(name) }
                    continue
                }
                var evaluated: PlacedIcon?
                var box = LabelBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
                VectorLabelPlacer.forEachAnchor(of: feature, in: tileLayer) { anchor in
                    // A point in this tile's buffer is placed from the tile that holds it.
                    guard anchor.x >= 0, anchor.x < extent, anchor.y >= 0, anchor.y < extent else { return true }
                    if evaluated == nil {
                        (evaluated, box) = Self.layout(image, icon, layer.id, feature, zoom: zoom, scale: scale)
                    }
                    guard var placed = evaluated else { return false }
                    let p = place.pixel(anchor.x * unit, anchor.y * unit)
                    placed.anchor = Point(p.x + placed.anchor.x, p.y + placed.anchor.y)
                    placed.drawOrder = (tileIndex, Int(anchor.y.rounded()), featureIndex)
                    let pad = Self.viewportPadding * scale
                    // The box in the padded grid's coordinates (the point without `icon-translate`).
                    let placedBox = LabelBox(minX: p.x + box.minX + pad, minY: p.y + box.minY + pad, maxX: p.x + box.maxX + pad, maxY: p.y + box.maxY + pad)
                    let grid = LabelBox(minX: 0, minY: 0, maxX: Double(width) + 2 * pad, maxY: Double(height) + 2 * pad)
                    guard placedBox.intersects(grid) else { return true }
                    let allowOverlap = icon.allowOverlap.value(atZoom: zoom, for: feature)
                    if !allowOverlap, index.collides([placedBox]) { return true }
                    let area = (placedBox.maxX - placedBox.minX) * (placedBox.maxY - placedBox.minY)
                    guard coverage + area <= Self.maximumCoverage else { return false }
                    coverage += area
                    if !icon.ignorePlacement.value(atZoom: zoom, for: feature) { index.insert([placedBox]) }
                    icons.append(placed)
                    return icons.count < limits.labelsPerSnapshot
                }
            }
        }
    }

    /// The icon of `image` for `feature` about a point at (0, 0) (its
    /// `anchor` holding `icon-translate`), and its collision box about the point.
    static func layout(_ image: SpriteImage, _ icon: SymbolIconStyle, _ layerID: String, _ feature: VectorTileFeature,
                       zoom: Double, scale: Double) -> (PlacedIcon?, LabelBox) {
        let empty = LabelBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        let size = min(icon.size.value(atZoom: zoom, for: feature), 1000)
        let opacity = icon.opacity.value(atZoom: zoom, for: feature)
        guard size > 0, opacity > 0 else { return (nil, empty) }
        let alignment = icon.anchor.value(atZoom: zoom, for: feature).alignment
        let offset = icon.offset.value(atZoom: zoom, for: feature)
        let translate = icon.translate.value(atZoom: zoom, for: feature)
        let rotate = icon.rotate.value(atZoom: zoom, for: feature)
        let angle = (rotate.isFinite ? rotate.truncatingRemainder(dividingBy: 360) : 0) * .pi / 180
        // `shapeIcon`: the image's display box about the point, offset; then scaled by the size, in output pixels.
        let k = size * scale
        let left = (offset[0] - image.displayWidth * alignment.x) * k, top = (offset[1] - image.displayHeight * alignment.y) * k
        let right = left + image.displayWidth * k, bottom = top + image.displayHeight * k
        // The collision box: the turned quad's bounds, grown by the padding.
        let c = cos(angle), s = sin(angle)
        let corners = [Point(left, top), Point(right, top), Point(left, bottom), Point(right, bottom)].map {
            Point($0.x * c - $0.y * s, $0.x * s + $0.y * c)
        }
        let padding = icon.padding.value(atZoom: zoom, for: feature) * scale
        let box = LabelBox(minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!,
                           maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!).padded(padding)
        func premultiplied(_ color: StyleColor) -> SIMD4<Float> {
            SIMD4(Float(color.red * color.alpha), Float(color.green * color.alpha), Float(color.blue * color.alpha), Float(color.alpha))
        }
        let haloColor = icon.haloColor.value(atZoom: zoom, for: feature)
        let haloWidth = icon.haloWidth.value(atZoom: zoom, for: feature)
        // MapLibre turns on linear sampling for an SDF, a scaled or turned icon, or one of another pixel ratio.
        let linear = image.sdf || size != 1 || rotate != 0 || image.pixelRatio != scale
        let placed = PlacedIcon(layerID: layerID, image: image, anchor: Point(translate[0] * scale, translate[1] * scale),
                                topLeft: Point(left, top), bottomRight: Point(right, bottom), angle: angle, size: size,
                                linear: linear, opacity: opacity,
                                color: premultiplied(icon.color.value(atZoom: zoom, for: feature)),
                                halo: haloColor.alpha > 0 && haloWidth > 0 ? premultiplied(haloColor) : nil,
                                haloWidth: haloWidth, haloBlur: icon.haloBlur.value(atZoom: zoom, for: feature))
        return (placed, box)
    }

    /// Paints the placed icons, layer by layer in style order (they were placed top-most first).
    func draw(on canvas: inout Canvas) {
        var runs: [ArraySlice<PlacedIcon>] = []
        var start = 0
        for i in icons.indices where i == icons.count - 1 || icons[i + 1].layerID != icons[i].layerID {
            runs.append(icons[start...i])
            start = i + 1
        }
        for icon in runs.reversed().joined() {
            if let halo = icon.halo { Self.draw(icon, on: &canvas, halo: halo, scale: scale) }
            Self.draw(icon, on: &canvas, halo: nil, scale: scale)
        }
    }

    /// The pixels of `icon`'s quad (one texel of border around the image,
    /// as MapLibre's quads have) sampled and blended: the SDF halo pass when `halo` is given.
    private static func draw(_ icon: PlacedIcon, on canvas: inout Canvas, halo: SIMD4<Float>?, scale: Double) {
        let image = icon.image
        let c = cos(icon.angle), s = sin(icon.angle)
        // Output pixels per image pixel along each axis.
        let texel = (icon.bottomRight.x - icon.topLeft.x) / Double(image.width)
        let border = texel
        let quad = [Point(icon.topLeft.x - border, icon.topLeft.y - border), Point(icon.bottomRight.x + border, icon.topLeft.y - border),
                    Point(icon.topLeft.x - border, icon.bottomRight.y + border), Point(icon.bottomRight.x + border, icon.bottomRight.y + border)]
            .map { Point(icon.anchor.x + $0.x * c - $0.y * s, icon.anchor.y + $0.x * s + $0.y * c) }
        let x0 = max(0, Int(quad.map(\.x).min()!.rounded(.down))), x1 = min(canvas.width - 1, Int(quad.map(\.x).max()!.rounded(.up)))
        let y0 = max(canvas.rows.lowerBound, Int(quad.map(\.y).min()!.rounded(.down)))
        let y1 = min(canvas.rows.upperBound - 1, Int(quad.map(\.y).max()!.rounded(.up)))
        guard x0 <= x1, y0 <= y1, texel > 0 else { return }
        // `symbol_sdf`'s edge: EDGE_GAMMA / fontScale, the fill's buffer 0.75, the halo's from its width and blur.
        let edgeGamma = 0.105 / scale
        var gamma = edgeGamma / icon.size, buff = 0.75
        if halo != nil {
            gamma = (icon.haloBlur * 1.19 / 8 + edgeGamma) / icon.size
            buff = (6 - icon.haloWidth / icon.size) / 8
        }
        let tint = halo ?? icon.color
        let opacity = Float(icon.opacity)
        for y in y0...y1 {
            for x in x0...x1 {
                // The pixel's centre turned back into the quad, then in image pixels.
                let dx = Double(x) + 0.5 - icon.anchor.x, dy = Double(y) + 0.5 - icon.anchor.y
                let qx = dx * c + dy * s, qy = -dx * s + dy * c
                let u = (qx - icon.topLeft.x) / texel, v = (qy - icon.topLeft.y) / texel
                guard u >= -1, v >= -1, u <= Double(image.width) + 1, v <= Double(image.height) + 1 else { continue }
                let sample = icon.linear ? image.bilinear(u, v) : image.nearest(u, v)
                if image.sdf {
                    let alpha = smoothstep(buff - gamma, buff + gamma, Double(sample.w))
                    canvas.blend(premultiplied: tint * Float(alpha) * opacity, x: x, y: y)
                } else {
                    canvas.blend(premultiplied: sample * opacity, x: x, y: y)
                }
            }
        }
    }

    /// GLSL's `smoothstep`.
    private static func smoothstep(_ edge0: Double, _ edge1: Double, _ x: Double) -> Double {
        guard edge1 > edge0 else { return x < edge0 ? 0 : 1 }
        let t = min(1, max(0, (x - edge0) / (edge1 - edge0)))
        return t * t * (3 - 2 * t)
    }
}
