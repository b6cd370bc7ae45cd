import Foundation
import Raster

/// Places the labels of a snapshot's `symbol` layers, after every fill and
/// line is drawn: a label that would overlap one placed before it is dropped
/// (unless its layer allows overlap). The renderer hands the layers over
/// top-most first, as MapLibre places them, so a style's last symbol layer
/// wins; ``draw(on:)`` paints them in style order. Everything is laid out in
/// the snapshot's pixels, never per tile, so no label is cut at a tile edge;
/// a label must fit inside the image whole.
///
/// Features cut by tiles: a point is labelled only from the tile it lies in
/// (its copies in neighbours' buffers are skipped); a line is clipped to each
/// tile's own square (and to the image) and the pieces with the same text are
/// joined end to end before labels are spaced along them, so a street crossing
/// a tile edge is one line, labelled once per `symbol-spacing`. Labels of one
/// layer with the same text anchored closer than half the spacing (two
/// carriageways, a street in pieces, a lake's centroids in two tiles) keep
/// only the first.
///
/// Work is bounded by ``VectorMapLimits``: features examined, glyphs laid
/// out, labels placed. Past a bound the remaining candidates are left out.
struct VectorLabelPlacer {
    let font: TrueTypeFont
    /// Output pixels per point.
    let scale: Double
    /// The style zoom.
    let zoom: Double
    let width: Int
    let height: Int
    let limits: VectorMapLimits
    /// The style's glyphs: point labels are shaped and drawn from them as
    /// MapLibre does; nil draws every label in `font`.
    let glyphs: GlyphCache?
    /// Whether a point label may reach past the image's edges (MapLibre's
    /// rule); false keeps each label whole inside the image (map tiles drawn one by one).
    let labelsCrossEdges: Bool

    /// The boxes of the labels and icons placed so far, in a grid reaching
    /// ``SymbolIconPlacer/viewportPadding`` past the image (MapLibre's `CollisionIndex`).
    var index: LabelCollisionIndex
    /// False: each source's symbols collide only with each other (MapLibre's `crossSourceCollisions`).
    let crossSourceCollisions: Bool
    /// Without cross-source collisions: the source whose index is ``index``, and the other sources' indexes.
    private var indexSource: String?
    private var sourceIndexes: [String: LabelCollisionIndex] = [:]
    /// The collision grid's size in pixels: the image and the padding around it.
    private let gridSize: (width: Int, height: Int)
    /// The icons, placed with their symbols' text; nil when the style has no sprites.
    private(set) var icons: SymbolIconPlacer?
    private(set) var labels: [VectorMapLabel] = []
    /// Features and anchors examined so far.
    private(set) var examined = 0
    /// Glyphs laid out so far.
    private(set) var glyphCount = 0
    /// True once a limit is reached: nothing more is examined.
    private(set) var isExhausted = false

    /// The largest text size drawn, in pixels: past it a glyph's mask would be
    /// megapixels, and no image holds a readable label that large.
    static let maximumTextSize = 1000.0

    init(font: TrueTypeFont, scale: Double, zoom: Double, width: Int, height: Int, limits: VectorMapLimits,
         glyphs: GlyphCache? = nil, labelsCrossEdges: Bool = false, icons: SymbolIconPlacer? = nil, crossSourceCollisions: Bool = true) {
        self.icons = icons
        self.crossSourceCollisions = crossSourceCollisions
        self.font = font
        self.glyphs = glyphs
        self.labelsCrossEdges = labelsCrossEdges
        self.scale = scale
        self.zoom = zoom
        self.width = width
        self.height = height
        self.limits = limits
        let pad = Int((SymbolIconPlacer.viewportPadding * scale).rounded(.up))
        gridSize = (width + 2 * pad, height + 2 * pad)
        index = LabelCollisionIndex(width: width + 2 * pad, height: height + 2 * pad)
    }

    /// How one label is painted and spaced: features of one layer with the
    /// same text and paint are labelled as one.
    struct Paint: Hashable {
        var size: Double
        var color: RGBA
        var halo: RGBA?
        var haloWidth: Double
        var padding: Double
        var maxWidth: Double
        var spacing: Double
        var maxAngle: Double
        var allowOverlap: Bool
        var ignorePlacement: Bool
        /// The text properties drawn with the style's glyphs.
        var text: TextLayout
        /// Whether the layer's labels are drawn top of the view first (``SymbolOrder/drawsByViewportY``).
        var drawsByViewportY = false
    }

    /// A point label's layout and paint from ``SymbolTextStyle`` (used with glyphs).
    struct TextLayout: Hashable {
        /// The layout of labels drawn in the embedded font, which read none of it.
        static let unused = TextLayout(maxWidth: 0, fontStack: [], lineHeight: 0, letterSpacing: 0, justify: .center, anchor: .center,
                                       offsetX: 0, offsetY: 0, radialOffset: 0, transform: .none, rotate: 0, haloBlur: 0,
                                       variableAnchors: [], haloWidth: 0, size: 0)
        /// `text-max-width` in ems.
        var maxWidth: Double
        var fontStack: [String]
        var lineHeight: Double
        var letterSpacing: Double
        var justify: StyleTextJustify
        var anchor: StyleTextAnchor
        var offsetX: Double
        var offsetY: Double
        var radialOffset: Double
        var transform: StyleTextTransform
        var rotate: Double
        var haloBlur: Double
        /// `text-variable-anchor` or `text-variable-anchor-offset`: the anchors tried
        /// in order, each with its offset in pixels at 24 px (MapLibre's
        /// `getTextVariableAnchorOffset`); empty for `anchor` alone.
        var variableAnchors: [StyleAnchorOffset]
        /// `text-halo-width` in CSS pixels, uncapped.
        var haloWidth: Double
        /// `text-size` in CSS pixels.
        var size: Double
        /// `text-writing-mode`: the modes a point label is tried in, in order (empty: horizontal).
        var writingModes: [StyleWritingMode] = []
    }

    private struct LineGroup: Hashable {
        var text: String
        var paint: Paint
    }

    /// Counts one feature or anchor examined; false once over the limit.
    mutating func examine() -> Bool {
        guard !isExhausted else { return false }
        examined += 1
        if examined > limits.labelFeaturesPerSnapshot { isExhausted = true }
        return !isExhausted
    }

