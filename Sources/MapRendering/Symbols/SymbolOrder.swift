import Raster

/// The order one symbol layer's point symbols are placed and drawn in, as
/// MapLibre orders them (`symbol_bucket.ts`, `placement.ts`):
///
/// - with a data-driven `symbol-sort-key` (and `symbol-z-order` not
///   `viewport-y`), symbols are placed lowest key first, across the layer's
///   tiles, so they win collisions, and drawn in that order, so higher keys lie on top;
/// - with `symbol-z-order: viewport-y`, each tile's symbols are placed bottom
///   of the view first (at one height, the earlier feature first);
/// - symbols that may overlap (`*-allow-overlap`, `*-ignore-placement`) are
///   drawn top of the view first when the z-order is `viewport-y`, or `auto`
///   without a sort key; otherwise in placement order.
///
/// Without either, symbols are placed as they are read (``isDeferred`` false).
struct SymbolOrder {
    /// Whether symbols are sorted before placement (else placed as read).
    let isDeferred: Bool
    /// Whether placement sorts by the data-driven sort key (else by viewport y).
    let bySortKey: Bool
    /// Whether the layer's symbols are drawn top of the view first.
    let drawsByViewportY: Bool
    /// `text-optional`: an icon may stand without its text.
    let textOptional: Bool
    private let style: SymbolPlacementStyle
    private let zoom: Double

    /// The order of `style`'s symbols at the style zoom `zoom`.
    init(_ style: SymbolLayerStyle, zoom: Double) {
        let order = style.order
        let none = NoStyleFeature()
        let z = SymbolTextStyle.layoutZoom(zoom)
        let zOrder = order.zOrder.value(atZoom: z, for: none)
        // MapLibre sorts by key only when the key varies by feature (`!sortKey.isConstant()`).
        bySortKey = zOrder != .viewportY && order.sortKey.constantValue == nil
        let icon = style.icon
        let canOverlap = style.allowOverlap.value(atZoom: z, for: none) || style.ignorePlacement.value(atZoom: z, for: none)
            || icon.allowOverlap.value(atZoom: z, for: none) || icon.ignorePlacement.value(atZoom: z, for: none)
        drawsByViewportY = canOverlap && (zOrder == .viewportY || zOrder == .auto && !bySortKey)
        isDeferred = bySortKey || zOrder == .viewportY
        textOptional = order.textOptional.value(atZoom: z, for: none)
        self.style = order
        self.zoom = zoom
    }

    /// A feature of the layer: its tile's index and its own in the tile.
    struct FeatureKey: Hashable {
        var tile: Int
        var feature: Int
    }

    /// A symbol waiting for placement: its text (and icon) or its icon alone.
    enum Kind<Text> {
        case text(Text)
        case icon
    }

    /// A symbol waiting for placement, with what it is sorted by.
    struct Pending<Text> {
        var kind: Kind<Text>
        var key: SymbolIconPlacer.SymbolKey
        /// The sort key, or (by viewport y) minus the anchor's y.
        var rank: Double
    }

    /// `feature`'s `symbol-sort-key` (0 when it has none, as MapLibre's default).
    func sortKey(for feature: some StyleFeature) -> Double {
        style.sortKey.value(atZoom: SymbolTextStyle.layoutZoom(zoom), for: feature) ?? 0
    }

    /// The symbol `kind` at `key` anchored at `point` (output pixels), ranked
    /// by `sortKey` (its feature's) or by its height in the view.
    func pending<Text>(_ kind: Kind<Text>, key: SymbolIconPlacer.SymbolKey, at point: Point, sortKey: Double?) -> Pending<Text> {
        Pending(kind: kind, key: key, rank: bySortKey ? sortKey ?? 0 : -point.y)
    }

    /// `symbols` in placement order: by sort key across tiles (ties in reading
    /// order), or tile by tile bottom of the view first (ties: earlier feature first).
    func sorted<Text>(_ symbols: [Pending<Text>]) -> [Pending<Text>] {
        if bySortKey {
            return symbols.sorted { a, b in
                (a.rank, a.key.tile, a.key.feature, a.key.anchor) < (b.rank, b.key.tile, b.key.feature, b.key.anchor)
            }
        }
        return symbols.sorted { a, b in
            (a.key.tile, a.rank, a.key.feature, a.key.anchor) < (b.key.tile, b.rank, b.key.feature, b.key.anchor)
        }
    }

    /// `text-translate` for `feature` in output pixels (`scale` per CSS pixel), turned
    /// with the map (`cos`, `sin`: the tile's turn) unless anchored to the viewport.
    func textTranslation(for feature: some StyleFeature, cos: Double, sin: Double, scale: Double) -> Point {
        let t = style.textTranslate.value(atZoom: zoom, for: feature)
        let turned = SymbolPlacementStyle.translation(t, anchor: style.textTranslateAnchor.value(atZoom: zoom, for: feature), cos: cos, sin: sin)
        return Point(turned.x * scale, turned.y * scale)
    }
}
