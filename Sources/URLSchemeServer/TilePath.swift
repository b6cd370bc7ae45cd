import Foundation

/// The parts of a tile path `{z}/{x}/{y}[@2x].EXT`, as `/tiles/NAME/…` and
/// `/data/NAME/…` name them, checked: a zoom the renderer draws, a column
/// and row inside the world at that zoom, a density of 1 to 4 and an
/// extension from the route's list. Each mistake is a 400 naming it.
struct TilePath: Equatable {
    /// The zoom, column and row.
    var z: Int, x: Int, y: Int
    /// 1, or 2–4 for `@2x`…`@4x`.
    var scale: Int
    /// The extension, lower-cased (`png`, `jpg`, `pbf`).
    var fileExtension: String

    /// Reads `z`, `x` and `y[@Nx].EXT` (the last three path segments),
    /// allowing `extensions` and zooms in `zooms`; `scaled` says whether
    /// `@Nx` may be given.
    static func parse(_ segments: ArraySlice<Substring>, extensions: [String], zooms: ClosedRange<Int>, scaled: Bool) -> Result<TilePath, HTTPRequestError> {
        let form = scaled ? "{z}/{x}/{y}[@2x].\(extensions.joined(separator: "|"))" : "{z}/{x}/{y}.\(extensions.joined(separator: "|"))"
        guard segments.count == 3, let dot = segments.last!.lastIndex(of: ".") else {
            return .failure(HTTPRequestError(404, "a tile path ends in \(form)"))
        }
        let last = segments.last!
        let fileExtension = last[last.index(after: dot)...].lowercased()
        guard extensions.contains(fileExtension) else {
            return .failure(HTTPRequestError(404, "a tile here is .\(extensions.joined(separator: " or .")), not '.\(fileExtension.prefix(16))'"))
        }
        var row = last[..<dot]
        var scale = 1
        if let at = row.firstIndex(of: "@") {
            let density = row[row.index(after: at)...]
            guard scaled, density.count == 2, density.last == "x", let value = Int(density.prefix(1)), (2...4).contains(value) else {
                return .failure(HTTPRequestError(400, "tile density '\(density.prefix(16))' is not one of @2x, @3x, @4x" + (scaled ? "" : " (vector tiles have none)")))
            }
            scale = value
            row = row[..<at]
        }
        func number(_ text: Substring, _ name: String, _ range: ClosedRange<Int>) -> Result<Int, HTTPRequestError> {
            guard text.count <= 10, text.allSatisfy(\.isASCII), let value = Int(text), range.contains(value) else {
                return .failure(HTTPRequestError(400, "tile \(name) '\(text.prefix(16))' must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
            }
            return .success(value)
        }
        let start = segments.startIndex
        return number(segments[start], "zoom", zooms).flatMap { z in
            let side = (1 << z) - 1
            return number(segments[start + 1], "column x", 0...side).flatMap { x in
                number(row, "row y", 0...side).map { y in TilePath(z: z, x: x, y: y, scale: scale, fileExtension: fileExtension) }
            }
        }
    }

    /// The longitude and latitude of the tile's centre (Web Mercator).
    var center: (longitude: Double, latitude: Double) {
        let n = Double(1 << z)
        let longitude = (Double(x) + 0.5) / n * 360 - 180
        let latitude = atan(sinh(Double.pi * (1 - 2 * (Double(y) + 0.5) / n))) * 180 / Double.pi
        return (longitude, latitude)
    }
}
