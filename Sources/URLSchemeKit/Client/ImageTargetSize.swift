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
    /// `.fit` keeps the aspect ratio inside the box and never enlarges (a
    /// display size: enlarging adds memory, not detail; an `asset://` URL's
    /// `mode=fit`, which asks for pixels, does enlarge; both fit with `Bitmap.fittedSize`);
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

    /// The smallest size an upright `sourceWidth` × `sourceHeight` image may be
    /// decoded at and still yield this box at full detail: the fitted size for
    /// `.fit`, the covering size for `.fill`, the box for `.stretch`. What
    /// `ImageDecoder.Options.targetSize` is given, so a JPEG is decoded no finer.
    func coveringSize(ofWidth sourceWidth: Int, height sourceHeight: Int) -> (width: Int, height: Int) {
        let w = max(1, sourceWidth), h = max(1, sourceHeight)
        // Width-bound when the box's width is the smaller (fit) or larger (fill) fraction of the source's.
        let widthBound: Bool
        switch mode {
        case .stretch: return (width, height)
        case .fit: widthBound = width * h <= height * w
        case .fill: widthBound = width * h >= height * w
        }
        return widthBound ? (width, (h * width + w - 1) / w) : ((w * height + h - 1) / h, height)
    }

    /// The size `ImageBodyDecoder.resize` gives an upright `sourceWidth` ×
    /// `sourceHeight` image: unchanged under `.fit` when it fits already, else
    /// fitted into the box (`Bitmap.fittedSize`); the box for `.fill` and `.stretch`.
    func outputSize(ofWidth sourceWidth: Int, height sourceHeight: Int) -> (width: Int, height: Int) {
        guard mode == .fit else { return (width, height) }
        if sourceWidth <= width, sourceHeight <= height { return (sourceWidth, sourceHeight) }
        return Bitmap.fittedSize(width: sourceWidth, height: sourceHeight, boxWidth: width, boxHeight: height)
    }
}
