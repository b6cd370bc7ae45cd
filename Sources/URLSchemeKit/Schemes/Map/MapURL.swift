import Foundation
import ImageCodecs
import MapRendering
import Raster

/// A `map://` URL as a typed value: what to draw (`options`) and how to encode it.
///
/// ```
/// map://?latitude=59.935634&longitude=30.325935&zoom=11&width=600&height=400&scale=2
/// map://?latitude=59.93&longitude=30.32&latitude_delta=0.2&longitude_delta=0.4&format=jpeg&quality=70
/// map://?marker=59.9386,30.3141,color:red,label:A&marker=55.7539,37.6208,size:large&path=59.9386,30.3141,55.7539,37.6208,width:4
/// map://?latitude=48.85&longitude=2.35&zoom=5&style=dark&labels=none
/// map://?latitude=60.17&longitude=24.94&zoom=14&bearing=90&tiles=helsinki
/// map://?latitude=60.17&longitude=24.94&zoom=14&width=256&height=256&tiles=helsinki&attribution=none
/// map://?latitude=60.17&longitude=24.94&zoom=14&pitch=45&tiles=helsinki
/// ```
///
/// Markers and paths are lists of comma-separated tokens: numbers are
/// `latitude,longitude` pairs, `name:value` tokens are options. Marker options:
/// `color`, `label` (one letter or digit), `size` (`small`, `medium`, `large`).
/// Path options: `color`, `width` (points), `fill` (a colour; closes the path).
/// Colours are `RRGGBB`/`RRGGBBAA` hex or a name (`red`, `blue`, …).
/// Every value is written with characters `URL(string:)` accepts unencoded.
///
/// A `zoom` or span without `latitude`/`longitude` is centred on the markers
/// and paths (`MapViewport.overlayCenter`); the value then holds that centre.
/// Other static-map APIs' spellings (`lat`, `lng`, `center`, `size`,
/// `markers`, …) are refused with the `map://` spelling to write instead
/// (`MapParameterHabits`), not taken as aliases: one URL per picture.
///
/// Defaults and ranges are `MapSnapshotOptions`'; a `MapURL` always holds
/// options that passed `MapSnapshotOptions.validate()` (both initialisers check),
/// so rendering one validates nothing again.
public struct MapURL: SchemeURL {
    /// `map`.
    public static let scheme = "map"
    /// Every query item a `map://` URL may have.
    public static let parameterNames = [
        "latitude", "longitude", "zoom", "latitude_delta", "longitude_delta", "width", "height", "scale",
        "format", "quality", "lossless", "marker", "path", "style", "labels", "padding", "tiles", "bearing", "attribution",
        "pitch",
    ]

    /// The `map://` spelling of a name other static-map APIs use (`lat`, `center=59.9,30.3`, …).
    public static func suggestion(forUnknown name: String, value: String?) -> String? {
        MapParameterHabits.suggestion(for: name, value: value)
    }

    /// The most `marker` items one URL may have.
    public static let maximumMarkers = 256
    /// The most `path` items one URL may have (their points together are
    /// limited by the environment's `ResourceBudget.pathPoints` when the map is drawn).
    public static let maximumPaths = 64

    /// What to draw; valid by construction.
    public private(set) var options: MapSnapshotOptions
    /// PNG, JPEG or WebP.
    public var format: ImageFormat
    /// JPEG or lossy WebP quality (`OutputEncoding.qualityRange`; ignored for
    /// PNG); nil: the format's default (85 JPEG, 75 WebP).
    public var quality: Int?
    /// Lossless WebP (`lossless=true`; only with `format=webp`).
    public var lossless: Bool
    /// The name of a tile source of the session's environment (`MapTileSources`:
    /// raster tiles or a vector archive); nil draws the embedded basemap.
    public var tiles: String?

