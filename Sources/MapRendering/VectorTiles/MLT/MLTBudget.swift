/// What one MapLibre Tile may still cost while it is decoded: values made
/// from its streams (a run-length or Morton stream expands a few bytes into
/// many), features and vertices. Each is charged before the array that holds
/// it is made, so a hostile count is an error, never an allocation.
struct MLTBudget {
    let limits: VectorTileLimits
    /// Decoded stream values left: two per allowed vertex and one per allowed
    /// feature (real tiles spend about that on their vertex buffer and a few
    /// values a feature on the rest). At 8 bytes a value, with a copy while
    /// a stream is transformed, about 130 MB at the default limits.
    private(set) var values: Int
    private(set) var features: Int
    private(set) var vertices: Int

    init(limits: VectorTileLimits) {
        self.limits = limits
        values = 2 * limits.verticesPerTile + limits.featuresPerTile
        features = limits.featuresPerTile
        vertices = limits.verticesPerTile
    }

    /// Takes `count` decoded values (`what` names them in the error).
    mutating func charge(_ count: Int, _ what: String) throws {
        guard count <= values else {
            throw VectorTileError(.limitExceeded, "decoding \(count) \(what) would pass the tile's allowance of decoded values (\(2 * limits.verticesPerTile + limits.featuresPerTile), from its vertex and feature limits)")
        }
        values -= count
    }

    /// Takes a layer's `count` features.
    mutating func chargeFeatures(_ count: Int) throws {
        guard count <= features else {
            throw VectorTileError(.limitExceeded, "the tile holds more than \(limits.featuresPerTile) features (the limit)")
        }
        features -= count
    }

    /// Takes a layer's `count` vertices.
    mutating func chargeVertices(_ count: Int) throws {
        guard count <= vertices else {
            throw VectorTileError(.limitExceeded, "the tile holds more than \(limits.verticesPerTile) vertices (the limit)")
        }
        vertices -= count
    }
}
