/// Bounds on the pictures a `raster`, `raster-dem` or `image` source may
/// make the renderer decode, checked from each file's header before its
/// pixels are allocated.
///
/// A 512-point tile at twice the density is 1024×1024; an image source is
/// one picture stretched over its four corners.
public struct RasterSourceLimits: Equatable, Sendable {
    /// Most pixels (width × height) of one raster or elevation tile. Default 2048×2048 (4 194 304).
    public var tilePixels: Int
    /// Most pixels of an `image` source's picture. Default 4096×4096 (16 777 216).
    public var imagePixels: Int
    /// Most pixels of all the tiles one layer decodes for a snapshot (64 MB
    /// as RGBA). Default 4096×4096 (16 777 216): sixty-four 512-pixel tiles,
    /// or sixteen 1024-pixel ones.
    public var tilePixelsPerLayer: Int

    /// The documented defaults.
    public static let `default` = RasterSourceLimits()

    /// Limits with the documented defaults, any of them overridden.
    public init(tilePixels: Int = 2048 * 2048, imagePixels: Int = 4096 * 4096, tilePixelsPerLayer: Int = 4096 * 4096) {
        self.tilePixels = tilePixels
        self.imagePixels = imagePixels
        self.tilePixelsPerLayer = tilePixelsPerLayer
    }
}
