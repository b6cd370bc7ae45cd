import Foundation
import Raster

/// A snapshot's frame, resolved: the zoom, the centre, and where each
/// coordinate lands in the output image (in pixels, `scale` applied).
///
/// Web Mercator with a fractional zoom: the world is `256 · 2^zoom · scale`
/// pixels wide and repeats horizontally, so a view across the antimeridian
/// or wider than the world shows every copy it covers. A bearing turns the
/// map about the image's centre (MapLibre's: the bearing's direction points up);
/// a pitch then tilts it as MapLibre's camera does (`PitchProjection`).
public struct MapViewport: Sendable, Equatable {
    /// The zoom level, fractional, within `MapSnapshotOptions.zoomRange`.
    public let zoom: Double
    /// The coordinate at the image's centre (latitude clamped to Web Mercator's range).
    public let center: GeoCoordinate
    /// Image width in pixels.
    public let pixelWidth: Int
    /// Image height in pixels.
    public let pixelHeight: Int
    /// Pixels per point.
    public let scale: Double
    /// The world's width in output pixels: the period of horizontal repetition.
    public let worldPixelWidth: Double
    /// Degrees clockwise from north of the direction pointing up.
    public let bearing: Double
    /// Degrees the camera is tilted from looking straight down.
    public let pitch: Double
    /// The pitch's projection of the turned map onto the image, nil for none.
    private let projection: PitchProjection?
    /// The centre in world pixels at this zoom and scale.
    private let centerX: Double
    private let centerY: Double
    /// Cosine and sine of the turn on the image (clockwise, y down: minus the bearing).
    private let cos: Double
    private let sin: Double
    /// Half the turned image's extent along the world's x and y axes, in pixels.
    private let halfSpanX: Double
    private let halfSpanY: Double

    /// Resolves `options.camera` (which must have been validated) into a frame.
    public init(options: MapSnapshotOptions) {
        let resolved = Self.resolve(options)
        zoom = resolved.zoom
        center = GeoCoordinate(
            latitude: min(max(resolved.center.latitude, -WebMercator.maximumLatitude), WebMercator.maximumLatitude),
            longitude: resolved.center.longitude)
        pixelWidth = options.pixelWidth
        pixelHeight = options.pixelHeight
        scale = options.scale
        worldPixelWidth = WebMercator.worldSize(zoom: zoom) * scale
        let c = WebMercator.project(latitude: center.latitude, longitude: center.longitude, zoom: zoom)
        centerX = c.x * scale
        centerY = c.y * scale
        bearing = options.bearing
        let angle = -options.bearing * .pi / 180
        (cos, sin) = options.bearing.truncatingRemainder(dividingBy: 360) == 0 ? (1, 0) : (Foundation.cos(angle), Foundation.sin(angle))
        pitch = options.pitch
        let projection = options.pitch == 0 ? nil
            : PitchProjection(pitch: options.pitch, width: Double(pixelWidth), height: Double(pixelHeight))
        self.projection = projection
        if let projection {
            // The ground the image shows, its corners' offsets turned back onto the world's axes.
            var spans = (x: 0.0, y: 0.0)
            for corner in projection.groundCorners {
                let dx = corner.x - Double(pixelWidth) / 2, dy = corner.y - Double(pixelHeight) / 2
                spans = (Swift.max(spans.x, abs(cos * dx + sin * dy)), Swift.max(spans.y, abs(-sin * dx + cos * dy)))
            }
            (halfSpanX, halfSpanY) = spans
        } else {
            halfSpanX = (abs(cos) * Double(pixelWidth) + abs(sin) * Double(pixelHeight)) / 2
            halfSpanY = (abs(sin) * Double(pixelWidth) + abs(cos) * Double(pixelHeight)) / 2
        }
    }

    /// The output pixel of `coordinate` in the copy of the world nearest the
    /// centre (under pitch, not finite behind the camera's near plane).
    public func pixel(for coordinate: GeoCoordinate) -> (x: Double, y: Double) {
        var p = unwrappedPixel(for: coordinate)
        p.x -= worldPixelWidth * ((p.x - Double(pixelWidth) / 2) / worldPixelWidth).rounded()
        let turned = turn(Point(p.x, p.y))
        guard let projection else { return (turned.x, turned.y) }
        guard turned.y <= projection.nearY else { return (.nan, .nan) }
        let tilted = projection.project(turned)
        return (tilted.x, tilted.y)
    }

    /// `p` (a pixel of the unturned map) turned by the bearing about the image's centre.
    @inline(__always)
    func turn(_ p: Point) -> Point {
        guard sin != 0 else { return p }
        let dx = p.x - Double(pixelWidth) / 2, dy = p.y - Double(pixelHeight) / 2
        return Point(Double(pixelWidth) / 2 + cos * dx - sin * dy, Double(pixelHeight) / 2 + sin * dx + cos * dy)
    }

