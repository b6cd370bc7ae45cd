import Foundation

/// What a vector map snapshot shows: a centre, a fractional zoom, a bearing,
/// a pitch and an image size in points at a scale (pixels per point).
///
/// The zoom is the one every map in this package uses (``MapViewport``,
/// `map://`): the world is `256 · 2^zoom` points wide. MapLibre styles are
/// written for 512-point tiles, so a style is evaluated at `zoom − 1`
/// (``styleZoom``), as MapLibre does for a map of the same scale.
public struct VectorMapCamera: Sendable, Equatable {
    /// The coordinate at the image's centre.
    public var center: GeoCoordinate
    /// The zoom (256-point tiles), fractional.
    public var zoom: Double
    /// Image width in points.
    public var width: Int
    /// Image height in points.
    public var height: Int
    /// Pixels per point, 0.25…16 (``scaleRange``), the image at most ``maximumPixelSide`` pixels a side.
    public var scale: Double
    /// Degrees clockwise from north of the direction pointing up, 0…360, as
    /// MapLibre's `bearing`: the map is turned about the image's centre
    /// (at 90 east is up). Labels at points stay upright; labels along lines follow them.
    public var bearing: Double
    /// Degrees the camera is tilted from looking straight down, 0…85, as
    /// MapLibre's `pitch`: the camera looks at the centre from 1.5 × the
    /// image's height away (MapLibre's 36.87° field of view), so the top of
    /// the image shows ground farther away, drawn smaller.
    public var pitch: Double
    /// Heights drawn without perspective (MapLibre Native's axonometric
    /// projection mode), or nil (the default) for MapLibre's perspective camera.
    public var axonometric: AxonometricProjection?

    /// A camera at `center` and `zoom` for a `width × height` point image at
    /// `scale`, turned by `bearing` degrees and tilted by `pitch`.
    public init(center: GeoCoordinate, zoom: Double, width: Int, height: Int, scale: Double = 1, bearing: Double = 0,
                pitch: Double = 0, axonometric: AxonometricProjection? = nil) {
        self.center = center
        self.zoom = zoom
        self.width = width
        self.height = height
        self.scale = scale
        self.bearing = bearing
        self.pitch = pitch
        self.axonometric = axonometric
    }

    /// The zoom a MapLibre style is evaluated at (512-point tiles): `zoom − 1`, at least 0.
    public var styleZoom: Double { max(0, zoom - 1) }

    /// The zooms a camera may have.
    public static let zoomRange = 0.0...24.0
    /// The bearings a camera may have, in degrees.
    public static let bearingRange = 0.0...360.0
    /// The pitches a camera may have, in degrees: MapLibre's largest `maxPitch`.
    public static let pitchRange = 0.0...85.0
    /// The largest image side, in points.
    public static let maximumSide = 4096
    /// The scales a camera may have: MapLibre takes any pixel ratio; past 16
    /// a point would be a block of 256 pixels or more, below ¼ a pixel would
    /// hold 16 points.
    public static let scaleRange = 0.25...16.0
    /// The largest image side, in pixels: the largest side at scale 4.
    public static let maximumPixelSide = 16_384

    /// Image width in pixels.
    var pixelWidth: Int { Int((Double(width) * scale).rounded()) }
    /// Image height in pixels.
    var pixelHeight: Int { Int((Double(height) * scale).rounded()) }

    /// Throws `MapOptionError` naming the first value out of range.
    func validate() throws {
        guard center.latitude.isFinite, GeoCoordinate.latitudeRange.contains(center.latitude) else {
            throw MapOptionError(option: "latitude", reason: "must be within -90…90, not \(center.latitude)")
        }
        guard center.longitude.isFinite, GeoCoordinate.longitudeRange.contains(center.longitude) else {
            throw MapOptionError(option: "longitude", reason: "must be within -180…180, not \(center.longitude)")
        }
        guard zoom.isFinite, Self.zoomRange.contains(zoom) else {
            throw MapOptionError(option: "zoom", reason: "must be within 0…24, not \(zoom)")
        }
        guard bearing.isFinite, Self.bearingRange.contains(bearing) else {
            throw MapOptionError(option: "bearing", reason: "must be within 0…360, not \(bearing)")
        }
        guard pitch.isFinite, Self.pitchRange.contains(pitch) else {
            throw MapOptionError(option: "pitch", reason: "must be within 0…85 degrees, not \(pitch)")
        }
        if let axonometric {
            for (name, skew) in [("xSkew", axonometric.xSkew), ("ySkew", axonometric.ySkew)] {
                guard skew.isFinite, AxonometricProjection.skewRange.contains(skew) else {
                    throw MapOptionError(option: name, reason: "must be within -100…100, not \(skew)")
                }
            }
        }
        guard scale.isFinite, Self.scaleRange.contains(scale) else {
            throw MapOptionError(option: "scale", reason: "must be within 0.25…16, not \(scale)")
        }
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw MapOptionError(option: "size", reason: "\(width)×\(height) points: each side must be 1…\(Self.maximumSide)")
        }
        guard (1...Self.maximumPixelSide).contains(pixelWidth), (1...Self.maximumPixelSide).contains(pixelHeight) else {
            throw MapOptionError(option: "size", reason: "\(width)×\(height) points at scale \(scale): each side must be 1…\(Self.maximumPixelSide) pixels")
        }
    }
}
