/// A source of pictures bound to a style's source name, for
/// ``VectorMapRenderer``'s `raster` and `hillshade` layers.
public enum MapRasterSource: Sendable {
    /// A `raster` source's tiles.
    case tiles(RasterTileSource)
    /// A `raster-dem` source's elevation tiles (their `options.encoding` says how to read them).
    case elevation(RasterTileSource)
    /// An `image` source's picture.
    case image(ImageSource)
}
