import Synchronization

/// The prepared groups (``PreparedLayerGroup``) of tile layers by tile, style
/// layer and zoom, shared between the snapshots of one renderer, or of every
/// renderer of one ``VectorTileSource`` (each of its styles under its own
/// ``Key/style``), so drawing the same tiles again skips filtering and paint
/// evaluation, as MapLibre's re-render reuses its per-tile buckets. An entry is used only for the very
/// tile layer it was made from (held weakly: a tile evicted from the tile
/// cache and decoded again is prepared again, and no tile is kept alive here).
/// Bounded by the parts it holds; past the capacity it starts over. Safe to
/// use from several threads.
final class PreparedLayerCache: Sendable {
    /// A style layer (by its index in the style) on a tile, evaluated at a style zoom.
    struct Key: Hashable, Sendable {
        /// Which of the styles sharing the cache the layer index is of (a
        /// source's look and labels, see ``VectorTileSource/preparedStyle(for:labels:)``); 0 for a renderer's own cache.
        var style: Int = 0
        var tile: TileCoordinate
        var layer: Int
        var zoom: Double
    }

    private struct Entry {
        weak var tileLayer: VectorTileLayer?
        var groups: [PreparedLayerGroup]
        var cost: Int
    }

    /// What the cache has answered since it was made (for tests and tuning).
    struct Statistics: Equatable, Sendable {
        /// Groups found kept for their very tile layer.
        var hits = 0
        /// Groups prepared because none were kept (or their tile layer was decoded anew).
        var preparations = 0
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var cost = 0
        var statistics = Statistics()
    }

    /// Most parts (plus groups) kept: 4 bytes each, about 8 MiB of indices.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 1 << 21) {
        self.capacity = capacity
    }

    /// The groups of `tileLayer` for `key`, made by `prepare` and kept when
    /// absent; what `prepare` throws (a cancellation) is rethrown, nothing kept.
    func groups(for key: Key, of tileLayer: VectorTileLayer, orPrepare prepare: () throws -> [PreparedLayerGroup]) rethrows -> [PreparedLayerGroup] {
        let cached: [PreparedLayerGroup]? = state.withLock { state in
            guard let entry = state.entries[key], entry.tileLayer === tileLayer else {
                state.statistics.preparations += 1
                return nil
            }
            state.statistics.hits += 1
            return entry.groups
        }
        if let cached { return cached }
        let groups = try prepare()
        let cost = groups.reduce(1) { $0 + $1.parts.count + 16 }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.cost -= old.cost }
            guard cost <= capacity else { return }
            if state.cost + cost > capacity { state = State(statistics: state.statistics) }
            state.entries[key] = Entry(tileLayer: tileLayer, groups: groups, cost: cost)
            state.cost += cost
        }
        return groups
    }

    /// Entries held now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Hits and preparations so far.
    var statistics: Statistics { state.withLock { $0.statistics } }
}
