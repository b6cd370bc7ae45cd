import Foundation

/// A decoded vector tile (a Mapbox Vector Tile 2.1, or a MapLibre Tile
/// decoded into the same model): its layers by name.
///
///     let tile = try VectorTile(data)
///     for feature in tile.layer(named: "water")?.features ?? [] { … }
///
/// Decoding checks the whole tile: a fatal fault (a bad wire type, an index
/// out of range, a malformed command) refuses it with a ``VectorTileError``;
/// a recoverable one (a feature without a type or geometry, an odd tag list,
/// a second layer of the same name) drops what is wrong and counts it in
/// ``skippedCount``.
public struct VectorTile: Sendable {
    /// The layers, in tile order.
    public let layers: [VectorTileLayer]
    /// Features and layers dropped for a recoverable fault.
    public let skippedCount: Int

    /// Decodes `data` in `encoding` (MVT unless told), bounded by `limits` (features and vertices per tile).
    public init(_ data: Data, encoding: VectorTileEncoding = .mvt, limits: VectorTileLimits = .default) throws {
        self = try data.withUnsafeBytes { raw in
            try VectorTile(bytes: raw.assumingMemoryBound(to: UInt8.self), encoding: encoding, limits: limits)
        }
    }

    /// Decodes borrowed bytes in `encoding`, bounded by `limits`. A MapLibre
    /// Tile (`.mlt`) decodes into the same layers, features and values.
    public init(bytes: UnsafeBufferPointer<UInt8>, encoding: VectorTileEncoding = .mvt, limits: VectorTileLimits = .default) throws {
        switch encoding {
        case .mvt: self = try VectorTileDecoder(limits: limits).decode(bytes)
        case .mlt: self = try MLTDecoder(limits: limits).decode(bytes)
        }
    }

    init(layers: [VectorTileLayer], skippedCount: Int) {
        self.layers = layers
        self.skippedCount = skippedCount
    }

    /// The layer called `name`, or nil.
    public func layer(named name: String) -> VectorTileLayer? { layers.first { $0.name == name } }

    /// Features over all layers.
    public var featureCount: Int { layers.reduce(0) { $0 + $1.featureCount } }

    /// Approximate bytes held in memory (a cache's cost).
    public var decodedByteCount: Int { layers.reduce(64) { $0 + $1.decodedByteCount } }
}
