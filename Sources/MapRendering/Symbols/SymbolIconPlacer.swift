import Foundation
import Raster

/// Places and draws the icons of a snapshot's `symbol` layers (`icon-image`
/// from the style's ``Sprites``) as MapLibre does for point placement: each
/// icon's quad is the image's display size scaled by `icon-size` about its
/// `icon-anchor`, moved by `icon-offset` (times the size), turned by
/// `icon-rotate` about the point (`getIconQuads`); its collision box is that
/// quad's bounds grown by `icon-padding`, in a grid reaching 100 pixels past
/// the image (MapLibre's `CollisionIndex`). ``VectorLabelPlacer`` places each
/// icon with its symbol's text, in one collision index for both (MapLibre's
/// `placeLayerBucketPart`). Layers are placed top-most first and drawn in style order.
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
    /// The style's glyphs, which shape the text an `icon-text-fit` icon is fitted to.
    let glyphs: GlyphCache?

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

    init(sprites: Sprites, scale: Double, zoom: Double, width: Int, height: Int, limits: VectorMapLimits, glyphs: GlyphCache? = nil) {
        self.glyphs = glyphs
        self.sprites = sprites
        self.scale = scale
        self.zoom = zoom
        self.width = width
        self.height = height
        self.limits = limits
    }

    /// One icon placed: where and how it is drawn.
    struct PlacedIcon {
        var layerID: String
        var image: SpriteImage
        /// The point, in output pixels (with `icon-translate`).
        var anchor: Point
        /// The quads drawn: each one's top-left and bottom-right corners about
        /// the point before rotation, in output pixels, and its part of the image.
        var quads: [(topLeft: Point, bottomRight: Point, tex: IconQuads.Quad)]
        /// `icon-rotate` in radians, clockwise.
        var angle: Double
        var size: Double
        var linear: Bool
        var opacity: Double
        var color: SIMD4<Float>, halo: SIMD4<Float>?
        var haloWidth: Double, haloBlur: Double
        /// The pitched camera when the icon lies on the map (`icon-pitch-alignment`):
        /// ``anchor`` is then a point of the map plane and the quads lie on the plane.
        var onMap: PitchProjection?
        /// Where it is drawn among its layer's icons when they may overlap:
        /// by tile, then down the tile, then later features first (MapLibre's `sortFeatures`).
        var drawOrder: (tile: Int, y: Int, feature: Int) = (0, 0, 0)
    }

    /// Which symbol an icon belongs to: its tile's place in the layer's tiles, its
    /// feature's in the tile layer, and its anchor's among the feature's, so the
    /// text of the same symbol finds it.
    struct SymbolKey: Hashable {
        var tile: Int
        var feature: Int
        var anchor: Int

        /// Whether the symbol comes after `other` in placement order.
        func isAfter(_ other: SymbolKey) -> Bool { (tile, feature, anchor) > (other.tile, other.feature, other.anchor) }
    }

    /// An icon laid out at its point, not yet placed.
    struct Candidate {
        var key: SymbolKey
        /// Its point in output pixels (without `icon-translate`).
        var point: Point
        var icon: PlacedIcon
        /// Its collision box in the grid's coordinates (the image's pixels moved by the viewport padding).
        var box: LabelBox
        var allowOverlap: Bool
        var ignorePlacement: Bool
        /// `icon-optional`: its text may be placed without it.
        var optional: Bool
        /// Whether it is fitted to its text (`icon-text-fit`), so moves with a variable anchor.
        var fitsText: Bool
        /// Fitted to its text's vertical version (`text-writing-mode`), the icon and box
        /// drawn when the text is placed vertically: fitted unturned, then turned with the text.
        var vertical: (icon: PlacedIcon, box: LabelBox)?

        /// The candidate as placed with its text written vertically.
        var forVerticalText: Candidate {
            guard let vertical else { return self }
            var turned = self
            (turned.icon, turned.box) = vertical
            turned.vertical = nil
            return turned
        }
    }

    /// The icons of `layer` (a symbol layer evaluated at the zoom) from `tiles`, laid
    /// out in placement order and not yet placed: those whose box reaches the grid,
    /// at most ``maximumCandidates(_:)`` (then the last one's symbol is where they were cut).
    mutating func candidates(_ layer: StyleLayer, from tiles: [(tile: VectorTile, place: TileCover.Placed)],
                             checkCancellation: () throws -> Void = {}) throws -> [Candidate] {
        guard case .symbol(let style) = layer.kind, let sourceLayer = layer.sourceLayer else { return [] }
        let icon = style.icon
        if let constant = icon.image.constantValue, constant.isEmpty { return [] }
        let placement = style.placement.value(atZoom: zoom)
        var found: [Candidate] = []
        for (tileIndex, (tile, place)) in tiles.enumerated() {
            guard let tileLayer = tile.layer(named: sourceLayer), tileLayer.extent > 0 else { continue }
            let extent = Double(tileLayer.extent)
            let unit = place.tileSide / extent
            // Along lines with text, the lines MapLibre's `mergeLines` joins (as the text finds them).
            let merged = placement == .line && glyphs != nil ? try mergedLines(layer, style, tileLayer, place, checkCancellation) : nil
            for featureIndex in 0..<tileLayer.featureCount {
                examined += 1
                guard examined <= limits.labelFeaturesPerSnapshot, found.count < Self.maximumCandidates(limits) else { return found }
                try checkCancellation()
                var feature = tileLayer.feature(at: featureIndex)
                feature.tile = place.tile   // where `within` tests
                guard layer.matches(feature, atZoom: zoom) else { continue }
                let name = icon.image.value(atZoom: zoom, for: SpriteAwareFeature(base: feature, images: sprites.images))
                guard !name.isEmpty else { continue }
                guard let image = sprites.images[name] else {
                    if missingSet.insert(name).inserted { missing.append(name) }
                    continue
                }
                if placement != .point {
                    let lines = merged.map { $0[featureIndex] ?? [] } ?? LineSymbolAnchors.lines(of: feature, in: tileLayer)
                    found += alongLines(style, layer.id, image, feature, featureIndex, lines, tileIndex, place, placement)
                    guard found.count < Self.maximumCandidates(limits) else { return found }
                    continue
                }
                var evaluated: PlacedIcon?
                var box = LabelBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
                var vertical: (icon: PlacedIcon?, box: LabelBox)?
                var anchorIndex = -1
                VectorLabelPlacer.forEachAnchor(of: feature, in: tileLayer) { anchor in
                    anchorIndex += 1
                    // A point in this tile's buffer is placed from the tile that holds it.
                    guard anchor.x >= 0, anchor.x < extent, anchor.y >= 0, anchor.y < extent else { return true }
                    if evaluated == nil {
                        (evaluated, box) = Self.layout(image, icon, layer.id, feature, zoom: zoom, scale: scale,
                                                       text: fittedText(style, feature))
                        if let text = fittedText(style, feature, vertical: true) {
                            vertical = Self.layout(image, icon, layer.id, feature, zoom: zoom, scale: scale, text: text, turn: .pi / 2)
                        }
                        // `icon-rotation-alignment: map` turns the icon with the map.
                        if style.alignment.iconRotation.value(atZoom: zoom, for: feature) == .map {
                            evaluated?.angle += place.mapAngle
                            vertical?.icon?.angle += place.mapAngle
                        }
                    }
                    guard var placed = evaluated else { return false }
                    let p = place.pixel(anchor.x * unit, anchor.y * unit)
                    let pad = Self.viewportPadding * scale
                    // At the point: `icon-translate` (held in the anchor) turns with the map unless anchored
                    // to the viewport; the box in the padded grid's coordinates (the point without it).
                    func atPoint(_ icon: PlacedIcon, _ box: LabelBox) -> (PlacedIcon, LabelBox) {
                        var icon = icon
                        let t = SymbolPlacementStyle.translation([icon.anchor.x, icon.anchor.y],
                                                                 anchor: style.order.iconTranslateAnchor.value(atZoom: zoom, for: feature),
                                                                 cos: place.cos, sin: place.sin)
                        icon.anchor = Point(p.x + t.x, p.y + t.y)
                        var box = box
                        if let pitch = place.pitch {
                            let rotation = style.alignment.iconRotation.value(atZoom: zoom, for: feature)
                            let alignment = style.alignment.iconPitch.value(atZoom: zoom, for: feature)
                            let onMap = alignment == .map || alignment == .auto && rotation.isMap(for: .point)
                            box = icon.pitch(pitch, at: p, onMap: onMap,
                                             mapAngle: rotation == .map ? (place.mapAngle, place.pixelAngle(anchor.x * unit, anchor.y * unit)) : nil,
                                             box: box)
                        }
                        // Down the view, in tile units turned with the map (MapLibre's `getSortedSymbolIndexes`).
                        icon.drawOrder = (tileIndex, Int((place.sin * anchor.x + place.cos * anchor.y).rounded()), featureIndex)
                        return (icon, LabelBox(minX: p.x + box.minX + pad, minY: p.y + box.minY + pad, maxX: p.x + box.maxX + pad, maxY: p.y + box.maxY + pad))
                    }
                    let placedBox: LabelBox
                    (placed, placedBox) = atPoint(placed, box)
                    let grid = LabelBox(minX: 0, minY: 0, maxX: Double(width) + 2 * pad, maxY: Double(height) + 2 * pad)
                    guard placedBox.intersects(grid) else { return true }
                    found.append(Candidate(key: SymbolKey(tile: tileIndex, feature: featureIndex, anchor: anchorIndex), point: p,
                                           icon: placed, box: placedBox,
                                           allowOverlap: icon.allowOverlap.value(atZoom: zoom, for: feature),
                                           ignorePlacement: icon.ignorePlacement.value(atZoom: zoom, for: feature),
                                           optional: icon.optional.value(atZoom: zoom, for: feature),
                                           fitsText: glyphs != nil && icon.textFit.value(atZoom: zoom, for: feature) != .none,
                                           vertical: vertical.flatMap { v in v.icon.map { atPoint($0, v.box) } }))
                    return found.count < Self.maximumCandidates(limits)
                }
            }
        }
        return found
    }

    /// `feature`'s icons along its lines in one tile, at the anchors MapLibre's
    /// `getAnchors` finds (the same its text finds: see ``LineSymbolAnchors``),
    /// each turned with its line where `icon-rotation-alignment` is the map
    /// (and kept upright with `icon-keep-upright`); the collision box turns
    /// with `icon-rotate` only, as MapLibre's does.
    private func alongLines(_ style: SymbolLayerStyle, _ layerID: String, _ image: SpriteImage, _ feature: VectorTileFeature, _ featureIndex: Int,
                            _ lines: [[Point]], _ tileIndex: Int, _ place: TileCover.Placed,
                            _ placement: StyleSymbolPlacement) -> [Candidate] {
        let icon = style.icon
        let textWidth = VectorLabelPlacer.lineShaping(style, for: feature, zoom: zoom, glyphs: glyphs, maxGlyphs: limits.labelGlyphsPerSnapshot).map { ($0.vertical ?? $0.shaped).right - ($0.vertical ?? $0.shaped).left }
        let options = LineSymbolAnchors.options(spacing: style.spacing.value(atZoom: zoom, for: feature), textWidth: textWidth,
                                                iconWidth: Self.lineIconWidth(image, icon, feature, zoom: zoom),
                                                textMaxSize: style.textSize.value(atZoom: zoom, for: feature),
                                                maxAngle: style.maxAngle.value(atZoom: zoom, for: feature), place: place, scale: scale, zoom: zoom)
        let anchors = LineSymbolAnchors.anchors(of: lines, center: placement == .lineCenter, options)
        guard !anchors.isEmpty else { return [] }
        let (evaluated, box) = Self.layout(image, icon, layerID, feature, zoom: zoom, scale: scale)
        guard let evaluated else { return [] }
        let alongLine = style.alignment.iconRotation.value(atZoom: zoom, for: feature).isMap(for: placement)
        let keepUpright = style.alignment.iconKeepUpright.value(atZoom: zoom, for: feature)
        let pad = Self.viewportPadding * scale
        let grid = LabelBox(minX: 0, minY: 0, maxX: Double(width) + 2 * pad, maxY: Double(height) + 2 * pad)
        var found: [Candidate] = []
        for (anchorIndex, one) in anchors.enumerated() where found.count < Self.maximumCandidates(limits) {
            let projected = LineSymbolAnchors.projected(one, on: place)
            var placed = evaluated
            // Pitched with the map (the rotation's alignment unless set), MapLibre samples linearly.
            let pitch = style.alignment.iconPitch.value(atZoom: zoom, for: feature)
            if pitch == .map || (pitch == .auto && alongLine) { placed.linear = true }
            if alongLine {
                guard let turn = projected.place([0], keepUpright: keepUpright)?.first else { continue }
                placed.angle += turn.angle
            }
            let p = projected.anchor
            // `icon-translate` (held in the anchor) turns with the map unless anchored to the viewport, as at points.
            let t = SymbolPlacementStyle.translation([placed.anchor.x, placed.anchor.y],
                                                     anchor: style.order.iconTranslateAnchor.value(atZoom: zoom, for: feature),
                                                     cos: place.cos, sin: place.sin)
            placed.anchor = Point(p.x + t.x, p.y + t.y)
            // Down the view, in tile units turned with the map (MapLibre's `getSortedSymbolIndexes`).
            placed.drawOrder = (tileIndex, Int((place.sin * one.anchor.x + place.cos * one.anchor.y).rounded()), featureIndex)
            let placedBox = LabelBox(minX: p.x + box.minX + pad, minY: p.y + box.minY + pad, maxX: p.x + box.maxX + pad, maxY: p.y + box.maxY + pad)
            guard placedBox.intersects(grid) else { continue }
            found.append(Candidate(key: SymbolKey(tile: tileIndex, feature: featureIndex, anchor: anchorIndex), point: p, icon: placed, box: placedBox,
                                   allowOverlap: icon.allowOverlap.value(atZoom: zoom, for: feature),
                                   ignorePlacement: icon.ignorePlacement.value(atZoom: zoom, for: feature),
                                   optional: icon.optional.value(atZoom: zoom, for: feature), fitsText: false))
        }
        return found
    }

    /// The lines of `layer`'s features in one tile joined where lines of one
    /// text meet (MapLibre's `mergeLines`), by feature index; a feature merged into another has none.
    private func mergedLines(_ layer: StyleLayer, _ style: SymbolLayerStyle, _ tileLayer: VectorTileLayer, _ place: TileCover.Placed,
                             _ checkCancellation: () throws -> Void) throws -> [Int: [[Point]]] {
        var features: [LineSymbolAnchors.TileFeature] = []
        for featureIndex in 0..<min(tileLayer.featureCount, limits.labelFeaturesPerSnapshot) {
            try checkCancellation()
            var feature = tileLayer.feature(at: featureIndex)
            feature.tile = place.tile
            guard feature.geometryType == .lineString || feature.geometryType == .polygon, layer.matches(feature, atZoom: zoom) else { continue }
            let text = VectorLabelPlacer.lineShaping(style, for: feature, zoom: zoom, glyphs: glyphs, maxGlyphs: limits.labelGlyphsPerSnapshot)?.text
            features.append((featureIndex, text, LineSymbolAnchors.lines(of: feature, in: tileLayer)))
        }
        return LineSymbolAnchors.merged(features)
    }

    /// The width of `image` as `icon` shapes it (CSS pixels, before `icon-size`): what a line symbol's anchors measure.
    static func lineIconWidth(_ image: SpriteImage, _ icon: SymbolIconStyle, _ feature: VectorTileFeature, zoom: Double) -> Double {
        let shaped = IconQuads(image, offset: icon.offset.value(atZoom: zoom, for: feature), anchor: icon.anchor.value(atZoom: zoom, for: feature))
        return shaped.right - shaped.left
    }

    /// The most icons of one layer laid out before placement: 16 times the labels
    /// a snapshot places (icons that collide are laid out too), at most 16 000, so a
    /// style of 100 000 points holds 16 000 icons, not all of them (a few megabytes);
    /// past it the layer's remaining icons are left out.
    static func maximumCandidates(_ limits: VectorMapLimits) -> Int {
        limits.labelsPerSnapshot.multipliedReportingOverflow(by: 16).overflow ? 16_000 : min(16_000, limits.labelsPerSnapshot * 16)
    }

    /// Whether `candidate`, moved by `shift`, clears the boxes in `index` (or may overlap them).
    func fits(_ candidate: Candidate, shift: Point = Point(0, 0), in index: LabelCollisionIndex) -> Bool {
        candidate.allowOverlap || !index.collides([candidate.box.offset(by: shift)])
    }

    /// Places `candidate` moved by `shift`: recorded in `index` (unless it ignores
    /// placement) and kept for drawing; false when the snapshot's icons are over their bounds.
    mutating func insert(_ candidate: Candidate, shift: Point = Point(0, 0), into index: inout LabelCollisionIndex) -> Bool {
        let box = candidate.box.offset(by: shift)
        let area = (box.maxX - box.minX) * (box.maxY - box.minY)
        guard icons.count < limits.labelsPerSnapshot, coverage + area <= Self.maximumCoverage else { return false }
        coverage += area
        if !candidate.ignorePlacement { index.insert([box]) }
        var icon = candidate.icon
        icon.anchor = Point(icon.anchor.x + shift.x, icon.anchor.y + shift.y)
        icons.append(icon)
        return true
    }

    /// Orders the icons placed since `first` (one layer's) for drawing: when they may
    /// overlap, by tile, then down the tile, then later features first (MapLibre's `sortFeatures`).
    mutating func orderLayer(from first: Int, byViewportY: Bool) {
        guard byViewportY, first < icons.count else { return }
        // Stable, as JavaScript's sort: one feature's icons at one height keep their order along the line.
        let sorted = icons[first...].enumerated().sorted { a, b in
            let (p, q) = (a.element.drawOrder, b.element.drawOrder)
            return (p.tile, p.y, -p.feature, a.offset) < (q.tile, q.y, -q.feature, b.offset)
        }
        icons.replaceSubrange(first..., with: sorted.map(\.element))
    }

    /// With `icon-text-fit`, the feature's text shaped from the style's glyphs
    /// (at its first anchor) and its size in CSS pixels; nil without it, without glyphs or text.
    /// `vertical`: its vertical version, unturned (nil unless `text-writing-mode` allows one).
    private func fittedText(_ style: SymbolLayerStyle, _ feature: VectorTileFeature, vertical: Bool = false) -> (text: ShapedText, size: Double)? {
        guard let glyphs, style.icon.textFit.value(atZoom: zoom, for: feature) != .none else { return nil }
        let text = VectorLabelPlacer.cleaned(style.textField.value(atZoom: zoom, for: feature), alongLine: false)
        guard !text.isEmpty, text.unicodeScalars.count <= limits.labelGlyphsPerSnapshot else { return nil }
        let layout = VectorLabelPlacer.textLayout(style, for: feature, zoom: zoom, haloWidth: 0)
        let codePoints = layout.transform.apply(text).unicodeScalars.map(\.value)
        if vertical, !layout.writingModes.contains(.vertical) || !VerticalText.allowsVerticalWritingMode(codePoints) { return nil }
        return VectorLabelPlacer.shape(codePoints, layout, vertical: vertical, glyphs: glyphs).map { ($0, layout.size) }
    }

    /// The icon of `image` for `feature` about a point at (0, 0) (its
    /// `anchor` holding `icon-translate`), and its collision box about the point;
    /// `text` (shaped at 24 px, and its size) is what `icon-text-fit` fits the icon to;
    /// `turn` (radians clockwise) turns it further (with a vertical label's text).
    static func layout(_ image: SpriteImage, _ icon: SymbolIconStyle, _ layerID: String, _ feature: VectorTileFeature,
                       zoom: Double, scale: Double, text: (text: ShapedText, size: Double)? = nil, turn: Double = 0) -> (PlacedIcon?, LabelBox) {
        let empty = LabelBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        let size = min(icon.size.value(atZoom: zoom, for: feature), 1000)
        let opacity = icon.opacity.value(atZoom: zoom, for: feature)
        // Invisible icons still take their place (MapLibre places them; they are not drawn),
        // unless they ignore placement: then they change nothing.
        guard size > 0, opacity > 0 || !icon.ignorePlacement.value(atZoom: zoom, for: feature) else { return (nil, empty) }
        let offset = icon.offset.value(atZoom: zoom, for: feature)
        let translate = icon.translate.value(atZoom: zoom, for: feature)
        let rotate = icon.rotate.value(atZoom: zoom, for: feature)
        let angle = (rotate.isFinite ? rotate.truncatingRemainder(dividingBy: 360) : 0) * .pi / 180 + turn
        // `shapeIcon`: the image's display box about the point, offset (or fitted to the
        // text); then scaled by the size, in output pixels.
        var shaped = IconQuads(image, offset: offset, anchor: icon.anchor.value(atZoom: zoom, for: feature))
        let fit = text == nil ? .none : icon.textFit.value(atZoom: zoom, for: feature)
        if let text, fit != .none {
            shaped.fit(image, to: text.text, fit, padding: icon.textFitPadding.value(atZoom: zoom, for: feature), offset: offset,
                       fontScale: text.size / TextShaper.oneEm)
        }
        let k = size * scale
        let grow = shaped.collisionPadding ?? (0, 0, 0, 0)
        let left = (shaped.left - grow.left) * k, top = (shaped.top - grow.top) * k
        let right = (shaped.right + grow.right) * k, bottom = (shaped.bottom + grow.bottom) * k
        // The collision box: the turned box's bounds, grown by the padding.
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
                                quads: shaped.quads(image, stretched: fit != .none).map { quad in
                                    let (tl, br) = quad.corners(size: size)
                                    return (Point(tl.x * scale, tl.y * scale), Point(br.x * scale, br.y * scale), quad)
                                },
                                angle: angle, size: size,
                                linear: linear, opacity: opacity,
                                color: premultiplied(icon.color.value(atZoom: zoom, for: feature)),
                                halo: haloColor.alpha > 0 && haloWidth > 0 ? premultiplied(haloColor) : nil,
                                haloWidth: haloWidth, haloBlur: icon.haloBlur.value(atZoom: zoom, for: feature))
        return (placed, box)
    }

    /// Paints the placed icons of `layers` (every layer's when nil), layer by
    /// layer in style order (they were placed top-most first).
    func draw(on canvas: inout Canvas, layers: Set<String>? = nil) {
        let icons = layers.map { layers in self.icons.filter { layers.contains($0.layerID) } } ?? self.icons
        var runs: [ArraySlice<PlacedIcon>] = []
        var start = 0
        for i in icons.indices where i == icons.count - 1 || icons[i + 1].layerID != icons[i].layerID {
            runs.append(icons[start...i])
            start = i + 1
        }
        for icon in runs.reversed().joined() where icon.opacity > 0 {
            if let halo = icon.halo { Self.draw(icon, on: &canvas, halo: halo, scale: scale) }
            Self.draw(icon, on: &canvas, halo: nil, scale: scale)
        }
    }

    /// The pixels of `icon`'s quads (one texel of border around the image,
    /// as MapLibre's quads have) sampled and blended: the SDF halo pass when `halo` is given.
    private static func draw(_ icon: PlacedIcon, on canvas: inout Canvas, halo: SIMD4<Float>?, scale: Double) {
        let image = icon.image
        let c = cos(icon.angle), s = sin(icon.angle)
        // `symbol_sdf`'s edge: EDGE_GAMMA / fontScale, the fill's buffer 0.75, the halo's from its width and blur.
        let edgeGamma = 0.105 / scale
        var gamma = edgeGamma / icon.size, buff = 0.75
        if halo != nil {
            gamma = (icon.haloBlur * 1.19 / 8 + edgeGamma) / icon.size
            buff = (6 - icon.haloWidth / icon.size) / 8
        }
        let tint = halo ?? icon.color
        let opacity = Float(icon.opacity)
        let frame = SymbolPitch.QuadFrame(anchor: icon.anchor, onMap: icon.onMap)
        for (topLeft, bottomRight, tex) in icon.quads {
            let quadWidth = bottomRight.x - topLeft.x, quadHeight = bottomRight.y - topLeft.y
            guard quadWidth > 0, quadHeight > 0, tex.texWidth > 0, tex.texHeight > 0 else { continue }
            let turned = [topLeft, Point(bottomRight.x, topLeft.y), Point(topLeft.x, bottomRight.y), bottomRight]
                .map { frame.image($0.x * c - $0.y * s, $0.x * s + $0.y * c) }
            let corners = turned.compactMap { $0 }
            guard corners.count == 4 else { continue }
            let x0 = max(0, Int(corners.map(\.x).min()!.rounded(.down))), x1 = min(canvas.width - 1, Int(corners.map(\.x).max()!.rounded(.up)))
            let y0 = max(canvas.rows.lowerBound, Int(max(corners.map(\.y).min()!, icon.onMap?.farRow ?? -.infinity).rounded(.down)))
            let y1 = min(canvas.rows.upperBound - 1, Int(corners.map(\.y).max()!.rounded(.up)))
            guard x0 <= x1, y0 <= y1 else { continue }
            // Output pixels per image pixel along each axis.
            let texelX = quadWidth / tex.texWidth, texelY = quadHeight / tex.texHeight
            for y in y0...y1 {
                for x in x0...x1 {
                    // The pixel's centre turned back into the quad (half-open, so quads
                    // that meet draw a pixel once), then in image pixels.
                    guard let (dx, dy, gammaScale) = frame.local(Double(x) + 0.5, Double(y) + 0.5) else { continue }
                    let qx = dx * c + dy * s, qy = -dx * s + dy * c
                    guard qx >= topLeft.x, qy >= topLeft.y, qx < bottomRight.x, qy < bottomRight.y else { continue }
                    let u = tex.texX + (qx - topLeft.x) / texelX, v = tex.texY + (qy - topLeft.y) / texelY
                    let sample = icon.linear ? image.bilinear(u, v) : image.nearest(u, v)
                    if image.sdf {
                        let alpha = smoothstep(buff - gamma * gammaScale, buff + gamma * gammaScale, Double(sample.w))
                        canvas.blend(premultiplied: tint * Float(alpha) * opacity, x: x, y: y)
                    } else {
                        canvas.blend(premultiplied: sample * opacity, x: x, y: y)
                    }
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
