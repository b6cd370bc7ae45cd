/// How `resized(toFit:)`-style helpers map an image into a target box.
public enum ResizeMode: String, Sendable, CaseIterable {
    /// Keep the aspect ratio; the result fits inside the box (one side may be shorter).
    case fit
    /// Keep the aspect ratio; scale to cover the box, then crop the centre to exactly the box.
    case fill
    /// Ignore the aspect ratio; the result is exactly the box.
    case stretch
}

extension Bitmap {
    /// A copy resampled to `width` × `height` with `filter` (Lanczos-3 by default).
    ///
    /// Separable (horizontal then vertical pass) with precomputed fixed-point
    /// weights, on premultiplied pixels so transparent areas leave no dark fringes.
    /// Throws for non-positive or oversized targets and for an empty source,
    /// and whatever `checkCancellation` throws (it runs every 64 rows of each pass).
    public func resized(width newWidth: Int, height newHeight: Int, filter: ResamplingFilter = .lanczos3,
                        checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        guard newWidth > 0, newHeight > 0 else {
            throw RasterError.invalidArgument("resize target \(newWidth)×\(newHeight) must be at least 1×1")
        }
        try Bitmap.validate(width: newWidth, height: newHeight)
        guard !isEmpty else { throw RasterError.invalidArgument("cannot resize an empty \(width)×\(height) bitmap") }
        if newWidth == width && newHeight == height { return self }
        let premultipliedSource = isOpaque ? pixels : Premultiplication.premultiplied(pixels)
        var horizontal: [UInt8]
        if newWidth != width {
            let weights = ResamplingWeights(inputSize: width, outputSize: newWidth, filter: filter)
            horizontal = try Self.resampleRows(premultipliedSource, width: width, height: height, to: newWidth, weights: weights,
                                               checkCancellation: checkCancellation)
        } else {
            horizontal = premultipliedSource
        }
        var result: [UInt8]
        if newHeight != height {
            let weights = ResamplingWeights(inputSize: height, outputSize: newHeight, filter: filter)
            result = try Self.resampleColumns(horizontal, width: newWidth, height: height, to: newHeight, weights: weights,
                                              checkCancellation: checkCancellation)
            horizontal = []
        } else {
            result = horizontal
        }
        Premultiplication.unpremultiply(&result)
        return try Bitmap(width: newWidth, height: newHeight, rgba: result)
    }

    /// A copy resized into a `width` × `height` box according to `mode`
    /// (`checkCancellation` as in `resized(width:height:filter:checkCancellation:)`).
    public func resized(width boxWidth: Int, height boxHeight: Int, mode: ResizeMode, filter: ResamplingFilter = .lanczos3,
                        checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        guard boxWidth > 0, boxHeight > 0 else {
            throw RasterError.invalidArgument("resize box \(boxWidth)×\(boxHeight) must be at least 1×1")
        }
        guard !isEmpty else { throw RasterError.invalidArgument("cannot resize an empty \(width)×\(height) bitmap") }
        switch mode {
        case .stretch:
            return try resized(width: boxWidth, height: boxHeight, filter: filter, checkCancellation: checkCancellation)
        case .fit:
            let size = Bitmap.fittedSize(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight)
            return try resized(width: size.width, height: size.height, filter: filter, checkCancellation: checkCancellation)
        case .fill:
            // Crop the source to the box's shape first, then resample only that
            // part: the work and memory are the box's, not those of the whole
            // source scaled to cover it (a panorama filled into a large square
            // would otherwise be scaled whole, gigabytes, to keep a sliver).
            let scale = max(Double(boxWidth) / Double(width), Double(boxHeight) / Double(height))
            let cropWidth = min(width, max(1, Int((Double(boxWidth) / scale).rounded())))
            let cropHeight = min(height, max(1, Int((Double(boxHeight) / scale).rounded())))
            let source = cropWidth == width && cropHeight == height ? self
                : try cropped(to: PixelRect(x: (width - cropWidth) / 2, y: (height - cropHeight) / 2, width: cropWidth, height: cropHeight))
            return try source.resized(width: boxWidth, height: boxHeight, filter: filter, checkCancellation: checkCancellation)
        }
    }