    /// The output pixel of `coordinate` on the unturned map (at bearing 0 the
    /// output pixel), taking its longitude as it is (no wrapping): project a
    /// whole shape this way, then draw it at each of `copyOffsets`, turned.
    func unwrappedPixel(for coordinate: GeoCoordinate) -> (x: Double, y: Double) {
        // The world's size in output pixels is stored: no 2^zoom per point.
        (WebMercator.unitX(longitude: coordinate.longitude) * worldPixelWidth - centerX + Double(pixelWidth) / 2,
         WebMercator.unitY(latitude: coordinate.latitude) * worldPixelWidth - centerY + Double(pixelHeight) / 2)
    }

    /// The horizontal shifts (whole multiples of `worldPixelWidth`) at which a shape
    /// spanning `minX…maxX` unwrapped pixels overlaps the image (turned: its
    /// bounding box on the unturned map).
    func copyOffsets(minX: Double, maxX: Double) -> [Double] {
        guard minX.isFinite, maxX.isFinite, worldPixelWidth > 0 else { return [] }
        var first = ((Double(pixelWidth) / 2 - halfSpanX - maxX) / worldPixelWidth).rounded(.up)
        var last = ((Double(pixelWidth) / 2 + halfSpanX - minX) / worldPixelWidth).rounded(.down)
        if projection != nil {
            // A pitched camera may see a hundred copies of the world towards its far plane:
            // MapLibre's seven (−3…3) are drawn, so the work stays that of a few worlds.
            (first, last) = (max(first, -Self.pitchedWorldCopies), min(last, Self.pitchedWorldCopies))
        }
        guard first <= last else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * worldPixelWidth }
    }

    /// The copies of the world either side of the centre's a pitched view
    /// draws (MapLibre's `renderWorldCopies`: −3…3).
    static let pitchedWorldCopies = 3.0

    /// Whether a shape with these geographic bounds can reach the image (any copy).
    func mayShow(_ bounds: GeoBounds?) -> Bool {
        guard let bounds else { return false }
        let top = unwrappedPixel(for: GeoCoordinate(latitude: bounds.maximumLatitude, longitude: bounds.minimumLongitude))
        let bottom = unwrappedPixel(for: GeoCoordinate(latitude: bounds.minimumLatitude, longitude: bounds.maximumLongitude))
        guard bottom.y >= Double(pixelHeight) / 2 - halfSpanY - 2, top.y <= Double(pixelHeight) / 2 + halfSpanY + 2 else { return false }
        return !copyOffsets(minX: top.x - 2, maxX: bottom.x + 2).isEmpty
    }

    /// The ring or line in pixels, once per copy of the world it shows in,
    /// dropping vertices closer than `tolerance` pixels (Manhattan distance) to
    /// the last one kept: a third of a pixel by default, none with 0. Under
    /// pitch the shape is first cut to what the camera sees (a `ring` as a
    /// polygon, else as a line, which may leave several pieces per copy).
    public func project(_ coordinates: [GeoCoordinate], tolerance: Double = 0.33, ring: Bool = false) -> [[Point]] {
        var points: [Point] = []
        points.reserveCapacity(coordinates.count)
        var minX = Double.infinity, maxX = -Double.infinity
        for coordinate in coordinates {
            let p = unwrappedPixel(for: coordinate)
            if let last = points.last, abs(p.x - last.x) + abs(p.y - last.y) < tolerance { continue }
            points.append(Point(p.x, p.y))
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
        }
        guard points.count >= 2 else { return [] }
        let copies = copyOffsets(minX: minX, maxX: maxX).map { offset in
            offset == 0 && sin == 0 ? points : points.map { turn(Point($0.x + offset, $0.y)) }
        }
        guard let projection else { return copies }
        return copies.flatMap { copy in
            (ring ? [projection.clip(ring: copy)] : projection.clip(line: copy)).filter { $0.count >= 2 }.map { $0.map(projection.project) }
        }
    }

    /// The coordinate at output pixel (x, y): the inverse of `pixel(for:)`.
    public func coordinate(atPixel x: Double, _ y: Double) -> GeoCoordinate {
        // Turned back about the image's centre first.
        let dx = x - Double(pixelWidth) / 2, dy = y - Double(pixelHeight) / 2
        let wx = (cos * dx + sin * dy + centerX) / scale
        let wy = (-sin * dx + cos * dy + centerY) / scale
        let c = WebMercator.unproject(x: wx, y: wy, zoom: zoom)
        var longitude = c.longitude.truncatingRemainder(dividingBy: 360)
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return GeoCoordinate(latitude: c.latitude, longitude: longitude)
    }

    // MARK: Resolving a camera

    private static func resolve(_ options: MapSnapshotOptions) -> (center: GeoCoordinate, zoom: Double) {
        let range = MapSnapshotOptions.zoomRange
        switch options.camera {
        case let .zoom(center, zoom):
            return (center, min(max(zoom, range.lowerBound), range.upperBound))
        case let .span(center, latitudeDelta, longitudeDelta):
            // Zoom 0 maps 360° of longitude to 256 points; latitude goes through Mercator.
            let zoomForLongitude = log2(Double(options.width) * 360 / (longitudeDelta * 256))
            let top = WebMercator.project(latitude: center.latitude + latitudeDelta / 2, longitude: 0, zoom: 0).y
            let bottom = WebMercator.project(latitude: center.latitude - latitudeDelta / 2, longitude: 0, zoom: 0).y
            let zoomForLatitude = bottom > top ? log2(Double(options.height) / (bottom - top)) : range.upperBound
            return (center, min(max(min(zoomForLongitude, zoomForLatitude), range.lowerBound), range.upperBound))
        case let .fit(center, padding):
            return fit(options, center: center, padding: padding)
        }
    }

    /// The centre of the markers' and paths' box in Web Mercator (across the
    /// antimeridian when that box is narrower); nil without overlays. A fitted
    /// camera without a centre looks there, and `map://` centres a `zoom`
    /// given without `latitude`/`longitude` there too.
    public static func overlayCenter(markers: [MapMarker], paths: [MapPath]) -> GeoCoordinate? {
        let points = markers.map(\.coordinate) + paths.flatMap(\.points)
        guard !points.isEmpty else { return nil }
        return boxCenter(projected(points).world).center
    }

    /// `points` at zoom 0, with longitudes measured in 0…360 when that span is
    /// smaller (across the antimeridian).
    private static func projected(_ points: [GeoCoordinate]) -> (world: [(x: Double, y: Double)], useShifted: Bool) {
        let longitudes = points.map(\.longitude)
        let shifted = longitudes.map { $0 < 0 ? $0 + 360 : $0 }
        let spanDirect = (longitudes.max() ?? 0) - (longitudes.min() ?? 0)
        let spanShifted = (shifted.max() ?? 0) - (shifted.min() ?? 0)
        let useShifted = spanShifted < spanDirect
        let world = points.map { p -> (x: Double, y: Double) in
            let lon = useShifted && p.longitude < 0 ? p.longitude + 360 : p.longitude
            return WebMercator.project(latitude: p.latitude, longitude: lon, zoom: 0)
        }
        return (world, useShifted)
    }

    /// The middle of projected points' bounding box, as a zoom-0 point and as a coordinate.
    private static func boxCenter(_ world: [(x: Double, y: Double)]) -> (x: Double, y: Double, center: GeoCoordinate) {
        let xs = world.map(\.x), ys = world.map(\.y)
        let cx = ((xs.min() ?? 0) + (xs.max() ?? 0)) / 2
        let cy = ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2
        let c = WebMercator.unproject(x: cx, y: cy, zoom: 0)
        return (cx, cy, GeoCoordinate(latitude: c.latitude, longitude: c.longitude > 180 ? c.longitude - 360 : c.longitude))
    }

    /// The largest zoom that keeps every marker, path point and the centre in view.
    private static func fit(_ options: MapSnapshotOptions, center: GeoCoordinate?, padding: Double) -> (center: GeoCoordinate, zoom: Double) {
        var points = options.markers.map(\.coordinate) + options.paths.flatMap(\.points)
        if let center { points.append(center) }
        guard !points.isEmpty else { return (center ?? GeoCoordinate(latitude: 0, longitude: 0), 0) }
        let (world, useShifted) = projected(points)
        let cx: Double, cy: Double
        let resolvedCenter: GeoCoordinate
        if let center {
            let c = WebMercator.project(latitude: center.latitude, longitude: useShifted && center.longitude < 0 ? center.longitude + 360 : center.longitude, zoom: 0)
            (cx, cy) = (c.x, c.y)
            resolvedCenter = center
        } else {
            (cx, cy, resolvedCenter) = boxCenter(world)
        }
        // Room on each side, in points, keeping markers whole: a pin rises its
        // height above its point and spreads half of it sideways.
        let pin = options.markers.map(\.size.height).max() ?? 0
        let roomX = Double(options.width) / 2 - padding - pin / 2
        let roomUp = Double(options.height) / 2 - padding - pin
        let roomDown = Double(options.height) / 2 - padding
        var zoom = MapSnapshotOptions.maximumFitZoom
        // Each point's offset from the centre as the image shows it: turned by the bearing.
        let angle = -options.bearing * .pi / 180
        let (c, s) = options.bearing == 0 ? (1.0, 0.0) : (Foundation.cos(angle), Foundation.sin(angle))
        for p in world {
            let dx = abs(c * (p.x - cx) - s * (p.y - cy)), dy = s * (p.x - cx) + c * (p.y - cy)
            if dx > 1e-12 { zoom = min(zoom, log2(max(roomX, 1e-9) / dx)) }
            if dy < -1e-12 { zoom = min(zoom, log2(max(roomUp, 1e-9) / -dy)) }
            if dy > 1e-12 { zoom = min(zoom, log2(max(roomDown, 1e-9) / dy)) }
        }
        return (resolvedCenter, min(max(zoom, MapSnapshotOptions.zoomRange.lowerBound), MapSnapshotOptions.zoomRange.upperBound))
    }
}