    /// Places the labels of `layer` (a symbol layer evaluated at the zoom)
    /// from `tiles`, calling `checkCancellation` before each feature's
    /// filter and text are evaluated (a style may cost much per feature).
    mutating func place(_ layer: StyleLayer, from tiles: [(tile: VectorTile, place: TileCover.Placed)],
                        checkCancellation: () throws -> Void = {}) throws {
        guard case .symbol(let style) = layer.kind, let sourceLayer = layer.sourceLayer else { return }
        if !crossSourceCollisions { useIndex(ofSource: layer.source ?? "") }
        let alongLines = style.placement.value(atZoom: zoom) != .point
        // `symbol-sort-key` and `symbol-z-order`: the order point symbols are placed and drawn in.
        let order = SymbolOrder(style, zoom: zoom)
        var pending: [SymbolOrder.Pending<PendingText>] = []
        var sortKeys: [SymbolOrder.FeatureKey: Double] = [:]
        var groups: [LineGroup: Int] = [:]
        var pieces: [(group: LineGroup, lines: [[Point]])] = []
        // Point labels placed so far, by text and cell: a feature cut by tiles
        // (a lake in two tiles has a centroid in each) is labelled once.
        var placedPoints = LabelAnchorIndex()
        // The layer's icons, each placed with its symbol's text (MapLibre's joint placement).
        let iconsBefore = icons?.icons.count ?? 0
        var iconCandidates: [SymbolIconPlacer.SymbolKey: SymbolIconPlacer.Candidate] = [:]
        var iconOrder: [SymbolIconPlacer.SymbolKey] = []
        // Past the icons' bound, the symbols after the last icon laid out are left out (their icons were not laid out).
        var iconsCut: SymbolIconPlacer.SymbolKey?
        if icons != nil {
            let laidOut = try icons!.candidates(layer, from: tiles, checkCancellation: checkCancellation)
            for candidate in laidOut {
                iconCandidates[candidate.key] = candidate
                iconOrder.append(candidate.key)
            }
            if laidOut.count >= SymbolIconPlacer.maximumCandidates(limits) { iconsCut = laidOut.last?.key }
        }
        defer {
            // Icons of symbols without text to place (none, or none that could be shaped) are placed alone, in order.
            for key in iconOrder {
                if let candidate = iconCandidates[key], icons!.fits(candidate, in: index) { _ = icons!.insert(candidate, into: &index) }
            }
            icons?.orderLayer(from: iconsBefore, byViewportY: order.drawsByViewportY)
        }
        if alongLines, glyphs != nil {
            // With the style's glyphs, as MapLibre: anchors per tile (VectorLabelPlacer+AlongLines).
            return try placeAlongLines(layer, style, sourceLayer: sourceLayer, from: tiles, iconCandidates: &iconCandidates,
                                       iconsCut: iconsCut, checkCancellation: checkCancellation)
        }
        for (tileIndex, (tile, place)) in tiles.enumerated() {
            guard let tileLayer = tile.layer(named: sourceLayer), tileLayer.extent > 0 else { continue }
            let extent = Double(tileLayer.extent)
            let unit = place.tileSide / extent
            // The tile's own square within the image (a turned image: within its
            // bounding box on the tile), in pixels along the tile's edges: a label
            // must fit in the image, so only what lies here can be labelled from this tile.
            let corners = [Point(0, 0), Point(Double(width), 0), Point(Double(width), Double(height)), Point(0, Double(height))].map(place.onTile)
            let minX = max(corners.map(\.u).min()!, 0), minY = max(corners.map(\.v).min()!, 0)
            let maxX = min(corners.map(\.u).max()!, place.tileSide), maxY = min(corners.map(\.v).max()!, place.tileSide)
            guard minX < maxX, minY < maxY else { continue }
            let visible = LabelBox(minX: minX / unit, minY: minY / unit, maxX: maxX / unit, maxY: maxY / unit)
            // The tile unturned at the origin: lines are clipped there, then turned.
            let onTile = TileCover.Placed(tile: place.tile, x: 0, y: 0, tileSide: place.tileSide)
            for featureIndex in 0..<tileLayer.featureCount {
                guard examine() else { return }
                try checkCancellation()
                var feature = tileLayer.feature(at: featureIndex)
                feature.tile = place.tile   // where `within` tests
                if alongLines, feature.geometryType != .lineString && feature.geometryType != .polygon { continue }
                guard layer.matches(feature, atZoom: zoom) else { continue }
                if order.isDeferred, !alongLines {
                    sortKeys[SymbolOrder.FeatureKey(tile: tileIndex, feature: featureIndex)] = order.sortKey(for: feature)
                }
                if alongLines {
                    // Lines wholly outside the visible square cost no text or paint.
                    guard Self.bounds(of: feature, in: tileLayer)?.intersects(visible) == true else { continue }
                    let text = Self.cleaned(style.textField.value(atZoom: zoom, for: feature), alongLine: true)
                    guard !text.isEmpty, let paint = paint(style, for: feature) else { continue }
                    let group = LineGroup(text: text, paint: paint)
                    let slot = groups[group] ?? {
                        pieces.append((group, []))
                        groups[group] = pieces.count - 1
                        return pieces.count - 1
                    }()
                    for part in feature.parts {
                        let line = VectorLayerDrawer.project(tileLayer.points(ofPart: part), at: onTile, unit: unit, keepLast: true)
                        pieces[slot].lines += LabelPath.clip(line, minX: minX, minY: minY, maxX: maxX, maxY: maxY)
                            .map { $0.map { place.pixel($0.x, $0.y) } }
                    }
                } else {
                    // Text and paint are evaluated at the first anchor that could hold a label.
                    var isEvaluated = false
                    var evaluated: (text: String, paint: Paint)?
                    var laid: PointText?
                    var anchorIndex = -1
                    try Self.forEachAnchor(of: feature, in: tileLayer) { anchor in
                        anchorIndex += 1
                        guard examine() else { return false }
                        // A copy in this tile's buffer of a point another tile holds, or off the
                        // image (unless labels may cross its edges: then MapLibre's rule, the tile's own square).
                        let area = labelsCrossEdges ? LabelBox(minX: 0, minY: 0, maxX: extent, maxY: extent) : visible
                        guard anchor.x >= area.minX, anchor.x < min(area.maxX, extent),
                              anchor.y >= area.minY, anchor.y < min(area.maxY, extent) else { return true }
                        if !isEvaluated {
                            isEvaluated = true
                            let text = Self.cleaned(style.textField.value(atZoom: zoom, for: feature), alongLine: false)
                            if !text.isEmpty, var paint = paint(style, for: feature) {
                                paint.drawsByViewportY = order.drawsByViewportY
                                evaluated = (text, paint)
                            }
                        }
                        guard let (text, paint) = evaluated else { return false }
                        if laid == nil {
                            let format = style.format.map {
                                FormattedText($0, for: feature, zoom: zoom, transform: paint.text.transform, fontStack: paint.text.fontStack,
                                              opacity: style.textOpacity.value(atZoom: zoom, for: feature),
                                              image: { [icons] name in icons?.sprites.images[name] })
                            }
                            guard var text = try lay(text, paint, format: format) else { return false }
                            // `text-rotation-alignment: map` turns the label with the map (MapLibre's `u_rotate_symbol`).
                            if text.sdf != nil, style.alignment.textRotation.value(atZoom: zoom, for: feature) == .map { text.sdf!.angle += place.mapAngle }
                            // Under pitch, `text-pitch-alignment` (`auto`: as the rotation) may lay it on the map.
                            if text.sdf != nil, let pitch = place.pitch {
                                let alignment = style.alignment.textPitch.value(atZoom: zoom, for: feature)
                                if alignment == .map || alignment == .auto && style.alignment.textRotation.value(atZoom: zoom, for: feature) == .map {
                                    text.sdf!.paint.onMap = pitch
                                }
                            }
                            laid = text
                        }
                        let p = place.pixel(anchor.x * unit, anchor.y * unit)
                        var here = laid!
                        if place.pitch != nil, here.sdf?.paint.onMap == nil, style.alignment.textRotation.value(atZoom: zoom, for: feature) == .map {
                            // Facing the image but turned with the map: as the map's x axis looks at the point.
                            here.sdf!.angle += place.pixelAngle(anchor.x * unit, anchor.y * unit) - place.mapAngle
                        }
                        let key = SymbolIconPlacer.SymbolKey(tile: tileIndex, feature: featureIndex, anchor: anchorIndex)
                        if let iconsCut, key.isAfter(iconsCut) { return false }
                        let translate = order.textTranslation(for: feature, cos: place.cos, sin: place.sin, scale: scale)
                        let candidate = PendingText(text: text, laid: here, at: p, paint: paint, translate: translate, pitch: place.pitch)
                        if order.isDeferred {
                            // Placed once the layer's symbols are sorted; the icon goes with it then.
                            pending.append(order.pending(.text(candidate), key: key, at: p,
                                                         sortKey: sortKeys[SymbolOrder.FeatureKey(tile: tileIndex, feature: featureIndex)]))
                            return !isExhausted
                        }
                        placePending(candidate, layerID: layer.id, icon: iconCandidates.removeValue(forKey: key),
                                     textOptional: order.textOptional, placed: &placedPoints)
                        return !isExhausted
                    }
                    if isExhausted { return }
                }
            }
        }
        if order.isDeferred {
            // The symbols without text join the sorted ones; each text takes its icon.
            for key in iconOrder {
                guard let candidate = iconCandidates[key] else { continue }
                pending.append(order.pending(.icon, key: key, at: candidate.point,
                                             sortKey: sortKeys[SymbolOrder.FeatureKey(tile: key.tile, feature: key.feature)]))
            }
            for symbol in order.sorted(pending) {
                let icon = iconCandidates.removeValue(forKey: symbol.key)
                switch symbol.kind {
                case .text(let candidate):
                    placePending(candidate, layerID: layer.id, icon: icon, textOptional: order.textOptional, placed: &placedPoints)
                case .icon:
                    if let icon, icons!.fits(icon, in: index) { _ = icons!.insert(icon, into: &index) }
                }
                if isExhausted { return }
            }
        }
        // Along lines: the pieces of each text joined, then labels spaced along each line.
        var placedAnchors = LabelAnchorIndex()
        for (group, lines) in pieces {
            for line in LabelPath.join(lines) {
                let path = LabelPath(line)
                guard path.points.count >= 2 else { continue }
                try placeAlong(path, layerID: layer.id, group: group, placed: &placedAnchors)
                if isExhausted { return }
            }
        }
    }

