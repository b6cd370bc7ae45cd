/// One pixel operation; arrays of them apply in order with `Bitmap.applying(_:)`.
///
/// Colour filters act on straight-alpha RGB and keep alpha; blur and sharpen
/// work premultiplied so transparent pixels do not darken their neighbours.
public enum ImageFilter: Sendable, Equatable {
    /// Rec. 709 luma (0.2126 R + 0.7152 G + 0.0722 B) in all three channels.
    case grayscale
    /// The classic sepia tone matrix.
    case sepia
    /// 255 − value for R, G and B.
    case invert
    /// Multiplies R, G, B by `factor` (0 is black, 1 unchanged), like Pillow's `ImageEnhance.Brightness`.
    case brightness(Double)
    /// Scales distance from the image's mean luma by `factor`, like Pillow's `ImageEnhance.Contrast`.
    case contrast(Double)
    /// Scales distance from each pixel's luma by `factor` (0 is grey), like Pillow's `ImageEnhance.Color`.
    case saturation(Double)
    /// Gaussian blur of standard deviation `radius` (three extended box passes, as Pillow does).
    case blur(radius: Double)
    /// Unsharp mask: adds `percent` % of (image − blurred) where the difference exceeds `threshold`.
    case sharpen(radius: Double, percent: Int, threshold: Int)
    /// Multiplies alpha by `factor` in 0...1.
    case opacity(Double)
}

extension Bitmap {
    /// The bitmap with each filter applied in order. Throws for NaN, infinite
    /// or out-of-range parameters (negative factors, radius above 1000), and
    /// whatever `checkCancellation` throws: it runs between filters and, in a
    /// blur or sharpen, between bands of rows (a 64 MP blur takes seconds).
    public func applying(_ filters: [ImageFilter], checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        var result = self
        for filter in filters {
            try checkCancellation()
            try result.apply(filter, checkCancellation: checkCancellation)
        }
        return result
    }

    /// The bitmap with one filter applied (see `applying(_:checkCancellation:)`).
    public func applying(_ filter: ImageFilter, checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        try applying([filter], checkCancellation: checkCancellation)
    }

    private mutating func apply(_ filter: ImageFilter, checkCancellation: () throws -> Void) throws {
        switch filter {
        case .grayscale:
            mapColours { r, g, b in
                let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
                return (y, y, y)
            }
        case .sepia:
            mapColours { r, g, b in
                (0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b)
            }
        case .invert:
            pixels.withUnsafeMutableBufferPointer { p in
                var i = 0
                while i < p.count { p[i] = 255 &- p[i]; p[i + 1] = 255 &- p[i + 1]; p[i + 2] = 255 &- p[i + 2]; i += 4 }
            }
        case .brightness(let factor):
            try Self.checkFactor(factor, "brightness")
            mapColours { r, g, b in (r * factor, g * factor, b * factor) }
        case .contrast(let factor):
            try Self.checkFactor(factor, "contrast")
            let mean = meanLuma()
            mapColours { r, g, b in
                (mean + (r - mean) * factor, mean + (g - mean) * factor, mean + (b - mean) * factor)
            }
        case .saturation(let factor):
            try Self.checkFactor(factor, "saturation")
            mapColours { r, g, b in
                let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
                return (y + (r - y) * factor, y + (g - y) * factor, y + (b - y) * factor)
            }
        case .blur(let radius):
            try Self.checkRadius(radius)
            self = try GaussianBlur.blurred(self, radius: radius, checkCancellation: checkCancellation)
        case let .sharpen(radius, percent, threshold):
            try Self.checkRadius(radius)
            guard percent >= 0, percent <= 10_000, threshold >= 0, threshold <= 255 else {
                throw RasterError.invalidArgument("sharpen percent \(percent) must be 0...10000 and threshold \(threshold) 0...255")
            }
            let blurred = try GaussianBlur.blurred(self, radius: radius, checkCancellation: checkCancellation)
            let amount = Int32(percent)
            let limit = Int32(threshold)
            blurred.pixels.withUnsafeBufferPointer { b in
                pixels.withUnsafeMutableBufferPointer { p in
                    var i = 0
                    while i < p.count {
                        for c in 0..<3 {
                            let v = Int32(p[i + c]), diff = v - Int32(b[i + c])
                            if abs(diff) >= limit {
                                p[i + c] = clip8(v + (diff * amount + (diff >= 0 ? 50 : -50)) / 100)
                            }
                        }
                        i += 4
                    }
                }
            }
        case .opacity(let factor):
            guard factor.isFinite, factor >= 0, factor <= 1 else {
                throw RasterError.invalidArgument("opacity \(factor) must be in 0...1")
            }
            let scale = UInt32((factor * 256).rounded())
            pixels.withUnsafeMutableBufferPointer { p in
                var i = 3
                while i < p.count { p[i] = UInt8((UInt32(p[i]) * scale + 128) >> 8); i += 4 }
            }
        }
    }

    private static func checkFactor(_ factor: Double, _ name: String) throws {
        guard factor.isFinite, factor >= 0, factor <= 100 else {
            throw RasterError.invalidArgument("\(name) factor \(factor) must be finite and in 0...100")
        }
    }

    private static func checkRadius(_ radius: Double) throws {
        guard radius.isFinite, radius >= 0, radius <= 1000 else {
            throw RasterError.invalidArgument("blur radius \(radius) must be finite and in 0...1000")
        }
    }

    /// Applies `transform` (on 0...255 doubles) to each pixel's RGB through a
    /// per-pixel call; results are rounded and clamped.
    private mutating func mapColours(_ transform: (Double, Double, Double) -> (Double, Double, Double)) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let (r, g, b) = transform(Double(p[i]), Double(p[i + 1]), Double(p[i + 2]))
                p[i] = Self.byte(r); p[i + 1] = Self.byte(g); p[i + 2] = Self.byte(b)
                i += 4
            }
        }
    }

    @inline(__always)
    private static func byte(_ v: Double) -> UInt8 {
        v <= 0 ? 0 : (v >= 255 ? 255 : UInt8(v + 0.5))
    }

    /// Mean Rec. 709 luma over all pixels (the pivot of `contrast`).
    private func meanLuma() -> Double {
        guard !isEmpty else { return 0 }
        var total = 0.0
        pixels.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                total += 0.2126 * Double(p[i]) + 0.7152 * Double(p[i + 1]) + 0.0722 * Double(p[i + 2])
                i += 4
            }
        }
        return total / Double(width * height)
    }
}
