import Raster
import Synchronization

/// The decoded pictures of one ``RasterTileSource`` kept between draws, as
/// MapLibre's source cache keeps loaded tiles (and ``VectorTileCache`` keeps
/// decoded vector tiles), with what layers make of them: the hillshade
/// layer's prepared slopes (``HillshadeLayerDrawer/Slopes``) by tile and by
/// which of its neighbours lent it their borders. Slopes are only ever made
/// from pictures held here, and both are let go together, so a slope entry
/// never outlives the pictures it came from. Bounded by the bytes held: past
/// the capacity it starts over. Safe to use from several threads.
final class RasterTileMemory: Sendable {
    /// A tile's prepared slopes, with the neighbours (a bit per direction) whose borders they used.
    private struct PreparedSlopes {
        var neighbours: Int
        var slopes: HillshadeLayerDrawer.Slopes
    }

    private struct State {
        var pictures: [TileCoordinate: Bitmap] = [:]
        var slopes: [TileCoordinate: PreparedSlopes] = [:]
        var bytes = 0
        /// How many times it has started over.
        var generation = 0
        /// Slopes made because none were kept (for tests).
        var slopesPrepared = 0
    }

    /// Most bytes of pictures and slopes held: 32 MiB, 128 RGBA tiles of 256 pixels or 32 of 512.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 32 << 20) {
        self.capacity = capacity
    }

    /// The picture of `tile` kept, else nil.
    func picture(_ tile: TileCoordinate) -> Bitmap? {
        state.withLock { $0.pictures[tile] }
    }

    /// Keeps `picture` as the picture of `tile`; letting everything go first
    /// when it would pass the capacity (slopes made from the old pictures go with them).
    func keep(_ picture: Bitmap, for tile: TileCoordinate) {
        let cost = picture.pixels.count
        state.withLock { state in
            guard state.pictures[tile] == nil, cost <= capacity else { return }
            if state.bytes + cost > capacity { state = State(generation: state.generation + 1, slopesPrepared: state.slopesPrepared) }
            state.pictures[tile] = picture
            state.bytes += cost
        }
    }

    /// Slopes made so far because none were kept for their tile and neighbours.
    var slopesPrepared: Int { state.withLock { $0.slopesPrepared } }

    /// How many times it has started over: read before the pictures a layer
    /// uses, so what is made from them is kept only if they are all still held.
    var generation: Int { state.withLock { $0.generation } }

    /// The slopes of `tile` prepared with the borders of `neighbours`, made by
    /// `prepare` and kept when absent; kept only while nothing was let go
    /// since `generation` (when the pictures they come from were read).
    func slopes(of tile: TileCoordinate, neighbours: Int, madeSince generation: Int,
                orPrepare prepare: () -> HillshadeLayerDrawer.Slopes) -> HillshadeLayerDrawer.Slopes {
        let kept: HillshadeLayerDrawer.Slopes? = state.withLock { state in
            guard let entry = state.slopes[tile], entry.neighbours == neighbours else {
                state.slopesPrepared += 1
                return nil
            }
            return entry.slopes
        }
        if let kept { return kept }
        let slopes = prepare()
        state.withLock { state in
            // A start-over since the pictures were read would leave these beside pictures read again.
            guard state.generation == generation, state.pictures[tile] != nil else { return }
            let cost = slopes.texels.count
            if let old = state.slopes.removeValue(forKey: tile) { state.bytes -= old.slopes.texels.count }
            guard state.bytes + cost <= capacity else { return }
            state.slopes[tile] = PreparedSlopes(neighbours: neighbours, slopes: slopes)
            state.bytes += cost
        }
        return slopes
    }
}
