/// A source of a style: its name, its type, and what the style says about
/// where its tiles come from (the renderer may bind another archive to a
/// `vector` source's name).
public struct VectorStyleSource: Sendable, Equatable {
    /// The source's type and what only that type has.
    public enum Kind: Sendable, Equatable {
        /// `vector`: tiles from ``VectorStyleSource/url`` or ``VectorStyleSource/tiles``.
        case vector
        /// `geojson`: features cut into tiles by ``GeoJSONTiles``.
        case geojson(GeoJSONStyleSource)
        /// `raster`: image tiles (PNG, JPEG, WebP) drawn by `raster` layers.
        case raster(RasterStyleSource)
        /// `raster-dem`: elevation tiles drawn by `hillshade` layers.
        case rasterDEM(RasterStyleSource)
        /// `image`, `video` or `canvas`: one picture pinned to four
        /// coordinates, drawn by `raster` layers (a video's first frame).
        case image(ImageStyleSource)
    }

    /// The source's key in the style's `sources`.
    public var name: String
    /// Its `url` (a TileJSON or `pmtiles://` URL), if given.
    public var url: String?
    /// Its `tiles` URL templates, if given.
    public var tiles: [String]
    /// Its `minzoom`, if given.
    public var minimumZoom: Int?
    /// Its `maxzoom`, if given: tiles past it are drawn over-zoomed.
    public var maximumZoom: Int?
    /// Its `attribution` text, if given.
    public var attribution: String?
    /// Its type: `vector` unless the style says otherwise.
    public var kind: Kind = .vector
    /// Its `scheme` (how its tiles' rows are numbered), if given: a TileJSON
    /// `url`'s applies then, else `xyz`.
    public var scheme: TileScheme?
    /// Its `bounds`, if given: tiles wholly outside are not requested. A
    /// TileJSON `url`'s apply when the style gives none.
    public var bounds: GeoBounds?
    /// Its tiles' `encoding` (a `vector` source's): `mvt` unless it says `mlt`.
    public var encoding: VectorTileEncoding = .mvt

    /// True for a source of pictures (`raster`, `raster-dem`, `image`), drawn by `raster` and `hillshade` layers.
    public var isPicture: Bool {
        switch kind {
        case .raster, .rasterDEM, .image: return true
        case .vector, .geojson: return false
        }
    }
}
