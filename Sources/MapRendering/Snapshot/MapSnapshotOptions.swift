import Foundation

/// Everything a map renderer needs to draw one snapshot: the camera, the
/// size in points and pixel density, the style, the labels, and the overlays.
///
/// The one home of every default and allowed range of a snapshot: `map://`
/// URLs (`MapURL`) read and write them from here, and `validate()` checks them.
public struct MapSnapshotOptions: Hashable, Sendable {
    /// What part of the world to show.
    public var camera: MapCamera
    /// Width in points; the image is `width × scale` pixels wide.
    public var width: Int
    /// Height in points; the image is `height × scale` pixels high.
    public var height: Int
    /// Pixel density, 1–4 (2 for a HiDPI screen).
    public var scale: Double
    /// The colours to paint with.
    public var style: MapStyle
    /// Whether place names are drawn.
    public var labels: MapLabels
    /// Pins, drawn over everything else.
    public var markers: [MapMarker]
    /// Lines and polygons, drawn over the map and under labels and markers.
    public var paths: [MapPath]
    /// Degrees clockwise from north of the direction pointing up (MapLibre's
    /// `bearing`): the map, its paths and markers turn about the image's centre.
    public var bearing: Double
    /// Degrees the camera is tilted from looking straight down (MapLibre's
    /// `pitch`, its camera 1.5 × the image's height from the centre): the
    /// map, its paths and markers recede towards the top of the image.
    public var pitch: Double
    /// Whether the data's credit is drawn in the bottom-right corner.
    public var attribution: MapAttributionDisplay = .corner

    // MARK: Defaults

    /// The width, in points, when none is given.
    public static let defaultWidth = 600
    /// The height, in points, when none is given.
    public static let defaultHeight = 400
    /// The pixel density when none is given.
    public static let defaultScale = 1.0
    /// The style when none is given.
    public static let defaultStyle = MapStyle.light
    /// Place labels are drawn unless turned off.
    public static let defaultLabels = MapLabels.places
    /// The zoom of a camera given only a centre (no zoom, span, markers or paths).
    public static let defaultZoom = 10.0
    /// The padding (points) kept around fitted markers and paths when none is given.
    public static let defaultPadding = 24.0

    // MARK: Ranges

    /// The widths and heights, in points, a snapshot may have (and `maximumPixelCount` bounds their product).
    public static let sideRange = 1...4096
    /// The largest image a snapshot may be, in pixels (`width·scale × height·scale`).
    public static let maximumPixelCount = 4096 * 4096
    /// The zoom levels a camera may ask for.
    public static let zoomRange = 0.0...20.0
    /// The densities `scale` may have.
    public static let scaleRange = 1.0...4.0
    /// The latitude span a camera may ask for (more than the lower bound, 0).
    public static let latitudeDeltaRange = 0.0...180.0
    /// The longitude span a camera may ask for (more than the lower bound, 0).
    public static let longitudeDeltaRange = 0.0...360.0
    /// The bearings, in degrees, a camera may have.
    public static let bearingRange = 0.0...360.0
    /// The pitches, in degrees, a camera may have (MapLibre's largest `maxPitch`).
    public static let pitchRange = 0.0...85.0
    /// The padding, in points, a fitted camera may keep.
    public static let paddingRange = 0.0...512.0
    /// The most a fitted camera zooms in (one marker alone would otherwise zoom without end).
    public static let maximumFitZoom = 16.0

    /// Options with the defaults above for everything not given.
    public init(camera: MapCamera, width: Int = defaultWidth, height: Int = defaultHeight, scale: Double = defaultScale,
                style: MapStyle = defaultStyle, labels: MapLabels = defaultLabels, markers: [MapMarker] = [], paths: [MapPath] = [],
                bearing: Double = 0, pitch: Double = 0) {
        self.camera = camera
        self.width = width
        self.height = height
        self.scale = scale
        self.style = style
        self.labels = labels
        self.markers = markers
        self.paths = paths
        self.bearing = bearing
        self.pitch = pitch
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
            try check(c.latitude.isFinite && GeoCoordinate.latitudeRange.contains(c.latitude), latitudeName,
                      "must be from \(Self.text(GeoCoordinate.latitudeRange)), got \(c.latitude)")
            try check(c.longitude.isFinite && GeoCoordinate.longitudeRange.contains(c.longitude), longitudeName,
                      "must be from \(Self.text(GeoCoordinate.longitudeRange)), got \(c.longitude)")
        }
        let sides = "\(Self.sideRange.lowerBound) to \(Self.sideRange.upperBound)"
        try check(Self.sideRange.contains(width), "width", "must be from \(sides), got \(width)")
        try check(Self.sideRange.contains(height), "height", "must be from \(sides), got \(height)")
        try check(Self.scaleRange.contains(scale), "scale", "must be from \(Self.text(Self.scaleRange)), got \(scale)")
        let pixels = Double(width) * Double(height) * scale * scale
        try check(pixels <= Double(Self.maximumPixelCount), "width",
                  "× height × scale² must be at most \(Self.maximumPixelCount) pixels (4096×4096), got \(Int(pixels))")
        try check(bearing.isFinite && Self.bearingRange.contains(bearing), "bearing",
                  "must be from \(Self.text(Self.bearingRange)) degrees, got \(bearing)")
        try check(pitch.isFinite && Self.pitchRange.contains(pitch), "pitch",
                  "must be from \(Self.text(Self.pitchRange)) degrees, got \(pitch)")
        switch camera {
        case let .zoom(center, zoom):
            try checkCoordinate(center, "latitude", "longitude")
            try check(Self.zoomRange.contains(zoom), "zoom", "must be from \(Self.text(Self.zoomRange)), got \(zoom)")
        case let .span(center, latitudeDelta, longitudeDelta):
            try checkCoordinate(center, "latitude", "longitude")
            try check(latitudeDelta > 0 && Self.latitudeDeltaRange.contains(latitudeDelta), "latitude_delta",
                      "must be more than 0 and at most \(Self.text(Self.latitudeDeltaRange.upperBound)), got \(latitudeDelta)")
            try check(longitudeDelta > 0 && Self.longitudeDeltaRange.contains(longitudeDelta), "longitude_delta",
                      "must be more than 0 and at most \(Self.text(Self.longitudeDeltaRange.upperBound)), got \(longitudeDelta)")
        case let .fit(center, padding):
            if let center { try checkCoordinate(center, "latitude", "longitude") }
            try check(Self.paddingRange.contains(padding), "padding", "must be from \(Self.text(Self.paddingRange)), got \(padding)")
            try check(center != nil || !markers.isEmpty || !paths.isEmpty, "latitude",
                      "is required (with 'longitude') unless there are markers or paths to fit")
        }
        for marker in markers { try checkCoordinate(marker.coordinate, "marker", "marker") }
        for path in paths {
            try check(path.points.count >= 2, "path", "needs at least 2 points, got \(path.points.count)")
            try check(path.width.isFinite && MapPath.widthRange.contains(path.width), "path",
                      "width must be from \(Self.text(MapPath.widthRange)), got \(path.width)")
            for point in path.points { try checkCoordinate(point, "path", "path") }
        }
    }

    /// "0 to 20": a range as messages show it, whole numbers without ".0".
    static func text(_ range: ClosedRange<Double>) -> String { "\(text(range.lowerBound)) to \(text(range.upperBound))" }

    /// A number as messages show it: whole numbers without ".0".
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
