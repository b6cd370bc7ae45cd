/// How a vector source's tiles are encoded: a style source's `encoding`
/// (MapLibre's `"mvt"`, the default, or `"mlt"`).
public enum VectorTileEncoding: String, Sendable, CaseIterable {
    /// Mapbox Vector Tiles 2.1 (protobuf).
    case mvt
    /// MapLibre Tiles (maplibre-tile-spec v1, columnar).
    case mlt
}
