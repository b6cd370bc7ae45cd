import Synchronization

/// Decoded vector tiles kept in memory by source and tile, the least recently
/// used evicted first once their decoded bytes pass the capacity. Decoding a
/// dense z14 tile costs milliseconds; a pan or a second snapshot over the
/// same tiles reuses them. Safe to use from several threads.
public final class VectorTileCache: Sendable {
    /// A tile of a named source.
    public struct Key: Hashable, Sendable {
        /// The source's name (an archive's name in the session's environment).
        public var source: String
        /// The tile.
        public var tile: TileCoordinate

        /// The key of `tile` in `source`.
        public init(source: String, tile: TileCoordinate) {
            self.source = source
            self.tile = tile
        }
    }

    /// Entries in a doubly linked list threaded through an array (most recent
    /// at `head`), so a hit and an eviction are O(1) without a node object each.
    private struct State {
        struct Node {
            var key: Key
            var tile: VectorTile
            var cost: Int
            var previous: Int
            var next: Int
        }

        var index = [Key: Int]()
        var nodes = [Node]()
        var free = [Int]()
        var head = -1, tail = -1
        var totalCost = 0

        mutating func unlink(_ i: Int) {
            let (previous, next) = (nodes[i].previous, nodes[i].next)
            if previous >= 0 { nodes[previous].next = next } else { head = next }
            if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        }

        mutating func pushFront(_ i: Int) {
            nodes[i].previous = -1
            nodes[i].next = head
            if head >= 0 { nodes[head].previous = i }
            head = i
            if tail < 0 { tail = i }
        }

        mutating func remove(_ i: Int) {
            unlink(i)
            index[nodes[i].key] = nil
            totalCost -= nodes[i].cost
            nodes[i].tile = VectorTile(layers: [], skippedCount: 0)  // let the layers go now
            free.append(i)
        }
    }

    /// Most decoded bytes kept.
    public let capacity: Int
    private let state = Mutex(State())

    /// A cache holding at most `capacity` decoded bytes (default 64 MiB,
    /// about a hundred dense z14 tiles).
    public init(capacity: Int = 64 << 20) {
        self.capacity = capacity
    }

    /// The tile stored for `key`, marked as just used; nil when absent.
    public func tile(for key: Key) -> VectorTile? {
        state.withLock { state in
            guard let i = state.index[key] else { return nil }
            state.unlink(i)
            state.pushFront(i)
            return state.nodes[i].tile
        }
    }

    /// Stores `tile` under `key` (replacing what was there), evicting the
    /// least recently used tiles past the capacity. A tile larger than the
    /// whole capacity is not kept.
    public func insert(_ tile: VectorTile, for key: Key) {
        let cost = tile.decodedByteCount
        state.withLock { state in
            if let old = state.index[key] { state.remove(old) }
            guard cost <= capacity else { return }
            while state.totalCost + cost > capacity, state.tail >= 0 { state.remove(state.tail) }
            let node = State.Node(key: key, tile: tile, cost: cost, previous: -1, next: -1)
            let i: Int
            if let reused = state.free.popLast() {
                i = reused
                state.nodes[i] = node
            } else {
                i = state.nodes.count
                state.nodes.append(node)
            }
            state.index[key] = i
            state.totalCost += cost
            state.pushFront(i)
        }
    }

    /// The tile for `key`, decoded by `decode` and stored when absent. Two
    /// threads missing the same key at once may both decode; one result is kept.
    public func tile(for key: Key, orDecode decode: () throws -> VectorTile) rethrows -> VectorTile {
        if let cached = tile(for: key) { return cached }
        let tile = try decode()
        insert(tile, for: key)
        return tile
    }

    /// Decoded bytes held now.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// Tiles held now.
    public var count: Int { state.withLock { $0.index.count } }

    /// Drops every tile.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
