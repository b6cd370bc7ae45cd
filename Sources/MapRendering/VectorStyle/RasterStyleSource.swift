/// What a style's `raster` or `raster-dem` source says beyond what every
/// tiled source says (``VectorStyleSource``): the tiles' size in points and,
/// for elevation, how heights are packed into pixels.
public struct RasterStyleSource: Sendable, Equatable {
    /// `encoding` of a `raster-dem` source: how a pixel's red, green and blue give metres.
    public enum Encoding: String, Sendable, Equatable {
        /// Mapbox Terrain-RGB: (R·65536 + G·256 + B)·0.1 − 10000 (the default).
        case mapbox
        /// Terrarium: R·256 + G + B/256 − 32768.
        case terrarium

        /// The elevation in metres of a pixel's red, green and blue bytes.
        public func elevation(red: UInt8, green: UInt8, blue: UInt8) -> Double {
            let (r, g, b) = (Double(red), Double(green), Double(blue))
            switch self {
            case .mapbox: return (r * 65536 + g * 256 + b) * 0.1 - 10000
            case .terrarium: return r * 256 + g + b / 256 - 32768
            }
        }
    }

    /// `tileSize`: a tile's side in points (default 512).
    public var tileSize: Int = 512
    /// `encoding`, for a `raster-dem` source; nil for a `raster` one.
    public var encoding: Encoding?

    /// Options as given, MapLibre's defaults for the rest (512-point tiles).
    public init(tileSize: Int = 512, encoding: Encoding? = nil) {
        self.tileSize = tileSize
        self.encoding = encoding
    }
}
