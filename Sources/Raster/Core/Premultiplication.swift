/// Conversions between straight alpha (what `Bitmap` stores) and premultiplied
/// alpha (what blending and resampling need so transparent pixels' colours do
/// not bleed in as dark fringes).
enum Premultiplication {
    /// Copies straight RGBA into premultiplied RGBA with rounding (`c * a / 255`).
    static func premultiplied(_ source: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: source.count)
        source.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var i = 0
                while i + 3 < src.count {
                    let a = UInt32(src[i + 3])
                    if a == 255 {
                        dst[i] = src[i]; dst[i + 1] = src[i + 1]; dst[i + 2] = src[i + 2]
                    } else if a != 0 {
                        dst[i] = mul255(UInt32(src[i]), a)
                        dst[i + 1] = mul255(UInt32(src[i + 1]), a)
                        dst[i + 2] = mul255(UInt32(src[i + 2]), a)
                    }
                    dst[i + 3] = UInt8(a)
                    i += 4
                }
            }
        }
        return out
    }

    /// Turns premultiplied RGBA back into straight RGBA in place.
    static func unpremultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let a = UInt32(p[i + 3])
                if a == 0 {
                    p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                } else if a != 255 {
                    p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + a / 2) / a))
                    p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + a / 2) / a))
                    p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + a / 2) / a))
                }
                i += 4
            }
        }
    }

    /// `x * a / 255` rounded, for x, a in 0...255.
    @inline(__always)
    static func mul255(_ x: UInt32, _ a: UInt32) -> UInt8 {
        let t = x * a + 128
        return UInt8((t + (t >> 8)) >> 8)
    }
}