    /// The size `.fit` gives a `width` × `height` image in a `boxWidth` × `boxHeight`
    /// box: the aspect ratio kept, each side rounded, at least 1 and at most the box.
    public static func fittedSize(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        let scale = min(Double(boxWidth) / Double(width), Double(boxHeight) / Double(height))
        return (max(1, min(boxWidth, Int((Double(width) * scale).rounded()))),
                max(1, min(boxHeight, Int((Double(height) * scale).rounded()))))
    }

    /// Horizontal pass: each output pixel is a weighted sum of a run of source pixels in its row.
    private static func resampleRows(_ source: [UInt8], width: Int, height: Int, to newWidth: Int, weights: ResamplingWeights,
                                     checkCancellation: () throws -> Void) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: newWidth * height * 4)
        let taps = weights.taps
        let half = Int32(1 << (ResamplingWeights.precisionBits - 1))
        let shift = Int32(ResamplingWeights.precisionBits)
        try source.withUnsafeBufferPointer { src in
            try out.withUnsafeMutableBufferPointer { dst in
                try weights.weights.withUnsafeBufferPointer { w in
                    try weights.starts.withUnsafeBufferPointer { starts in
                        try weights.counts.withUnsafeBufferPointer { counts in
                            for y in 0..<height {
                                if y % 64 == 63 { try checkCancellation() }
                                let rowIn = y * width * 4
                                let rowOut = y * newWidth * 4
                                for x in 0..<newWidth {
                                    var r = half, g = half, b = half, a = half
                                    var s = rowIn + Int(starts[x]) * 4
                                    let wBase = x * taps
                                    for k in 0..<Int(counts[x]) {
                                        let c = w[wBase + k]
                                        r &+= Int32(src[s]) &* c
                                        g &+= Int32(src[s + 1]) &* c
                                        b &+= Int32(src[s + 2]) &* c
                                        a &+= Int32(src[s + 3]) &* c
                                        s += 4
                                    }
                                    let o = rowOut + x * 4
                                    dst[o] = clip8(r >> shift)
                                    dst[o + 1] = clip8(g >> shift)
                                    dst[o + 2] = clip8(b >> shift)
                                    dst[o + 3] = clip8(a >> shift)
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Vertical pass: each output row is a weighted sum of a run of source rows.
    private static func resampleColumns(_ source: [UInt8], width: Int, height: Int, to newHeight: Int, weights: ResamplingWeights,
                                        checkCancellation: () throws -> Void) throws -> [UInt8] {
        let stride = width * 4
        var out = [UInt8](repeating: 0, count: stride * newHeight)
        let taps = weights.taps
        let half = Int32(1 << (ResamplingWeights.precisionBits - 1))
        let shift = Int32(ResamplingWeights.precisionBits)
        try source.withUnsafeBufferPointer { src in
            try out.withUnsafeMutableBufferPointer { dst in
                try weights.weights.withUnsafeBufferPointer { w in
                    for y in 0..<newHeight {
                        if y % 64 == 63 { try checkCancellation() }
                        let start = Int(weights.starts[y]) * stride
                        let count = Int(weights.counts[y])
                        let wBase = y * taps
                        let rowOut = y * stride
                        for i in 0..<stride {
                            var acc = half
                            var s = start + i
                            for k in 0..<count {
                                acc &+= Int32(src[s]) &* w[wBase + k]
                                s += stride
                            }
                            dst[rowOut + i] = clip8(acc >> shift)
                        }
                    }
                }
            }
        }
        return out
    }
}

/// Clamps a fixed-point result to a byte.
@inline(__always)
func clip8(_ v: Int32) -> UInt8 {
    v <= 0 ? 0 : (v >= 255 ? 255 : UInt8(truncatingIfNeeded: v))
}
