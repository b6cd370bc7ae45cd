/// A `raster` layer's paint properties: how the texels of a `raster` or
/// `image` source are sampled and recoloured (MapLibre's raster shader).
public struct RasterLayerStyle: Sendable {
    /// `raster-resampling`: how a texel is read between texel centres.
    public enum Resampling: String, Sendable {
        /// Bilinear between the four nearest texels (the default).
        case linear
        /// The nearest texel.
        case nearest
    }

    /// `raster-opacity`, 0…1 (default 1).
    public var opacity: StyleProperty<Double>
    /// `raster-hue-rotate`, degrees (default 0).
    public var hueRotate: StyleProperty<Double>
    /// `raster-brightness-min`, 0…1 (default 0).
    public var brightnessMin: StyleProperty<Double>
    /// `raster-brightness-max`, 0…1 (default 1).
    public var brightnessMax: StyleProperty<Double>
    /// `raster-saturation`, -1…1 (default 0).
    public var saturation: StyleProperty<Double>
    /// `raster-contrast`, -1…1 (default 0).
    public var contrast: StyleProperty<Double>
    /// `raster-resampling` (default linear).
    public var resampling: StyleProperty<Resampling>

    /// The style with zoom-only properties evaluated at `zoom`.
    public func atZoom(_ zoom: Double) -> RasterLayerStyle {
        RasterLayerStyle(opacity: opacity.atZoom(zoom), hueRotate: hueRotate.atZoom(zoom),
                         brightnessMin: brightnessMin.atZoom(zoom), brightnessMax: brightnessMax.atZoom(zoom),
                         saturation: saturation.atZoom(zoom), contrast: contrast.atZoom(zoom), resampling: resampling.atZoom(zoom))
    }
}