    /// Makes `source`'s collision index the one labels are placed against, keeping the one before.
    private mutating func useIndex(ofSource source: String) {
        guard indexSource != source else { return }
        if let previous = indexSource { sourceIndexes[previous] = index }
        index = sourceIndexes.removeValue(forKey: source) ?? LabelCollisionIndex(width: gridSize.width, height: gridSize.height)
        indexSource = source
    }

    /// A point label laid out and waiting to be placed at `at` (output pixels),
    /// drawn moved by `translate` (`text-translate`, in output pixels).
    struct PendingText {
        var text: String
        var laid: PointText
        var at: Point
        var paint: Paint
        var translate: Point
        /// The camera's pitch, nil for none.
        var pitch: PitchProjection?
    }

    /// Places `candidate` with its symbol's `icon`, unless (drawn in the embedded
    /// font) a label of the same text lies within half the spacing; with the style's
    /// glyphs, as in MapLibre, only collisions drop a label.
    private mutating func placePending(_ candidate: PendingText, layerID: String, icon: SymbolIconPlacer.Candidate?,
                                       textOptional: Bool, placed: inout LabelAnchorIndex) {
        let radius = candidate.paint.spacing / 2
        if glyphs == nil, placed.contains(candidate.text, near: candidate.at, within: radius) {
            // Its icon still stands alone, as when no text could be placed.
            if let icon, icons!.fits(icon, in: index) { _ = icons!.insert(icon, into: &index) }
            return
        }
        if placePoint(layerID: layerID, text: candidate.text, laid: candidate.laid, at: candidate.at, paint: candidate.paint,
                      icon: icon, textOptional: textOptional, translate: candidate.translate, pitch: candidate.pitch) {
            placed.insert(candidate.text, at: candidate.at, radius: radius)
        }
    }

    /// A label's text as drawn: surrounding white space trimmed; along a line,
    /// on one line.
    static func cleaned(_ text: String, alongLine: Bool) -> String {
        // Most names need nothing done: skip Foundation's slower scans for them.
        let scalars = text.unicodeScalars
        func visibleASCII(_ s: Unicode.Scalar) -> Bool { s.value > 0x20 && s.value < 0x7F }
        if let first = scalars.first, let last = scalars.last, visibleASCII(first), visibleASCII(last),
           !alongLine || !scalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
            return text
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return alongLine ? trimmed.replacingOccurrences(of: "\n", with: " ") : trimmed
    }

    /// Calls `body` with each place a point-placed feature is labelled, in tile
    /// units, until it returns false: every point of a point feature, the first
    /// point of each line (as MapLibre), the centroid of each outer ring.
    static func forEachAnchor(of feature: VectorTileFeature, in layer: VectorTileLayer, _ body: (Point) throws -> Bool) rethrows {
        for part in feature.parts {
            let points = layer.points(ofPart: part)
            switch feature.geometryType {
            case .point, .unknown:
                for p in points where !(try body(Point(Double(p.x), Double(p.y)))) { return }
            case .lineString:
                if let first = points.first, !(try body(Point(Double(first.x), Double(first.y)))) { return }
            case .polygon:
                guard layer.partIsExterior[part], let centroid = centroid(of: points) else { continue }
                if !(try body(centroid)) { return }
            }
        }
    }

    /// The box around every part of `feature`, in tile units; nil when it has no points.
    static func bounds(of feature: VectorTileFeature, in layer: VectorTileLayer) -> LabelBox? {
        var box: LabelBox?
        for part in feature.parts {
            for p in layer.points(ofPart: part) {
                let x = Double(p.x), y = Double(p.y)
                if let b = box {
                    box = LabelBox(minX: min(b.minX, x), minY: min(b.minY, y), maxX: max(b.maxX, x), maxY: max(b.maxY, y))
                } else {
                    box = LabelBox(minX: x, minY: y, maxX: x, maxY: y)
                }
            }
        }
        return box
    }

    /// The area centroid of a ring (its vertex mean when it has no area).
    static func centroid(of ring: ArraySlice<VectorTilePoint>) -> Point? {
        guard let first = ring.first else { return nil }
        var area = 0.0, cx = 0.0, cy = 0.0, mx = 0.0, my = 0.0
        var previous = ring.last!
        for p in ring {
            // Relative to the first point, so the products stay small.
            let x0 = Double(previous.x - first.x), y0 = Double(previous.y - first.y)
            let x1 = Double(p.x - first.x), y1 = Double(p.y - first.y)
            let cross = x0 * y1 - x1 * y0
            area += cross
            cx += (x0 + x1) * cross
            cy += (y0 + y1) * cross
            mx += x1
            my += y1
            previous = p
        }
        let n = Double(ring.count)
        guard abs(area) > 1e-9 else { return Point(Double(first.x) + mx / n, Double(first.y) + my / n) }
        return Point(Double(first.x) + cx / (3 * area), Double(first.y) + cy / (3 * area))
    }

