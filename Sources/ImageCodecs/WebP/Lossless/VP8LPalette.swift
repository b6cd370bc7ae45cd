/// The colour-indexing transform of a VP8L encoder (RFC 9649 §4.4): an image
/// of at most 256 colours coded as indices into a palette, 2, 4 or 8 indices
/// bundled into one coded pixel when the palette has at most 16, 4 or 2 colours.
struct VP8LPalette {
    /// The colours, in increasing ARGB order.
    let colors: [UInt32]

    /// The palette of `pixels`, or nil when they have more than 256 colours.
    init?(_ pixels: [UInt32]) {
        var seen = Set<UInt32>()
        var previous: UInt32? = nil
        for pixel in pixels where pixel != previous {
            previous = pixel
            if seen.insert(pixel).inserted && seen.count > 256 { return nil }
        }
        colors = seen.sorted()
    }

    /// How many indices share one coded pixel, as a power of two (0…3).
    var bundlingBits: Int {
        switch colors.count {
        case ...2: return 3
        case ...4: return 2
        case ...16: return 1
        default: return 0
        }
    }

    /// The palette as the transform stores it: each colour minus the one
    /// before it, channel by channel.
    var deltaCoded: [UInt32] {
        colors.indices.map { index in
            index == 0 ? colors[0] : VP8LPredictorSearch.subtract(colors[index], colors[index - 1])
        }
    }

    /// The coded pixels of `pixels` (rows of `width`): indices in green,
    /// bundled, rows `codedWidth` pixels wide.
    func indexed(_ pixels: [UInt32], width: Int, height: Int) -> (pixels: [UInt32], codedWidth: Int) {
        var index = [UInt32: UInt32](minimumCapacity: colors.count)
        for (position, color) in colors.enumerated() { index[color] = UInt32(position) }
        let bits = bundlingBits, perPixel = 1 << bits, indexBits = UInt32(8 >> bits)
        let codedWidth = (width + perPixel - 1) >> bits
        var coded = [UInt32](repeating: VP8LTransform.black, count: codedWidth * height)
        var lastColor = colors[0], lastIndex: UInt32 = 0
        for y in 0..<height {
            for x in 0..<width {
                let color = pixels[y * width + x]
                if color != lastColor {
                    lastColor = color
                    lastIndex = index[color]!
                }
                coded[y * codedWidth + (x >> bits)] |= lastIndex << (8 + UInt32(x & (perPixel - 1)) * indexBits)
            }
        }
        return (coded, codedWidth)
    }
}