    /// A URL for `options`. Throws `URLParameterError` naming the option (as a
    /// URL parameter) that `MapSnapshotOptions.validate()` rejects, a quality
    /// out of range, `format` when it is one the encoders cannot write (GIF),
    /// `lossless` with a format other than WebP, or whatever else reading the URL back would refuse (a marker
    /// label that is not one ASCII letter or digit, too many markers, a tile
    /// source name with spaces), so a value that exists round-trips.
    public init(options: MapSnapshotOptions, format: ImageFormat = .png, quality: Int? = nil, lossless: Bool = false,
                tiles: String? = nil) throws {
        try self.init(checking: options, format: format, quality: quality, lossless: lossless, tiles: tiles)
        try checkReadsBack()
    }

    /// The checks that need no URL, shared with `init(query:)` (which has read
    /// the URL already, so reading it back would only repeat itself).
    private init(checking options: MapSnapshotOptions, format: ImageFormat, quality: Int?, lossless: Bool, tiles: String?) throws {
        try OutputEncoding.check(quality: quality)
        try OutputEncoding.check(format: format)
        try OutputEncoding.check(lossless: lossless, format: format)
        do {
            try options.validate()
        } catch let error as MapOptionError {
            throw URLParameterError(parameter: error.option, reason: error.reason)
        }
        self.options = options
        self.format = format
        self.quality = quality
        self.lossless = lossless
        self.tiles = tiles
    }

    // MARK: Reading

