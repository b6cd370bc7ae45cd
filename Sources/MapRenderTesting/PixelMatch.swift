import Raster

/// Counts the pixels two images differ in as MapLibre's render-test runner
/// counts them: pixelmatch (the YIQ colour distance of Kotsalis and Sotiriou,
/// with anti-aliased pixels told apart and not counted) on premultiplied RGBA.
///
/// MapLibre Native compares its premultiplied render with the expected PNG
/// decoded to premultiplied bytes, at `threshold` 0.1285; a test passes when
/// the differing pixels are at most its `allowed` fraction of all pixels.
struct PixelMatch {
    /// The largest YIQ distance counted as the same colour, 0…1.
    var threshold = 0.1285

    /// How many pixels of `actual` and `expected` (premultiplied RGBA, 4 bytes a
    /// pixel, `width × height`) differ, anti-aliased pixels not counted, and a
    /// mask of them (255 where a pixel differs) for a difference image.
    func compare(_ actual: [UInt8], _ expected: [UInt8], width: Int, height: Int) -> (count: Int, mask: [UInt8]) {
        precondition(actual.count == width * height * 4 && expected.count == actual.count)
        // 35215 is the largest YIQ distance, between black and white.
        let maximumDelta = 35215 * threshold * threshold
        var mask = [UInt8](repeating: 0, count: width * height)
        var count = 0
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                guard Self.delta(actual, offset, expected, offset) > maximumDelta else { continue }
                if Self.isAntialiased(actual, x, y, width, height, other: expected)
                    || Self.isAntialiased(expected, x, y, width, height, other: actual) {
                    continue
                }
                mask[y * width + x] = 255
                count += 1
            }
        }
        return (count, mask)
    }

    /// The squared YIQ distance of two pixels, each blended over white.
    static func delta(_ a: [UInt8], _ i: Int, _ b: [UInt8], _ j: Int) -> Double {
        if a[i] == b[j], a[i + 1] == b[j + 1], a[i + 2] == b[j + 2], a[i + 3] == b[j + 3] { return 0 }
        let (dr, dg, db) = blendedDifference(a, i, b, j)
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let inPhase = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let quadrature = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        return 0.5053 * y * y + 0.299 * inPhase * inPhase + 0.1957 * quadrature * quadrature
    }

    /// The signed brightness difference of two pixels of one image, over
    /// white; where that cancels out but alpha differs, half the alpha
    /// difference, so a ramp of alpha alone still has a direction.
    static func brightnessDelta(_ a: [UInt8], _ i: Int, _ j: Int) -> Double {
        if a[i] == a[j], a[i + 1] == a[j + 1], a[i + 2] == a[j + 2], a[i + 3] == a[j + 3] { return 0 }
        let (dr, dg, db) = blendedDifference(a, i, a, j)
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let alphaDifference = Double(a[i + 3]) - Double(a[j + 3])
        return y == 0 && alphaDifference != 0 ? alphaDifference / 2 : y
    }

    /// The channel differences of two pixels, each blended over white by its
    /// alpha (`255 + (c − 255) · a`), taken as exact differences rather than
    /// rounded blends. The bytes are used as given: premultiplied stay so.
    private static func blendedDifference(_ a: [UInt8], _ i: Int, _ b: [UInt8], _ j: Int) -> (Double, Double, Double) {
        let (a1, a2) = (Int(a[i + 3]), Int(b[j + 3]))
        guard a1 < 255 || a2 < 255 else {
            return (Double(Int(a[i]) - Int(b[j])), Double(Int(a[i + 1]) - Int(b[j + 1])), Double(Int(a[i + 2]) - Int(b[j + 2])))
        }
        func channel(_ c: Int) -> Double { Double(Int(a[i + c]) * a1 - Int(b[j + c]) * a2 - 255 * (a1 - a2)) / 255 }
        return (channel(0), channel(1), channel(2))
    }

    /// Whether the pixel at `(x, y)` of `image` looks anti-aliased: among its
    /// eight neighbours at most two are the same colour, and its darkest and
    /// brightest neighbours each have three or more same-coloured neighbours
    /// of their own in both images (an edge, not a detail).
    static func isAntialiased(_ image: [UInt8], _ x: Int, _ y: Int, _ width: Int, _ height: Int, other: [UInt8]) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0), x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        let offset = (y * width + x) * 4
        var zeroes = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        var darkest = 0.0, brightest = 0.0
        var darkestAt = (0, 0), brightestAt = (0, 0)
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                let delta = brightnessDelta(image, offset, (ny * width + nx) * 4)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < darkest {
                    darkest = delta
                    darkestAt = (nx, ny)
                } else if delta > brightest {
                    brightest = delta
                    brightestAt = (nx, ny)
                }
            }
        }
        guard darkest != 0, brightest != 0 else { return false }
        return (hasManySiblings(image, darkestAt.0, darkestAt.1, width, height) && hasManySiblings(other, darkestAt.0, darkestAt.1, width, height))
            || (hasManySiblings(image, brightestAt.0, brightestAt.1, width, height) && hasManySiblings(other, brightestAt.0, brightestAt.1, width, height))
    }

    /// Whether three or more of the pixel's neighbours have exactly its colour.
    static func hasManySiblings(_ image: [UInt8], _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0), x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        let offset = (y * width + x) * 4
        var zeroes = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                let other = (ny * width + nx) * 4
                if image[offset] == image[other], image[offset + 1] == image[other + 1],
                   image[offset + 2] == image[other + 2], image[offset + 3] == image[other + 3] {
                    zeroes += 1
                    if zeroes > 2 { return true }
                }
            }
        }
        return false
    }

    /// `bitmap`'s straight-alpha pixels premultiplied, rounded, as MapLibre
    /// decodes an expected PNG and reads back its render.
    static func premultiplied(_ bitmap: Bitmap) -> [UInt8] {
        var bytes = bitmap.pixels
        var i = 0
        while i < bytes.count {
            let alpha = Int(bytes[i + 3])
            if alpha < 255 {
                for c in 0..<3 { bytes[i + c] = UInt8((Int(bytes[i + c]) * alpha + 127) / 255) }
            }
            i += 4
        }
        return bytes
    }
}