    /// `style`'s text layout for `feature`: what shaping from the style's glyphs reads.
    static func textLayout(_ style: SymbolLayerStyle, for feature: VectorTileFeature, zoom: Double, haloWidth: Double) -> TextLayout {
        let t = style.text, z = SymbolTextStyle.layoutZoom(zoom)
        let offset = t.offset.value(atZoom: z, for: feature)
        return TextLayout(maxWidth: t.maxWidth.value(atZoom: z, for: feature),
                          fontStack: t.font.value(atZoom: z, for: feature), lineHeight: t.lineHeight.value(atZoom: z, for: feature),
                          letterSpacing: t.letterSpacing.value(atZoom: z, for: feature), justify: t.justify.value(atZoom: z, for: feature),
                          anchor: t.anchor.value(atZoom: z, for: feature), offsetX: offset[0], offsetY: offset[1],
                          radialOffset: t.radialOffset.value(atZoom: z, for: feature), transform: t.transform.value(atZoom: z, for: feature),
                          rotate: t.rotate.value(atZoom: z, for: feature), haloBlur: t.haloBlur.value(atZoom: zoom, for: feature),
                          variableAnchors: variableAnchors(t, for: feature, zoom: z, offset: offset), haloWidth: haloWidth,
                          size: min(style.textSize.value(atZoom: zoom, for: feature), Self.maximumTextSize),
                          writingModes: t.writingMode.value(atZoom: z, for: feature))
    }

    /// The variable anchors of `style` for `feature` with their offsets in pixels
    /// at 24 px, as MapLibre's `getTextVariableAnchorOffset` gives them:
    /// `text-variable-anchor-offset` when set (ems, less the baseline offset for
    /// top and bottom anchors), else each of `text-variable-anchor` with the
    /// radial offset or `text-offset` pointed away from it.
    static func variableAnchors(_ t: SymbolTextStyle, for feature: VectorTileFeature, zoom z: Double, offset: [Double]) -> [StyleAnchorOffset] {
        let em = TextShaper.oneEm
        let pairs = t.variableAnchorOffset.value(atZoom: z, for: feature)
        if !pairs.isEmpty {
            return pairs.map { pair in
                let baseline = pair.anchor.verticalAlign == 0 ? -TextShaper.baselineOffset : pair.anchor.verticalAlign == 1 ? TextShaper.baselineOffset : 0
                return StyleAnchorOffset(anchor: pair.anchor, x: pair.x * em, y: pair.y * em + baseline)
            }
        }
        let radial = t.radialOffset.value(atZoom: z, for: feature)
        return t.variableAnchor.value(atZoom: z, for: feature).map { anchor in
            let (x, y) = radial != 0 || offset[0] == 0 && offset[1] == 0
                ? TextShaper.radialOffset(radial * em, anchor: anchor)
                : TextShaper.variableOffset(x: offset[0] * em, y: offset[1] * em, anchor: anchor)
            return StyleAnchorOffset(anchor: anchor, x: x, y: y)
        }
    }

    /// `codePoints` shaped by `layout` from `glyphs`: at its `text-anchor`, moved by
    /// `text-radial-offset` or `text-offset`; with variable anchors, about the centre
    /// unmoved (MapLibre shifts the label at placement), justified as `justify`
    /// says (`auto`: as the anchor). `vertical`: the vertical version of a point
    /// label, as MapLibre shapes it at its `text-anchor`, left-justified (unturned:
    /// see ``ShapedText/verticalLabel()``); with `alongLine`, a line label's, where only the
    /// characters that stand in vertical text stand. Nil when no glyph of it is in the font stack.
    static func shape(_ codePoints: [UInt32], _ layout: TextLayout, justify: StyleTextJustify? = nil, vertical: Bool = false,
                      alongLine: Bool = false, glyphs: GlyphCache, format: FormattedText? = nil) -> ShapedText? {
        let em = TextShaper.oneEm
        let anchor: StyleTextAnchor, translate: (x: Double, y: Double)
        if !layout.variableAnchors.isEmpty {
            anchor = .center
            translate = (0, 0)
        } else if layout.radialOffset != 0 {
            anchor = layout.anchor
            translate = TextShaper.radialOffset(layout.radialOffset * em, anchor: anchor)
        } else {
            anchor = layout.anchor
            translate = (layout.offsetX * em, layout.offsetY * em)
        }
        let justified = vertical && !alongLine ? .left
            : justify ?? (layout.justify == .auto ? (layout.variableAnchors.first?.anchor ?? anchor).justification : layout.justify)
        let fontStack = layout.fontStack
        let shaper = TextShaper(glyph: { glyphs.glyph($0, fontStack: fontStack) }, maxWidth: layout.maxWidth * em,
                                lineHeight: layout.lineHeight * em,
                                spacing: TextShaper.allowsLetterSpacing(codePoints) ? layout.letterSpacing * em : 0,
                                anchor: vertical ? layout.anchor : anchor, justify: justified, translate: translate,
                                vertical: vertical, verticalPlacement: vertical && !alongLine)
        if let format {
            return shaper.shape(format.codePoints, sections: format.sections, sectionOf: format.sectionOf, textSize: layout.size) {
                glyphs.glyph($0, fontStack: $1)
            }
        }
        return shaper.shape(codePoints)
    }

    /// The feature's paint in output pixels; nil when nothing would show.
    func paint(_ style: SymbolLayerStyle, for feature: VectorTileFeature) -> Paint? {
        let size = min(style.textSize.value(atZoom: zoom, for: feature) * scale, Self.maximumTextSize)
        let opacity = style.textOpacity.value(atZoom: zoom, for: feature)
        let color = VectorLayerDrawer.rgba(style.textColor.value(atZoom: zoom, for: feature), opacity: opacity)
        guard size >= 1, opacity > 0 else { return nil }
        let halo = VectorLayerDrawer.rgba(style.haloColor.value(atZoom: zoom, for: feature), opacity: opacity)
        // MapLibre caps the halo at a quarter of the text size.
        let haloWidth = min(style.haloWidth.value(atZoom: zoom, for: feature) * scale, size / 4)
        let hasHalo = halo.a > 0 && haloWidth > 0
        // Transparent text still shows its halo.
        guard color.a > 0 || hasHalo else { return nil }
        // The text layout is only read when the style's glyphs draw it.
        var text = TextLayout.unused
        if glyphs != nil {
            text = Self.textLayout(style, for: feature, zoom: zoom, haloWidth: hasHalo ? style.haloWidth.value(atZoom: zoom, for: feature) : 0)
        }
        return Paint(size: size, color: color, halo: hasHalo ? halo : nil, haloWidth: hasHalo ? haloWidth : 0,
                     padding: min(style.padding.value(atZoom: zoom, for: feature) * scale, Double(max(width, height))),
                     maxWidth: style.maxWidth.value(atZoom: zoom, for: feature),
                     spacing: style.spacing.value(atZoom: zoom, for: feature) * scale,
                     maxAngle: style.maxAngle.value(atZoom: zoom, for: feature) * .pi / 180,
                     allowOverlap: style.allowOverlap.value(atZoom: zoom, for: feature),
                     ignorePlacement: style.ignorePlacement.value(atZoom: zoom, for: feature), text: text)
    }

