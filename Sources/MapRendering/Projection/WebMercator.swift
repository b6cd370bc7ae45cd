import Foundation

/// Spherical Web Mercator (EPSG:3857) as slippy-map tiles use it: the world is
/// `256 · 2^zoom` pixels wide at `zoom`, x grows eastwards from the antimeridian
/// and y southwards from the top edge at latitude +85.0511°.
public enum WebMercator {
    /// The latitude where the square world map ends: atan(sinh(π)) in degrees.
    public static let maximumLatitude = 85.05112877980659

    /// Pixels of one tile edge.
    public static let tileSize = 256.0

    /// The world's width (and height) in pixels at a fractional zoom.
    public static func worldSize(zoom: Double) -> Double {
        tileSize * pow(2, zoom)
    }

    /// The position of a coordinate in world pixels at `zoom`. Latitude is
    /// clamped to ±`maximumLatitude`; longitude is not wrapped, so a longitude of
    /// 190° lies east of the right edge (callers wrap where the map repeats).
    public static func project(latitude: Double, longitude: Double, zoom: Double) -> (x: Double, y: Double) {
        let size = worldSize(zoom: zoom)
        return (unitX(longitude: longitude) * size, unitY(latitude: latitude) * size)
    }

    /// x on a world one unit wide (0 at the antimeridian, growing eastwards; not wrapped).
    @inline(__always)
    static func unitX(longitude: Double) -> Double {
        (longitude + 180) / 360
    }

    /// y on a world one unit tall (0 at the top edge), latitude clamped to
    /// ±`maximumLatitude`. The Mercator ordinate ln(tan φ + sec φ) as atanh(sin φ):
    /// two libm calls instead of three (a map projects tens of thousands of points).
    @inline(__always)
    static func unitY(latitude: Double) -> Double {
        let lat = min(max(latitude, -maximumLatitude), maximumLatitude) * .pi / 180
        return (1 - atanh(sin(lat)) / .pi) / 2
    }

    /// The coordinate at world pixel (x, y) at `zoom`: the inverse of `project`.
    public static func unproject(x: Double, y: Double, zoom: Double) -> (latitude: Double, longitude: Double) {
        let size = worldSize(zoom: zoom)
        let longitude = x / size * 360 - 180
        let n = Double.pi * (1 - 2 * y / size)
        let latitude = atan(sinh(n)) * 180 / .pi
        return (latitude, longitude)
    }
}
