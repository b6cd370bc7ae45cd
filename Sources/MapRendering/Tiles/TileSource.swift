/// Fetches the encoded image (PNG or JPEG) of one tile. Implementations: files in a
/// directory (`DirectoryTileLoader`), or an HTTP template through URLSession
/// (`HTTPTileLoader` in URLSchemeKit). Called on a render queue; may block.
public protocol TileLoading: Sendable {
    /// The tile's bytes; throws `MapTileError.unavailable` (or any error) when it cannot be had.
    func tile(_ coordinate: TileCoordinate) throws -> [UInt8]
    /// The tile's bytes, given up on (throwing) soon after `cancellation`
    /// fires: a loader that waits on a network registers a handler with
    /// `cancellation.onCancel(_:)` that ends its wait, so a cancelled or
    /// timed-out snapshot does not wait for its tiles.
    /// By default, `tile(coordinate)`.
    func tile(_ coordinate: TileCoordinate, cancellation: RenderCancellation) throws -> [UInt8]
}

extension TileLoading {
    /// The tile, ignoring `cancellation`: for loaders that answer at once (a directory, a test).
    public func tile(_ coordinate: TileCoordinate, cancellation: RenderCancellation) throws -> [UInt8] {
        try tile(coordinate)
    }
}

/// A named set of raster tiles and what to credit for them.
public struct TileSource: Sendable {
    /// Fetches each tile's bytes.
    public var loader: any TileLoading
    /// Drawn in the bottom-right corner of every snapshot (tile providers require it).
    public var attribution: String
    /// The deepest zoom the source has tiles for.
    public var maximumZoom: Int

    /// A source; `maximumZoom` defaults to 19, as most slippy-map servers.
    public init(loader: any TileLoading, attribution: String, maximumZoom: Int = 19) {
        self.loader = loader
        self.attribution = attribution
        self.maximumZoom = maximumZoom
    }
}

/// A tile that could not be had or used; the message names the tile.
public enum MapTileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The tile could not be fetched; the string says why.
    case unavailable(TileCoordinate, String)
    /// The tile's bytes are not a PNG or JPEG the decoder accepts; the string says why.
    case undecodable(TileCoordinate, String)

    /// A sentence naming the tile and the reason.
    public var description: String {
        switch self {
        case let .unavailable(tile, reason): return "map tile \(tile) is unavailable: \(reason)"
        case let .undecodable(tile, reason): return "map tile \(tile) is not a usable image: \(reason)"
        }
    }
}
