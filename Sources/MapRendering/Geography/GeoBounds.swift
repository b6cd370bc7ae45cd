import Foundation

/// A latitude/longitude box: for skipping shapes that lie outside a view, and
/// the area a tile set has data for (``VectorTileProviding/bounds``).
public struct GeoBounds: Hashable, Sendable {
    /// The southern edge, in degrees.
    public var minimumLatitude: Double
    /// The northern edge, in degrees.
    public var maximumLatitude: Double
    /// The western edge, in degrees.
    public var minimumLongitude: Double
    /// The eastern edge, in degrees.
    public var maximumLongitude: Double

    /// The box from `west` to `east` and `south` to `north`, in degrees.
    public init(west: Double, south: Double, east: Double, north: Double) {
        minimumLongitude = west
        maximumLongitude = east
        minimumLatitude = south
        maximumLatitude = north
    }

    /// The box, when it is one of the world the right way round (a stranger's
    /// header or metadata may say anything); nil otherwise.
    static func checked(west: Double, south: Double, east: Double, north: Double) -> GeoBounds? {
        guard west < east, south < north, west >= -180, east <= 180, south >= -90, north <= 90 else { return nil }
        return GeoBounds(west: west, south: south, east: east, north: north)
    }

    /// Whether the tile at `coordinate` overlaps the box, as MapLibre's
    /// `TileBounds` tells which tiles a source with `bounds` has: those
    /// outside are not requested.
    public func overlaps(_ coordinate: TileCoordinate) -> Bool {
        let n = Double(1 << coordinate.z)
        let west = WebMercator.unitX(longitude: minimumLongitude) * n, east = WebMercator.unitX(longitude: maximumLongitude) * n
        let north = WebMercator.unitY(latitude: min(maximumLatitude, WebMercator.maximumLatitude)) * n
        let south = WebMercator.unitY(latitude: max(minimumLatitude, -WebMercator.maximumLatitude)) * n
        let (x, y) = (Double(coordinate.x), Double(coordinate.y))
        return x < east && x + 1 > west && y < south && y + 1 > north
    }

    /// The box in words, `24.9352–24.9534 E, 60.1642–60.1791 N`, for messages.
    public var text: String {
        func degrees(_ low: Double, _ high: Double, _ positive: String, _ negative: String) -> String {
            if low >= 0 { return String(format: "%.4f–%.4f %@", low, high, positive) }
            if high <= 0 { return String(format: "%.4f–%.4f %@", -low, -high, negative) }
            return String(format: "%.4f %@–%.4f %@", -low, negative, high, positive)
        }
        return degrees(minimumLongitude, maximumLongitude, "E", "W") + ", " + degrees(minimumLatitude, maximumLatitude, "N", "S")
    }

    /// The smallest box holding every coordinate; nil for none.
    init?<Coordinates: Sequence>(_ coordinates: Coordinates) where Coordinates.Element == GeoCoordinate {
        var iterator = coordinates.makeIterator()
        guard let first = iterator.next() else { return nil }
        minimumLatitude = first.latitude
        maximumLatitude = first.latitude
        minimumLongitude = first.longitude
        maximumLongitude = first.longitude
        while let c = iterator.next() {
            minimumLatitude = min(minimumLatitude, c.latitude)
            maximumLatitude = max(maximumLatitude, c.latitude)
            minimumLongitude = min(minimumLongitude, c.longitude)
            maximumLongitude = max(maximumLongitude, c.longitude)
        }
    }

    /// Whether `coordinate` lies inside or on the edge of the box.
    func contains(_ coordinate: GeoCoordinate) -> Bool {
        coordinate.latitude >= minimumLatitude && coordinate.latitude <= maximumLatitude
            && coordinate.longitude >= minimumLongitude && coordinate.longitude <= maximumLongitude
    }
}
