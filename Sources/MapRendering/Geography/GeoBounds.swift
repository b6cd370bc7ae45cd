/// A latitude/longitude box, for skipping shapes that lie outside a view.
struct GeoBounds: Hashable, Sendable {
    /// The southern edge, in degrees.
    var minimumLatitude: Double
    /// The northern edge, in degrees.
    var maximumLatitude: Double
    /// The western edge, in degrees.
    var minimumLongitude: Double
    /// The eastern edge, in degrees.
    var maximumLongitude: Double

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
