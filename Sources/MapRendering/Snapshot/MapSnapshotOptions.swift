import Foundation

/// Everything a map renderer needs to draw one snapshot: the camera, the
/// size in points and pixel density, the style, and the overlays.
public struct MapSnapshotOptions: Hashable, Sendable {
    public var camera: MapCamera
    /// Width in points; the image is `width × scale` pixels wide.
    public var width: Int
    /// Height in points; the image is `height × scale` pixels high.
    public var height: Int
    /// Pixel density, 1–4 (2 for a HiDPI screen).
    public var scale: Double
    public var style: MapStyle
    public var markers: [MapMarker]
    public var paths: [MapPath]

    /// The largest image a snapshot may be, in pixels (`width·scale × height·scale`).
    public static let maximumPixelCount = 4096 * 4096
    /// The zoom levels a camera may ask for.
    public static let zoomRange = 0.0...20.0
    /// The densities `scale` may have.
    public static let scaleRange = 1.0...4.0
    /// The most a fitted camera zooms in (one marker alone would otherwise zoom without end).
    public static let maximumFitZoom = 16.0

    public init(camera: MapCamera, width: Int = 600, height: Int = 400, scale: Double = 1, style: MapStyle = .light,
                markers: [MapMarker] = [], paths: [MapPath] = []) {
        self.camera = camera
        self.width = width
        self.height = height
        self.scale = scale
        self.style = style
        self.markers = markers
        self.paths = paths
    }

    /// Image width in pixels.
    public var pixelWidth: Int { Int((Double(width) * scale).rounded()) }
    /// Image height in pixels.
    public var pixelHeight: Int { Int((Double(height) * scale).rounded()) }

    /// Throws `MapOptionError`, named as in `map://` URLs, for anything out of range.
    public func validate() throws {
        func check(_ ok: Bool, _ option: String, _ reason: @autoclosure () -> String) throws {
            if !ok { throw MapOptionError(option: option, reason: reason()) }
        }
        func checkCoordinate(_ c: GeoCoordinate, _ latitudeName: String, _ longitudeName: String) throws {
            try check(c.latitude.isFinite && abs(c.latitude) <= 90, latitudeName, "must be from -90 to 90, got \(c.latitude)")
            try check(c.longitude.isFinite && abs(c.longitude) <= 180, longitudeName, "must be from -180 to 180, got \(c.longitude)")
        }
        try check(width >= 1, "width", "must be at least 1, got \(width)")
        try check(height >= 1, "height", "must be at least 1, got \(height)")
        try check(Self.scaleRange.contains(scale), "scale", "must be from 1 to 4, got \(scale)")
        let pixels = Double(width) * Double(height) * scale * scale
        try check(pixels <= Double(Self.maximumPixelCount), "width",
                  "× height × scale² must be at most \(Self.maximumPixelCount) pixels (4096×4096), got \(Int(pixels))")
        switch camera {
        case let .zoom(center, zoom):
            try checkCoordinate(center, "latitude", "longitude")
            try check(Self.zoomRange.contains(zoom), "zoom", "must be from 0 to 20, got \(zoom)")
        case let .span(center, latitudeDelta, longitudeDelta):
            try checkCoordinate(center, "latitude", "longitude")
            try check(latitudeDelta > 0 && latitudeDelta <= 180, "latitude_delta", "must be more than 0 and at most 180, got \(latitudeDelta)")
            try check(longitudeDelta > 0 && longitudeDelta <= 360, "longitude_delta", "must be more than 0 and at most 360, got \(longitudeDelta)")
        case let .fit(center, padding):
            if let center { try checkCoordinate(center, "latitude", "longitude") }
            try check(padding >= 0 && padding <= 512, "padding", "must be from 0 to 512, got \(padding)")
            try check(center != nil || !markers.isEmpty || !paths.isEmpty, "latitude",
                      "is required (with 'longitude') unless there are markers or paths to fit")
        }
        for marker in markers { try checkCoordinate(marker.coordinate, "marker", "marker") }
        for path in paths {
            try check(path.points.count >= 2, "path", "needs at least 2 points, got \(path.points.count)")
            try check(path.width.isFinite && path.width >= 0 && path.width <= 64, "path", "width must be from 0 to 64, got \(path.width)")
            for point in path.points { try checkCoordinate(point, "path", "path") }
        }
    }
}