    /// Counts `text`'s glyphs at `size` against the limit first; false (and
    /// exhausted) when over. A glyph larger than 32 pixels counts as
    /// `(size / 32)²` glyphs: the work of rasterising and blending it grows with its area.
    mutating func reserveGlyphs(for text: String, size: Double) -> Bool {
        let weight = max(1, Int(((size / 32) * (size / 32)).rounded(.up)))
        let (count, overflow) = text.unicodeScalars.count.multipliedReportingOverflow(by: weight)
        guard !overflow, glyphCount + count <= limits.labelGlyphsPerSnapshot else {
            isExhausted = true
            return false
        }
        glyphCount += count
        return true
    }

    /// A point label's text laid out around (0, 0), and the box it covers.
    struct PointText {
        var lines: [(line: TextLine, origin: Point)]
        var box: LabelBox
        /// The text shaped from the style's glyphs, when it has them.
        var sdf: (paint: SDFTextDrawer.Paint, angle: Double)?
        /// The places tried in order (one, or one per variable anchor): the shaping
        /// drawn, its box about the point, and where it is drawn from the point.
        var candidates: [(text: ShapedText, box: LabelBox, shift: Point)] = []
        /// The candidates of one writing mode (`text-writing-mode`): the modes' runs follow each other.
        var perMode = 1
        /// Whether the candidates are variable anchors: with overlap allowed, each is
        /// first tried clear of other labels (MapLibre's two rounds).
        var isVariable = false
        /// What drawing it once more costs, in glyphs, beyond the glyphs counted for its text.
        var drawWeight = 0
    }

    /// `text` laid out for a point label, centred on (0, 0): wrapped to
    /// `text-max-width` ems, each line centred. Nil when over the glyph limit.
    mutating func lay(_ text: String, _ paint: Paint, format: FormattedText? = nil) throws -> PointText? {
        guard reserveGlyphs(for: text, size: paint.size) else { return nil }
        if let glyphs { return shape(text, paint, glyphs, format: format) }
        let lines: [TextLine], lineHeight: Double
        let single = TextLine(text, font: font, size: paint.size)
        if paint.maxWidth > 0, single.width > paint.maxWidth * paint.size || text.contains("\n") {
            let paragraph = TextParagraph(text, font: font, size: paint.size, maximumWidth: paint.maxWidth * paint.size)
            lines = paragraph.lines
            lineHeight = paragraph.lineHeight
        } else {
            // Most names fit on one line: no wrapping pass.
            lines = [single]
            lineHeight = 0
        }
        let first = lines.first ?? TextLine("", font: font, size: paint.size)
        let height = first.ascent + first.descent + Double(max(0, lines.count - 1)) * lineHeight
        let width = lines.map(\.width).max() ?? 0
        let h = paint.haloWidth
        return PointText(lines: lines.enumerated().map { i, line in
                             (line, Point(-line.width / 2, -height / 2 + first.ascent + Double(i) * lineHeight))
                         },
                         box: LabelBox(minX: -width / 2 - h, minY: -height / 2 - h, maxX: width / 2 + h, maxY: height / 2 + h))
    }

