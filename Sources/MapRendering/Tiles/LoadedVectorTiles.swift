import Foundation

/// Vector tiles fetched one by one as `{z}/{x}/{y}` files, by the loaders
/// raster sources use: a folder (``DirectoryTileLoader``) or an HTTP URL
/// template (`HTTPTileLoader` in URLSchemeKit).
///
/// A loader answers an empty body for a tile the set lacks (a missing file,
/// an HTTP 404 or 204): an empty tile, drawn as background, as a PMTiles
/// archive's absent tile. A body starting with gzip's magic (as tiles are
/// stored in MBTiles and served by many servers) is inflated with our own
/// `Inflater`, within ``VectorTileLimits/inflatedTileBytes``; the stored
/// size is held to ``VectorTileLimits/compressedTileBytes`` by the loader.
public struct LoadedVectorTiles: VectorTileProviding {
    /// Fetches each tile's bytes.
    public let loader: any TileLoading
    /// The zooms tiles exist at.
    public let zoomRange: ClosedRange<Int>
    /// The limits each tile is held to.
    public let limits: VectorTileLimits
    /// How the tiles are encoded (MVT unless told).
    public let encoding: VectorTileEncoding
    /// The set's metadata (see ``TileSetMetadata``).
    public let tileSetMetadata: TileSetMetadata
    /// How the set numbers its rows (the metadata's `scheme`, else `xyz`).
    public var scheme: TileScheme { tileSetMetadata.scheme ?? .xyz }

    /// Tiles from `loader` at the zooms of `zoomRange`, described by `metadata`, in `encoding`.
    public init(loader: any TileLoading, zoomRange: ClosedRange<Int>, metadata: TileSetMetadata = TileSetMetadata(),
                limits: VectorTileLimits = .default, encoding: VectorTileEncoding = .mvt) {
        self.loader = loader
        self.zoomRange = zoomRange
        self.tileSetMetadata = metadata
        self.limits = limits
        self.encoding = encoding
    }

    /// The metadata's `bounds`, if it states them: tiles wholly outside are
    /// not requested, as MapLibre requests them.
    public var bounds: GeoBounds? { tileSetMetadata.bounds }

    /// `attribution` and `vector_layers` from the set's metadata.
    public func metadata() throws -> [String: Any] {
        tileSetMetadata.object
    }

    /// The tile: fetched, inflated when gzipped, decoded. Nil for an empty
    /// body and for coordinates outside the zoom range or the world. Throws
    /// ``VectorTileError`` naming the tile for a body that cannot be read, and
    /// the loader's `MapTileError` (naming the tile and where it was looked
    /// for) for one that cannot be had.
    public func vectorTile(at tile: TileCoordinate, cancellation: RenderCancellation) throws -> VectorTile? {
        guard zoomRange.contains(tile.z), tile.z <= 30, tile.x >= 0, tile.y >= 0, tile.x < 1 << tile.z, tile.y < 1 << tile.z else { return nil }
        if let bounds, !bounds.overlaps(tile) { return nil }
        let stored = try loader.tile(scheme.stored(tile), cancellation: cancellation)
        guard !stored.isEmpty else { return nil }
        do {
            guard stored.count <= limits.compressedTileBytes else {
                throw VectorTileError(.limitExceeded, "it is \(stored.count) bytes stored, over the limit of \(limits.compressedTileBytes)")
            }
            let bytes = try PMTilesCompression.unknown.decompress(stored, limit: limits.inflatedTileBytes, what: "its data")
            return try bytes.withUnsafeBufferPointer { try VectorTile(bytes: $0, encoding: encoding, limits: limits) }
        } catch let error as VectorTileError {
            throw error.prefixed("tile \(tile)")
        }
    }
}
