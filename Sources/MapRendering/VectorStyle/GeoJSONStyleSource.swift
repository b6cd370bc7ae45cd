/// What a style's `geojson` source says: its data (inline, or a URL or path
/// the caller loads and reads with ``GeoJSON/init(data:limits:promoteId:)``),
/// `promoteId`, and how it is cut into tiles (`maxzoom`, `buffer`, `tolerance`).
public struct GeoJSONStyleSource: Sendable, Equatable {
    /// Where the features are.
    public enum Data: Sendable, Equatable {
        /// The document written in the style, already read.
        case inline(GeoJSON)
        /// A URL or path to load (relative paths are the caller's to resolve).
        case url(String)
    }

    /// The source's `data`.
    public var data: Data
    /// The property whose value becomes each feature's id (`promoteId`), if given.
    public var promoteId: String?
    /// `maxzoom`, `buffer` and `tolerance`, MapLibre's defaults where not given.
    public var options: GeoJSONTileOptions
    /// How its points are clustered (`cluster: true` and the `cluster…`
    /// options), nil when they are not.
    public var cluster: GeoJSONClusterOptions?

    /// The tiles of `document` (the inline data, or what the caller loaded from
    /// the URL), cut with the source's options.
    public func tiles(_ document: GeoJSON) -> GeoJSONTiles {
        GeoJSONTiles(document, options: options)
    }

    /// The tiles the style draws from `document`: its points clustered when
    /// the source says `cluster: true`, else ``tiles(_:)``.
    /// - Throws: ``GeoJSONError`` when clustering would pass `limits`.
    public func provider(_ document: GeoJSON, limits: GeoJSONLimits = .default) throws -> any VectorTileProviding {
        guard let cluster else { return tiles(document) }
        return try GeoJSONClusterTiles(document, cluster: cluster, tileOptions: options, limits: limits)
    }
}