    /// Reads a `map://` query strictly: an unknown, malformed or out-of-range
    /// item throws `URLParameterError` naming it.
    public init(query: QueryReader) throws {
        let latitude = try query.double("latitude", in: GeoCoordinate.latitudeRange)
        let longitude = try query.double("longitude", in: GeoCoordinate.longitudeRange)
        guard (latitude == nil) == (longitude == nil) else {
            throw URLParameterError(parameter: latitude == nil ? "latitude" : "longitude", reason: "is required with '\(latitude == nil ? "longitude" : "latitude")'")
        }
        let center = latitude.flatMap { lat in longitude.map { GeoCoordinate(latitude: lat, longitude: $0) } }
        let zoom = try query.double("zoom", in: MapSnapshotOptions.zoomRange)
        let latitudeDelta = try query.double("latitude_delta", in: MapSnapshotOptions.latitudeDeltaRange)
        let longitudeDelta = try query.double("longitude_delta", in: MapSnapshotOptions.longitudeDeltaRange)
        let markers = try query.all("marker").map(Self.marker)
        let paths = try query.all("path").map(Self.path)
        guard markers.count <= Self.maximumMarkers else {
            throw URLParameterError(parameter: "marker", reason: "is given \(markers.count) times; at most \(Self.maximumMarkers)")
        }
        guard paths.count <= Self.maximumPaths else {
            throw URLParameterError(parameter: "path", reason: "is given \(paths.count) times; at most \(Self.maximumPaths)")
        }

        // A zoom or span without a centre looks at the overlays' middle, as a fitted map does.
        let lookAt = center ?? MapViewport.overlayCenter(markers: markers, paths: paths)
        let camera: MapCamera
        switch (zoom, latitudeDelta, longitudeDelta) {
        case (let zoom?, nil, nil):
            guard let lookAt else {
                throw URLParameterError(parameter: "latitude", reason: "is required (with 'longitude') when 'zoom' is given without markers or paths to centre on")
            }
            camera = .zoom(center: lookAt, zoom: zoom)
        case (nil, let latitudeDelta?, let longitudeDelta?):
            guard let lookAt else {
                throw URLParameterError(parameter: "latitude", reason: "is required (with 'longitude') with a span without markers or paths to centre on")
            }
            camera = .span(center: lookAt, latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
        case (nil, nil, nil):
            if markers.isEmpty && paths.isEmpty {
                guard let center else { throw URLParameterError(parameter: "latitude", reason: "is required (with 'longitude') unless there are markers or paths to fit") }
                camera = .zoom(center: center, zoom: MapSnapshotOptions.defaultZoom)
            } else {
                camera = .fit(center: center, padding: try query.double("padding", in: MapSnapshotOptions.paddingRange) ?? MapSnapshotOptions.defaultPadding)
            }
        case (_?, _, _):
            throw URLParameterError(parameter: "zoom", reason: "cannot be given with 'latitude_delta'/'longitude_delta'; choose one")
        case (nil, nil, _?), (nil, _?, nil):
            throw URLParameterError(parameter: latitudeDelta == nil ? "latitude_delta" : "longitude_delta",
                                    reason: "is required with '\(latitudeDelta == nil ? "longitude_delta" : "latitude_delta")'")
        }
        if case .fit = camera {} else if try query.string("padding") != nil {
            throw URLParameterError(parameter: "padding", reason: "applies only when the map is fitted to markers or paths (no 'zoom' or span)")
        }

        var options = MapSnapshotOptions(
            camera: camera,
            width: try query.int("width", in: MapSnapshotOptions.sideRange) ?? MapSnapshotOptions.defaultWidth,
            height: try query.int("height", in: MapSnapshotOptions.sideRange) ?? MapSnapshotOptions.defaultHeight,
            scale: try query.double("scale", in: MapSnapshotOptions.scaleRange) ?? MapSnapshotOptions.defaultScale,
            style: try query.choice("style", as: MapStyle.self) ?? MapSnapshotOptions.defaultStyle,
            labels: try query.choice("labels", as: MapLabels.self) ?? MapSnapshotOptions.defaultLabels,
            markers: markers,
            paths: paths,
            bearing: try query.double("bearing", in: MapSnapshotOptions.bearingRange) ?? 0,
            pitch: try query.double("pitch", in: MapSnapshotOptions.pitchRange) ?? 0)
        options.attribution = try query.choice("attribution", as: MapAttributionDisplay.self) ?? .corner
        let tiles = try query.string("tiles")
        if let tiles, tiles.isEmpty || !tiles.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }) {
            throw URLParameterError(parameter: "tiles", reason: "must name a tile source (letters, digits, '-', '_'), got '\(tiles)'")
        }
        let output = try OutputEncoding.read(query, defaultFormat: .png)
        try self.init(checking: options, format: output.format ?? .png, quality: output.quality, lossless: output.lossless, tiles: tiles)
    }

    private static func marker(_ text: String) throws -> MapMarker {
        let (numbers, settings) = try tokens(text, parameter: "marker")
        guard numbers.count == 2 else {
            throw URLParameterError(parameter: "marker", reason: "needs 'latitude,longitude' first, got '\(text)'")
        }
        var marker = MapMarker(coordinate: try coordinate(numbers[0], numbers[1], parameter: "marker"))
        for (name, value) in settings {
            switch name {
            case "color": marker.color = try ColorParameter.parse(value, parameter: "marker")
            case "label":
                guard value.count == 1, let c = value.first, c.isASCII, c.isLetter || c.isNumber else {
                    throw URLParameterError(parameter: "marker", reason: "label must be one letter or digit, got '\(value)'")
                }
                marker.label = c
            case "size":
                guard let size = MapMarker.Size(rawValue: value.lowercased()) else {
                    throw URLParameterError(parameter: "marker", reason: "size must be one of small, medium, large, got '\(value)'")
                }
                marker.size = size
            default:
                throw URLParameterError(parameter: "marker", reason: "has unknown option '\(name)'; known: color, label, size")
            }
        }
        return marker
    }

    private static func path(_ text: String) throws -> MapPath {
        let (numbers, settings) = try tokens(text, parameter: "path")
        guard numbers.count.isMultiple(of: 2), numbers.count >= 4 else {
            throw URLParameterError(parameter: "path", reason: "needs at least two 'latitude,longitude' pairs, got \(numbers.count) numbers")
        }
        var path = MapPath(points: try stride(from: 0, to: numbers.count, by: 2).map {
            try coordinate(numbers[$0], numbers[$0 + 1], parameter: "path")
        })
        for (name, value) in settings {
            switch name {
            case "color": path.color = try ColorParameter.parse(value, parameter: "path")
            case "fill": path.fill = try ColorParameter.parse(value, parameter: "path")
            case "width": path.width = try QueryReader.number(String(value), name: "path", in: MapPath.widthRange)
            default:
                throw URLParameterError(parameter: "path", reason: "has unknown option '\(name)'; known: color, width, fill")
            }
        }
        return path
    }

    /// Splits `a,b,name:value` into numbers (which must come first) and named settings.
    private static func tokens(_ text: String, parameter: String) throws -> ([Substring], [(Substring, Substring)]) {
        var numbers: [Substring] = [], settings: [(Substring, Substring)] = []
        for token in text.split(separator: ",", omittingEmptySubsequences: false) {
            if let colon = token.firstIndex(of: ":") {
                settings.append((token[..<colon].lowercased()[...], token[token.index(after: colon)...]))
            } else {
                guard settings.isEmpty else {
                    throw URLParameterError(parameter: parameter, reason: "has '\(token)' after its options; coordinates come first")
                }
                numbers.append(token)
            }
        }
        return (numbers, settings)
    }

    private static func coordinate(_ latitude: Substring, _ longitude: Substring, parameter: String) throws -> GeoCoordinate {
        GeoCoordinate(latitude: try QueryReader.number(String(latitude), name: parameter, in: GeoCoordinate.latitudeRange),
                      longitude: try QueryReader.number(String(longitude), name: parameter, in: GeoCoordinate.longitudeRange))
    }

    // MARK: Writing

    /// Writes the URL's query: every value that differs from its default.
    public func write(to query: inout QueryWriter) {
        switch options.camera {
        case let .zoom(center, zoom):
            query.add("latitude", center.latitude)
            query.add("longitude", center.longitude)
            query.add("zoom", zoom)
        case let .span(center, latitudeDelta, longitudeDelta):
            query.add("latitude", center.latitude)
            query.add("longitude", center.longitude)
            query.add("latitude_delta", latitudeDelta)
            query.add("longitude_delta", longitudeDelta)
        case let .fit(center, padding):
            query.add("latitude", center?.latitude)
            query.add("longitude", center?.longitude)
            if padding != MapSnapshotOptions.defaultPadding { query.add("padding", padding) }
        }
        if options.width != MapSnapshotOptions.defaultWidth { query.add("width", options.width) }
        if options.height != MapSnapshotOptions.defaultHeight { query.add("height", options.height) }
        if options.scale != MapSnapshotOptions.defaultScale { query.add("scale", options.scale) }
        if options.style != MapSnapshotOptions.defaultStyle { query.add("style", options.style.rawValue) }
        if options.labels != MapSnapshotOptions.defaultLabels { query.add("labels", options.labels.rawValue) }
        if options.bearing != 0 { query.add("bearing", options.bearing) }
        if options.pitch != 0 { query.add("pitch", options.pitch) }
        if options.attribution != .corner { query.add("attribution", options.attribution.rawValue) }
        OutputEncoding.write(format: format, quality: quality, lossless: lossless, defaultFormat: .png, to: &query)
        query.add("tiles", tiles)
        for marker in options.markers {
            var tokens = [QueryWriter.format(marker.coordinate.latitude), QueryWriter.format(marker.coordinate.longitude)]
            if marker.color != MapMarker.defaultColor { tokens.append("color:" + marker.color.hex) }
            if let label = marker.label { tokens.append("label:\(label)") }
            if marker.size != .medium { tokens.append("size:" + marker.size.rawValue) }
            query.add("marker", tokens.joined(separator: ","))
        }
        for path in options.paths {
            var tokens = path.points.flatMap { [QueryWriter.format($0.latitude), QueryWriter.format($0.longitude)] }
            if path.color != MapPath.defaultColor { tokens.append("color:" + path.color.hex) }
            if path.width != MapPath.defaultWidth { tokens.append("width:" + QueryWriter.format(path.width)) }
            if let fill = path.fill { tokens.append("fill:" + fill.hex) }
            query.add("path", tokens.joined(separator: ","))
        }
    }
}
