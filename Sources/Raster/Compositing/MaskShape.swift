/// A shape that keeps part of an image and makes the rest transparent, anti-aliased.
public enum MaskShape: Sendable, Equatable {
    /// The largest circle centred in the image (chat avatars).
    case circle
    /// The whole image with corners rounded by `radius` pixels.
    case roundedRect(radius: Double)
    /// Any path, in image pixels, filled non-zero.
    case path(Path)
}

extension Bitmap {
    /// A copy whose alpha is multiplied by the shape's anti-aliased coverage.
    public func masked(by shape: MaskShape) throws -> Bitmap {
        guard !isEmpty else { return self }
        let w = Double(width), h = Double(height)
        let path: Path
        switch shape {
        case .circle:
            let r = min(w, h) / 2
            path = .circle(center: Point(w / 2, h / 2), radius: r)
        case .roundedRect(let radius):
            guard radius.isFinite, radius >= 0 else {
                throw RasterError.invalidArgument("mask corner radius \(radius) must be finite and not negative")
            }
            path = .roundedRect(x: 0, y: 0, width: w, height: h, radius: radius)
        case .path(let custom):
            path = custom
        }
        var coverage = try Canvas(width: width, height: height)
        try coverage.fill(path, color: .white)
        let mask = coverage.bitmap
        var copy = self
        mask.pixels.withUnsafeBufferPointer { m in
            copy.pixels.withUnsafeMutableBufferPointer { p in
                var i = 3
                while i < p.count { p[i] = Premultiplication.mul255(UInt32(p[i]), UInt32(m[i])); i += 4 }
            }
        }
        return copy
    }
}
