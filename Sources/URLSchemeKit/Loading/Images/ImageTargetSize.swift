import Raster

/// The pixel size an image is wanted at, and how it maps into that box.
/// Part of a load's identity: the same URL at two sizes is two decoded images.
public struct ImageTargetSize: Hashable, Sendable, CustomStringConvertible {
    /// The largest side accepted, in pixels.
    public static let maximumSide = 16_384

    /// Box width in pixels (1...`maximumSide`).
    public var width: Int
    /// Box height in pixels (1...`maximumSide`).
    public var height: Int
    /// `.fit` keeps the aspect ratio inside the box and never enlarges;
    /// `.fill` covers the box and crops the centre; `.stretch` ignores the ratio.
    public var mode: ResizeMode

    /// A `width` × `height` pixel box (checked when a load starts).
    public init(width: Int, height: Int, mode: ResizeMode = .fit) {
        self.width = width
        self.height = height
        self.mode = mode
    }

    /// `120×120 fit`.
    public var description: String { "\(width)×\(height) \(mode.rawValue)" }

    /// Throws `ImageLoaderError.invalidTargetSize` unless both sides are in 1...`maximumSide`.
    func validate() throws {
        let sides = 1...Self.maximumSide
        guard sides.contains(width), sides.contains(height) else {
            throw ImageLoaderError.invalidTargetSize(width: width, height: height)
        }
    }

    /// The smallest fraction of an upright `width` × `height` source's sides that
    /// still yields this box without enlarging: what a scaled JPEG decode may drop.
    func fraction(ofWidth sourceWidth: Int, height sourceHeight: Int) -> Double {
        let horizontal = Double(width) / Double(max(1, sourceWidth))
        let vertical = Double(height) / Double(max(1, sourceHeight))
        return mode == .fit ? min(horizontal, vertical) : max(horizontal, vertical)
    }
}
