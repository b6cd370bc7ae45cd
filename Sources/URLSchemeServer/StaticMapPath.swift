import Foundation
import URLSchemeKit

/// tileserver-gl's static-map path, `/styles/NAME/static/LON,LAT,ZOOM[@BEARING[,PITCH]]/WxH[@2x].png|jpg|webp`,
/// for users moving over, read as the `map://` URL drawing the same picture.
///
/// tileserver-gl's `ZOOM` is MapLibre's (512-pixel tiles); `map://`'s counts
/// 256-pixel tiles, so the same scale is `zoom = ZOOM + 1`. A pitch other
/// than 0 is refused (400) naming `pitch`: the renderer draws from straight
/// above. The size is in points, as tileserver-gl's (`@2x` doubles the pixels).
enum StaticMapPath {
    /// The `map://` URL for the `camera` and `size` segments, drawing from tile source `source`, or the 400 naming the mistake.
    static func parse(camera: Substring, size: Substring, source: String) -> Result<URL, HTTPRequestError> {
        let form = "/styles/\(source)/static/LON,LAT,ZOOM[@BEARING[,PITCH]]/WxH[@2x].png"
        var view = camera
        var bearing = 0.0
        if let at = view.firstIndex(of: "@") {
            let angles = view[view.index(after: at)...].split(separator: ",", omittingEmptySubsequences: false)
            guard (1...2).contains(angles.count), let turn = Double(angles[0]), turn.isFinite, abs(turn) <= 360 else {
                return .failure(HTTPRequestError(400, "static map: bearing '\(view[view.index(after: at)...].prefix(32))' is not a number of degrees from -360 to 360 (\(form))"))
            }
            if angles.count == 2 {
                guard let pitch = Double(angles[1]), pitch.isFinite else {
                    return .failure(HTTPRequestError(400, "static map: pitch '\(angles[1].prefix(32))' is not a number"))
                }
                guard pitch == 0 else {
                    return .failure(HTTPRequestError(400, "static map: pitch \(angles[1].prefix(32)) is not supported: maps are drawn from straight above (pitch 0)"))
                }
            }
            bearing = turn < 0 ? turn + 360 : turn
            view = view[..<at]
        }
        let numbers = view.split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 3, let longitude = Double(numbers[0]), let latitude = Double(numbers[1]), let zoom = Double(numbers[2]),
              longitude.isFinite, latitude.isFinite, zoom.isFinite else {
            return .failure(HTTPRequestError(400, "static map: '\(view.prefix(64))' is not LON,LAT,ZOOM (\(form))"))
        }
        let maximum = MapSnapshotOptions.zoomRange.upperBound - 1
        guard (0...maximum).contains(zoom) else {
            return .failure(HTTPRequestError(400, "static map: zoom \(numbers[2].prefix(32)) must be from 0 to \(QueryWriter.format(maximum)) (MapLibre's zoom; map:// draws it at zoom + 1)"))
        }
        guard let dot = size.lastIndex(of: ".") else {
            return .failure(HTTPRequestError(400, "static map: '\(size.prefix(64))' is not WxH[@2x].png|jpg|webp (\(form))"))
        }
        var format = ""
        switch size[size.index(after: dot)...].lowercased() {
        case "png": break
        case "jpg", "jpeg": format = "&format=jpeg"
        case "webp": format = "&format=webp"
        case let other: return .failure(HTTPRequestError(400, "static map: format '\(other.prefix(16))' is not png, jpg or webp"))
        }
        var dimensions = size[..<dot]
        var scale = 1
        if let at = dimensions.firstIndex(of: "@") {
            let density = dimensions[dimensions.index(after: at)...]
            guard density.count == 2, density.last == "x", let value = Int(density.prefix(1)), (2...4).contains(value) else {
                return .failure(HTTPRequestError(400, "static map: density '\(density.prefix(16))' is not one of @2x, @3x, @4x"))
            }
            scale = value
            dimensions = dimensions[..<at]
        }
        let sides = dimensions.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]) else {
            return .failure(HTTPRequestError(400, "static map: size '\(dimensions.prefix(32))' is not WxH, e.g. 600x400"))
        }
        // map:// checks every value's range and names it (latitude, width, …) when the load runs.
        var query = "latitude=\(latitude)&longitude=\(longitude)&zoom=\(zoom + 1)&width=\(width)&height=\(height)"
        if scale != 1 { query += "&scale=\(scale)" }
        if bearing != 0 { query += "&bearing=\(bearing)" }
        query += format + "&tiles=\(source)"
        guard let url = URL(string: "map://?" + query) else { return .failure(HTTPRequestError(400, "static map: not a map")) }
        return .success(url)
    }
}
