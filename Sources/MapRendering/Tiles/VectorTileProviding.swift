import Foundation

/// Where a vector source's tiles come from: a PMTiles archive
/// (``PMTilesArchive``), or a set of `{z}/{x}/{y}` tiles fetched one by one
/// from a folder or an HTTP URL template (``LoadedVectorTiles``). The vector
/// renderer asks only this of them.
public protocol VectorTileProviding: Sendable {
    /// The zooms tiles exist at. Views past the top are drawn from its last
    /// level (over-zoom); views below the bottom from its first.
    var zoomRange: ClosedRange<Int> { get }
    /// The area the tiles have data for, when they say (a PMTiles header's
    /// bounds, a TileJSON's `bounds`): a view outside it is answered with a
    /// warning (``VectorTileSource/coverageWarnings(for:)``).
    var bounds: GeoBounds? { get }
    /// The tile set's metadata as a JSON object: `attribution`, `vector_layers`
    /// (what the schema is told from), `name`…; empty when there is none.
    func metadata() throws -> [String: Any]
    /// The tile, decoded; nil when the set has no such tile (an empty tile).
    /// A source that waits (on a network) gives up soon after `cancellation`
    /// fires. Throws ``VectorTileError`` naming the tile when it cannot be read.
    func vectorTile(at tile: TileCoordinate, cancellation: RenderCancellation) throws -> VectorTile?
}

extension VectorTileProviding {
    /// Unknown, unless a source says.
    public var bounds: GeoBounds? { nil }
}

extension PMTilesArchive: VectorTileProviding {
    /// The header's bounds; nil when it states none (all zero) or a box the wrong way round.
    public var bounds: GeoBounds? {
        GeoBounds.checked(west: header.bounds.west, south: header.bounds.south, east: header.bounds.east, north: header.bounds.north)
    }

    /// The header's zoom range (a header whose minimum is above its maximum
    /// counts as its minimum alone).
    public var zoomRange: ClosedRange<Int> {
        header.minZoom...max(header.minZoom, header.maxZoom)
    }

    /// The tile, read from the archive (see ``vectorTile(at:)``); a source
    /// reading over a network gives up its reads soon after `cancellation` fires.
    public func vectorTile(at tile: TileCoordinate, cancellation: RenderCancellation) throws -> VectorTile? {
        try vectorTile(at: tile, cancellation: Optional(cancellation))
    }
}