    /// `text` shaped from `glyphs` as MapLibre shapes a point label (see
    /// `TextShaper`), its box MapLibre's collision box (the shaped bounds at
    /// the text size, rotated with the text; halo not included). Nil when no
    /// glyph of it is in the font stack.
    private func shape(_ text: String, _ paint: Paint, _ glyphs: GlyphCache, format: FormattedText? = nil) -> PointText? {
        let layout = paint.text
        let codePoints = format?.codePoints ?? layout.transform.apply(text).unicodeScalars.map(\.value)
        let fontScale = layout.size / TextShaper.oneEm
        let s = fontScale * scale
        let angle = layout.rotate * .pi / 180
        func box(of shaped: ShapedText) -> LabelBox {
            let box = LabelBox(minX: shaped.left * s, minY: shaped.top * s, maxX: shaped.right * s, maxY: shaped.bottom * s)
            guard angle != 0 else { return box }
            // MapLibre's box of a rotated label: the bounds of its rotated corners.
            let c = cos(angle), sn = sin(angle)
            let corners = [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)]
                .map { (c * $0.0 - sn * $0.1, sn * $0.0 + c * $0.1) }
            return LabelBox(minX: corners.map(\.0).min()!, minY: corners.map(\.1).min()!, maxX: corners.map(\.0).max()!, maxY: corners.map(\.1).max()!)
        }
        // The places tried for one writing mode: at the anchor, or at each variable anchor.
        func places(_ shapings: [StyleTextJustify: ShapedText], first: StyleTextJustify) -> [(text: ShapedText, box: LabelBox, shift: Point)] {
            guard !layout.variableAnchors.isEmpty else { return [(shapings[first]!, box(of: shapings[first]!), Point(0, 0))] }
            // MapLibre's variable anchors: at each anchor the label (box and glyphs) is moved by
            // `calculateVariableLayoutShift`, away from the point by half its padded box, then by the anchor's offset.
            let centred = box(of: shapings[first]!)
            let width = centred.maxX - centred.minX + 2 * paint.padding, height = centred.maxY - centred.minY + 2 * paint.padding
            return layout.variableAnchors.map { variable in
                let justify = layout.justify == .auto ? variable.anchor.justification : layout.justify
                let shift = Point(-(variable.anchor.horizontalAlign - 0.5) * width + variable.x * s,
                                  -(variable.anchor.verticalAlign - 0.5) * height + variable.y * s)
                let moved = LabelBox(minX: centred.minX + shift.x, minY: centred.minY + shift.y, maxX: centred.maxX + shift.x, maxY: centred.maxY + shift.y)
                return (shapings[justify] ?? shapings[first]!, moved, shift)
            }
        }
        var horizontal: [(text: ShapedText, box: LabelBox, shift: Point)] = []
        if layout.variableAnchors.isEmpty {
            guard let shaped = Self.shape(codePoints, layout, glyphs: glyphs, format: format) else { return nil }
            horizontal = places([.center: shaped], first: .center)
        } else {
            // The text shaped about the point once per justification.
            var shapings: [StyleTextJustify: ShapedText] = [:]
            for variable in layout.variableAnchors {
                let justify = layout.justify == .auto ? variable.anchor.justification : layout.justify
                guard shapings[justify] == nil else { continue }
                guard let shaped = Self.shape(codePoints, layout, justify: justify, glyphs: glyphs, format: format) else { return nil }
                shapings[justify] = shaped
            }
            horizontal = places(shapings, first: layout.justify == .auto ? layout.variableAnchors[0].anchor.justification : layout.justify)
        }
        // `text-writing-mode`: text with upright characters also has a vertical version,
        // and the modes are tried in the style's order (MapLibre's `placeTextForPlacementModes`).
        var candidates = horizontal
        var perMode = horizontal.count
        if layout.writingModes.contains(.vertical), VerticalText.allowsVerticalWritingMode(codePoints),
           let shaped = Self.shape(codePoints, layout, vertical: true, glyphs: glyphs, format: format) {
            let vertical = places([.left: shaped.verticalLabel()], first: .left)
            perMode = max(horizontal.count, vertical.count)
            candidates = layout.writingModes.flatMap { $0 == .vertical ? vertical : horizontal }
        }
        let sdfPaint = SDFTextDrawer.Paint(fontScale: fontScale, pixelRatio: scale, color: paint.color, halo: paint.halo,
                                           haloWidth: layout.haloWidth, haloBlur: layout.haloBlur, opacity: format?.opacity ?? 1)
        // A glyph's drawing costs its quad's pixels (at most the image's): past 32 × 32
        // pixels it counts as more glyphs, charged each time the label is placed.
        let imageArea = Double(width * height)
        var weight = 0.0
        for placed in candidates[0].text.glyphs {
            let area = Double(placed.glyph.bitmapWidth + 2) * s * Double(placed.glyph.bitmapHeight + 2) * s
            weight += max(0, min(area, imageArea) / 1024 - 1)
        }
        return PointText(lines: [], box: candidates[0].box, sdf: (sdfPaint, angle), candidates: candidates, perMode: perMode,
                         isVariable: !layout.variableAnchors.isEmpty, drawWeight: Int(min(weight, 1e9)))
    }

    /// Places a point label at `p` if it fits in the image (or labels may
    /// cross its edges) and clears the labels and icons before it, with its
    /// symbol's `icon` (see ``placeSymbol(_:icon:paint:)``). Under `pitch` it is
    /// scaled by MapLibre's perspective ratio (``SymbolPitch``), its box too, and
    /// drawn on the map plane when its paint says it lies on the map.
    /// Returns whether the text was placed.
    mutating func placePoint(layerID: String, text: String, laid: PointText, at p: Point, paint: Paint,
                             icon: SymbolIconPlacer.Candidate? = nil, textOptional: Bool = false,
                             translate: Point = Point(0, 0), pitch: PitchProjection? = nil) -> Bool {
        var icon = icon
        var laid = laid
        if let pitch, laid.sdf != nil {
            let onMap = laid.sdf!.paint.onMap != nil
            let ratio = SymbolPitch.perspectiveRatio(at: p, pitch: pitch, onMap: onMap)
            let boxRatio = SymbolPitch.perspectiveRatio(at: p, pitch: pitch, onMap: false)
            laid.sdf!.paint.fontScale *= ratio
            laid.candidates = laid.candidates.map { ($0.text, $0.box.scaled(by: boxRatio), Point($0.shift.x * boxRatio, $0.shift.y * boxRatio)) }
        }
        let box = laid.box.offset(by: p)
        var chosen: (label: VectorMapLabel, shift: Point)?
        if let sdf = laid.sdf {
            // Across edges, as MapLibre: the anchor lies in its tile, and a box may be
            // empty (negative letter spacing) while its glyphs still show.
            let inImage = labelsCrossEdges || laid.candidates.contains { $0.box.offset(by: p).isInside(width: Double(width), height: Double(height)) }
            if inImage, glyphCount + laid.drawWeight > limits.labelGlyphsPerSnapshot {
                isExhausted = true
            } else if inImage {
                glyphCount += laid.drawWeight
                // The first anchor whose box clears the labels before (and an icon fitted to
                // the text, its icon moved with it); with overlap allowed, a second round
                // takes the first anchor that may overlap (MapLibre's `placementAttempts`).
                let count = max(1, min(laid.perMode, laid.candidates.count))
                let attempts = laid.isVariable && paint.allowOverlap ? 2 * count : count
                // Each writing mode in turn, its anchors (and their second round) before the next mode's.
                for attempt in (0..<laid.candidates.count / count).lazy.flatMap({ mode in (0..<attempts).lazy.map { (mode, $0) } }) {
                    let (shaped, relative, shift) = laid.candidates[attempt.0 * count + attempt.1 % count]
                    // A vertical label's icon is fitted to it and turned with it.
                    let attemptIcon = shaped.isVertical ? icon?.forVerticalText : icon
                    let box = relative.offset(by: p)
                    guard labelsCrossEdges || box.isInside(width: Double(width), height: Double(height)) else { continue }
                    var at = Point(p.x + shift.x + translate.x, p.y + shift.y + translate.y)
                    if let onMap = sdf.paint.onMap {
                        // On the map its anchor is the plane's point, the shift laid on the plane.
                        let plane = onMap.unproject(Point(p.x + translate.x, p.y + translate.y))
                        at = Point(plane.x + shift.x, plane.y + shift.y)
                    }
                    let label = VectorMapLabel(layerID: layerID, text: text, anchor: p, boxes: [box],
                                               layout: .sdf(shaped, sdf.paint, angle: sdf.angle, at: at),
                                               color: paint.color, halo: paint.halo, haloWidth: paint.haloWidth,
                                               drawsByViewportY: paint.drawsByViewportY)
                    guard fits(label, paint: paint, allowOverlap: paint.allowOverlap && (!laid.isVariable || attempt.1 >= count)) else { continue }
                    if laid.isVariable, let attemptIcon, attemptIcon.fitsText, icons?.fits(attemptIcon, shift: shift, in: index) == false { continue }
                    chosen = (label, shift)
                    icon = attemptIcon
                    break
                }
            }
        } else if laid.lines.contains(where: { !$0.line.glyphs.isEmpty }), box.isInside(width: Double(width), height: Double(height)) {
            // (Text of control characters only has no ink to place.)
            let label = VectorMapLabel(layerID: layerID, text: text, anchor: p, boxes: [box],
                                       layout: .lines(laid.lines.map { ($0.line, Point(p.x + $0.origin.x, p.y + $0.origin.y)) }),
                                       color: paint.color, halo: paint.halo, haloWidth: paint.haloWidth)
            if fits(label, paint: paint, allowOverlap: paint.allowOverlap) { chosen = (label, Point(0, 0)) }
        }
        return placeSymbol(chosen, icon: icon, paint: paint, textOptional: textOptional)
    }

    /// Places a symbol's text (`chosen`, when a place was found for it) and its
    /// icon as MapLibre's `placeLayerBucketPart` does: each needs the other to
    /// fit unless it is optional (`icon-optional`, `text-optional`), and
    /// both go into the collision index together, so a symbol's text may cover
    /// its own icon. An icon fitted to its text moves with the text's anchor.
    /// Returns whether the text was placed.
    mutating func placeSymbol(_ chosen: (label: VectorMapLabel, shift: Point)?, icon: SymbolIconPlacer.Candidate?, paint: Paint,
                              textOptional: Bool = false) -> Bool {
        var placeText = chosen != nil
        guard let icon, icons != nil else {
            if let chosen { insert(chosen.label, paint: paint) }
            return placeText
        }
        let shift = icon.fitsText ? chosen?.shift ?? Point(0, 0) : Point(0, 0)
        var placeIcon = icons!.fits(icon, shift: shift, in: index)
        // Each needs the other unless it is optional (`text-optional`, `icon-optional`).
        if !icon.optional { placeText = placeText && placeIcon }
        if !textOptional { placeIcon = placeIcon && placeText }
        if placeText, let chosen { insert(chosen.label, paint: paint) }
        if placeIcon { _ = icons!.insert(icon, shift: shift, into: &index) }
        return placeText
    }

    /// `label`'s boxes grown by the padding, in the collision grid.
    private func gridBoxes(_ label: VectorMapLabel, paint: Paint) -> [LabelBox] {
        let pad = SymbolIconPlacer.viewportPadding * scale
        return label.boxes.map { $0.padded(paint.padding).offset(by: Point(pad, pad)) }
    }

    /// Whether `label` clears the boxes placed before (or may overlap them).
    func fits(_ label: VectorMapLabel, paint: Paint, allowOverlap: Bool) -> Bool {
        allowOverlap || !index.collides(gridBoxes(label, paint: paint))
    }

    /// Keeps `label`, recording its padded boxes for later labels unless it ignores placement.
    private mutating func insert(_ label: VectorMapLabel, paint: Paint) {
        if !paint.ignorePlacement { index.insert(gridBoxes(label, paint: paint)) }
        labels.append(label)
        if labels.count >= limits.labelsPerSnapshot { isExhausted = true }
    }

    /// Keeps `label` unless it collides; records its padded boxes for later labels.
    @discardableResult
    private mutating func commit(_ label: VectorMapLabel, paint: Paint) -> Bool {
        guard fits(label, paint: paint, allowOverlap: paint.allowOverlap) else { return false }
        insert(label, paint: paint)
        return true
    }

    /// Labels along `path`: one per `symbol-spacing`, centred in equal
    /// stretches, each where the text fits on the line, the line bends
    /// gently under it, and it stays clear of the labels placed before.
    private mutating func placeAlong(_ path: LabelPath, layerID: String, group: LineGroup, placed: inout LabelAnchorIndex) throws {
        let paint = group.paint
        let length = path.length
        // Measured before it is laid out: a line far too short costs no glyph work.
        guard length >= paint.size * Double(min(group.text.unicodeScalars.count, 4)) * 0.5 else { return }
        guard reserveGlyphs(for: group.text, size: paint.size) else { return }
        if let glyphs {
            // With the style's glyphs: shaped on one line, centred on the line (MapLibre's `text-anchor: center`).
            let layout = paint.text
            let codePoints = layout.transform.apply(group.text).unicodeScalars.map(\.value)
            let fontStack = layout.fontStack
            let shaper = TextShaper(glyph: { glyphs.glyph($0, fontStack: fontStack) }, maxWidth: .infinity,
                                    lineHeight: layout.lineHeight * TextShaper.oneEm,
                                    spacing: TextShaper.allowsLetterSpacing(codePoints) ? layout.letterSpacing * TextShaper.oneEm : 0,
                                    anchor: .center, justify: .center, translate: (0, 0))
            guard let shaped = shaper.shape(codePoints) else { return }
            let fontScale = layout.size / TextShaper.oneEm
            let sdfPaint = SDFTextDrawer.Paint(fontScale: fontScale, pixelRatio: scale, color: paint.color, halo: paint.halo,
                                               haloWidth: layout.haloWidth, haloBlur: layout.haloBlur)
            let image = (width: Double(width), height: Double(height), crossesEdges: labelsCrossEdges)
            try placeAlong(path, layerID: layerID, group: group, placed: &placed, textWidth: (shaped.right - shaped.left) * fontScale * scale) { walk, middle, anchor in
                Self.layAlong(shaped, sdfPaint, on: walk, middle: middle, anchor: anchor, layerID: layerID, text: group.text, paint: paint, image: image)
            }
            return
        }
        let line = TextLine(group.text, font: font, size: paint.size)
        let (font, width, height) = (self.font, self.width, self.height)
        try placeAlong(path, layerID: layerID, group: group, placed: &placed, textWidth: line.width) { walk, middle, anchor in
            Self.layAlong(line, font: font, on: walk, middle: middle, anchor: anchor, layerID: layerID, text: group.text, paint: paint,
                          width: width, height: height)
        }
    }

    /// Labels `textWidth` pixels long along `path`, laid by `lay` (the path, walked
    /// upright, the text's middle along it, and the anchor): see ``placeAlong(_:layerID:group:placed:)``.
    private mutating func placeAlong(_ path: LabelPath, layerID: String, group: LineGroup, placed: inout LabelAnchorIndex, textWidth: Double,
                                     lay: (LabelPath, Double, Point) -> VectorMapLabel?) throws {
        let paint = group.paint
        let length = path.length
        // Only on lines long enough: the text and half an em either side.
        guard textWidth > 0, length >= textWidth + paint.size else { return }
        // Labels of one line closer than their own length would overlap each
        // other anyway: the spacing is at least the text and an em.
        let spacing = max(paint.spacing, textWidth + paint.size)
        let count = max(1, min(Int(length / spacing), 1 << 20))
        var reversed: LabelPath?
        for k in 0..<count {
            guard examine() else { return }
            let center = (Double(k) + 0.5) * length / Double(count)
            let start = center - textWidth / 2, end = center + textWidth / 2
            guard start >= 0, end <= length else { continue }
            let anchor = path.point(at: center).point
            guard !placed.contains(group.text, near: anchor, within: spacing / 2) else { continue }
            // Kept upright: walk the line from its end when it runs leftwards here.
            var walk = path, middle = center
            if path.point(at: end).point.x < path.point(at: start).point.x {
                if reversed == nil { reversed = path.reversed }
                walk = reversed!
                middle = walk.length - center
            }
            guard walk.bendsGently(from: middle - textWidth / 2, to: middle + textWidth / 2,
                                   window: max(textWidth / 2, paint.size), maximumTurn: paint.maxAngle) else { continue }
            guard let label = lay(walk, middle, anchor) else { continue }
            if commit(label, paint: paint) { placed.insert(group.text, at: anchor, radius: spacing / 2) }
            if isExhausted { return }
        }
    }

    /// `text`'s signed-distance glyphs set along `path` with its middle `middle`
    /// pixels along it: each glyph's centre on the line, rotated to the segment
    /// under it, the line through the text's middle. Nil when a glyph's box leaves the image.
    private static func layAlong(_ text: ShapedText, _ sdfPaint: SDFTextDrawer.Paint, on path: LabelPath, middle: Double, anchor: Point,
                                 layerID: String, text label: String, paint: Paint,
                                 image: (width: Double, height: Double, crossesEdges: Bool)) -> VectorMapLabel? {
        let s = sdfPaint.fontScale * sdfPaint.pixelRatio
        let halfHeight = (text.bottom - text.top) / 2 * s
        var glyphs: [(text: ShapedText, at: Point, angle: Double)] = []
        var boxes: [LabelBox] = []
        for placed in text.glyphs {
            let advance = Double(placed.glyph.advance)
            let (center, angle) = path.point(at: middle + (placed.x + advance / 2) * s)
            let one = ShapedText(glyphs: [.init(glyph: placed.glyph, x: -advance / 2, y: placed.y)], left: -advance / 2, top: text.top,
                                 right: advance / 2, bottom: text.bottom, lineCount: 1)
            glyphs.append((one, center, angle))
            let c = cos(angle), sn = sin(angle)
            let halfWidth = advance / 2 * s
            let hx = abs(c) * halfWidth + abs(sn) * halfHeight, hy = abs(sn) * halfWidth + abs(c) * halfHeight
            let box = LabelBox(minX: center.x - hx, minY: center.y - hy, maxX: center.x + hx, maxY: center.y + hy)
            guard image.crossesEdges || box.isInside(width: image.width, height: image.height) else { return nil }
            boxes.append(box)
        }
        return VectorMapLabel(layerID: layerID, text: label, anchor: anchor, boxes: boxes, layout: .sdfAlongLine(glyphs, sdfPaint),
                              color: paint.color, halo: paint.halo, haloWidth: paint.haloWidth)
    }

    /// `line`'s glyphs set along `path` with the text's middle `middle` pixels
    /// along it: each glyph's centre on the line, rotated to the segment under
    /// it, the em box centred across the line. Nil when a glyph's box leaves the image.
    private static func layAlong(_ line: TextLine, font: TrueTypeFont, on path: LabelPath, middle: Double, anchor: Point,
                                 layerID: String, text: String, paint: Paint, width: Int, height: Int) -> VectorMapLabel? {
        let unit = paint.size / Double(font.unitsPerEm)
        // The baseline sits below the line by half the em box's height less the descent.
        let shift = (line.ascent - line.descent) / 2
        let halfHeight = (line.ascent + line.descent) / 2 + paint.haloWidth
        var glyphs: [VectorMapLabel.GlyphAlongLine] = []
        var boxes: [LabelBox] = []
        glyphs.reserveCapacity(line.glyphs.count)
        boxes.reserveCapacity(line.glyphs.count)
        let start = middle - line.width / 2
        for placed in line.glyphs {
            let advance = Double(font.advanceWidth(ofGlyph: placed.glyph)) * unit
            let (center, angle) = path.point(at: start + placed.x + advance / 2)
            let c = cos(angle), s = sin(angle)
            glyphs.append(.init(glyph: placed.glyph,
                                origin: Point(center.x - c * advance / 2 - s * shift, center.y - s * advance / 2 + c * shift),
                                angle: angle))
            let halfWidth = advance / 2 + paint.haloWidth
            let hx = abs(c) * halfWidth + abs(s) * halfHeight, hy = abs(s) * halfWidth + abs(c) * halfHeight
            let box = LabelBox(minX: center.x - hx, minY: center.y - hy, maxX: center.x + hx, maxY: center.y + hy)
            guard box.isInside(width: Double(width), height: Double(height)) else { return nil }
            boxes.append(box)
        }
        return VectorMapLabel(layerID: layerID, text: text, anchor: anchor, boxes: boxes,
                              layout: .alongLine(glyphs, size: paint.size), color: paint.color, halo: paint.halo, haloWidth: paint.haloWidth)
    }

    /// Draws the placed labels of `layers` (every layer's when nil), each halo
    /// under its text, bottom layer first: the layers' runs of labels in the reverse of their placement.
    func draw(on canvas: inout Canvas, layers: Set<String>? = nil) throws {
        let labels = layers.map { layers in self.labels.filter { layers.contains($0.layerID) } } ?? self.labels
        var outlines: [GlyphKey: Path] = [:]
        var runs: [ArraySlice<VectorMapLabel>] = []
        var start = 0
        for i in labels.indices where i == labels.count - 1 || labels[i + 1].layerID != labels[i].layerID {
            runs.append(labels[start...i])
            start = i + 1
        }
        for var run in runs.reversed() {
            if run.allSatisfy(\.drawsByViewportY) {
                // Top of the view first; at one height the later feature first (MapLibre's `sortFeatures`).
                run = ArraySlice(run.enumerated().sorted { ($0.element.anchor.y, -$0.offset) < ($1.element.anchor.y, -$1.offset) }.map(\.element))
            }
            // MapLibre draws a layer's halos before its text.
            for label in run {
                if case .sdf(let text, let paint, let angle, let at) = label.layout {
                    try SDFTextDrawer.draw(text, at: at, angle: angle, paint: paint, halo: true, on: &canvas)
                } else if case .sdfAlongLine(let glyphs, let paint) = label.layout {
                    for glyph in glyphs { try SDFTextDrawer.draw(glyph.text, at: glyph.at, angle: glyph.angle, paint: paint, halo: true, on: &canvas) }
                }
            }
            for label in run { try draw(label, on: &canvas, outlines: &outlines) }
        }
    }

    /// Draws one label (a signed-distance label's fill only: its halo is drawn before).
    private func draw(_ label: VectorMapLabel, on canvas: inout Canvas, outlines: inout [GlyphKey: Path]) throws {
        switch label.layout {
        case .sdf(let text, let paint, let angle, let at):
            try SDFTextDrawer.draw(text, at: at, angle: angle, paint: paint, halo: false, on: &canvas)
        case .sdfAlongLine(let glyphs, let paint):
            for glyph in glyphs { try SDFTextDrawer.draw(glyph.text, at: glyph.at, angle: glyph.angle, paint: paint, halo: false, on: &canvas) }
        case .lines(let lines):
            for (line, origin) in lines {
                try canvas.draw(line, at: origin, color: label.color, halo: label.halo, haloWidth: label.haloWidth)
            }
        case .alongLine(let glyphs, let size):
            var path = Path()
            for glyph in glyphs {
                let key = GlyphKey(glyph: glyph.glyph, size: size)
                let outline = try outlines[key] ?? {
                    let made = try font.path(ofGlyph: glyph.glyph, size: size, origin: Point(0, 0))
                    outlines[key] = made
                    return made
                }()
                path.append(Self.transformed(outline, to: glyph.origin, angle: glyph.angle))
            }
            if let halo = label.halo {
                try canvas.stroke(path, color: halo, style: StrokeStyle(width: 2 * label.haloWidth, join: .round, cap: .round))
            }
            try canvas.fill(path, color: label.color)
        }
    }

    private struct GlyphKey: Hashable {
        var glyph: Int
        var size: Double
    }

    /// `path` rotated by `angle` about (0, 0), then moved to `origin`.
    static func transformed(_ path: Path, to origin: Point, angle: Double) -> Path {
        let c = cos(angle), s = sin(angle)
        func map(_ p: Point) -> Point { Point(origin.x + c * p.x - s * p.y, origin.y + s * p.x + c * p.y) }
        var out = Path()
        for element in path.elements {
            switch element {
            case .move(let p): out.move(to: map(p))
            case .line(let p): out.line(to: map(p))
            case .quad(let control, let p): out.quad(to: map(p), control: map(control))
            case .cubic(let c1, let c2, let p): out.cubic(to: map(p), control1: map(c1), control2: map(c2))
            case .close: out.close()
            }
        }
        return out
    }
}
