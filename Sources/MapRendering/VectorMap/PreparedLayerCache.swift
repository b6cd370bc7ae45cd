import Synchronization

/// The prepared groups (``PreparedLayerGroup``) of tile layers by tile, style
/// layer and zoom, shared between the snapshots of one renderer, so drawing
/// the same tiles again skips filtering and paint evaluation, as MapLibre's
/// re-render reuses its per-tile buckets. An entry is used only for the very
/// tile layer it was made from (held weakly: a tile evicted from the tile
/// cache and decoded again is prepared again, and no tile is kept alive here).
/// Bounded by the parts it holds; past the capacity it starts over. Safe to
/// use from several threads.
final class PreparedLayerCache: Sendable {
    /// A style layer (by its index in the style) on a tile, evaluated at a style zoom.
    struct Key: Hashable, Sendable {
        var tile: TileCoordinate
        var layer: Int
        var zoom: Double
    }

    private struct Entry {
        weak var tileLayer: VectorTileLayer?
        var groups: [PreparedLayerGroup]
        var cost: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var cost = 0
    }

    /// Most parts (plus groups) kept: 4 bytes each, about 8 MiB of indices.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 1 << 21) {
        self.capacity = capacity
    }

    /// The groups of `tileLayer` for `key`, made by `prepare` and kept when absent.
    func groups(for key: Key, of tileLayer: VectorTileLayer, orPrepare prepare: () -> [PreparedLayerGroup]) -> [PreparedLayerGroup] {
        let cached: [PreparedLayerGroup]? = state.withLock { state in
            guard let entry = state.entries[key], entry.tileLayer === tileLayer else { return nil }
            return entry.groups
        }
        if let cached { return cached }
        let groups = prepare()
        let cost = groups.reduce(1) { $0 + $1.parts.count + 16 }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.cost -= old.cost }
            guard cost <= capacity else { return }
            if state.cost + cost > capacity { state = State() }
            state.entries[key] = Entry(tileLayer: tileLayer, groups: groups, cost: cost)
            state.cost += cost
        }
        return groups
    }

    /// Entries held now.
    var count: Int { state.withLock { $0.entries.count } }
}
