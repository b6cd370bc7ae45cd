/// A rectangle in unit coordinates of the upright image: (0, 0) is the top
/// left, (1, 1) the bottom right. PhotoKit's `normalizedCropRect`, so a crop
/// chosen in a UI survives any later resize.
public struct NormalizedRect: Hashable, Sendable {
    /// Left edge, 0…1 of the width.
    public var x: Double
    /// Top edge, 0…1 of the height.
    public var y: Double
    /// Width as a fraction of the image's width, above 0.
    public var width: Double
    /// Height as a fraction of the image's height, above 0.
    public var height: Double

    /// A rectangle in unit coordinates; `AssetURL` checks it lies inside the unit square.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Tolerance for rounding in crops written with few decimals (`0.333,…`).
    static let tolerance = 1e-6

    /// Parses `x,y,w,h`: non-empty and inside the unit square.
    static func parse(_ text: String, parameter: String) throws -> NormalizedRect {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else {
            throw URLParameterError(parameter: parameter, reason: "must be 'x,y,width,height' in 0…1, got '\(text)'")
        }
        let v = try parts.map { try QueryReader.number(String($0), name: parameter, in: -1...2) }
        let rect = NormalizedRect(x: v[0], y: v[1], width: v[2], height: v[3])
        guard rect.width > 0, rect.height > 0 else {
            throw URLParameterError(parameter: parameter, reason: "is empty: width and height must be more than 0, got '\(text)'")
        }
        guard rect.x >= -tolerance, rect.y >= -tolerance,
              rect.x + rect.width <= 1 + tolerance, rect.y + rect.height <= 1 + tolerance else {
            throw URLParameterError(parameter: parameter, reason: "lies outside the unit square: need x,y ≥ 0 and x+width, y+height ≤ 1, got '\(text)'")
        }
        return rect
    }

    var text: String { [x, y, width, height].map(QueryWriter.format).joined(separator: ",") }
}
