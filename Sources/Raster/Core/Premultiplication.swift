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
            guard let base = p.baseAddress else { return }
            unpremultiply(UnsafePointer(base), count: p.count / 4, into: base)
        }
    }

    /// Writes `count` premultiplied RGBA pixels from `source` as straight RGBA
    /// to `destination` (which may be `source`). Opaque pixels, most of a
    /// map or a photo, are copied as whole words.
    static func unpremultiply(_ source: UnsafePointer<UInt8>, count: Int, into destination: UnsafeMutablePointer<UInt8>) {
        let words = UnsafeRawPointer(source), out = UnsafeMutableRawPointer(destination)
        for i in 0..<count {
            let word = words.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)
            let a = word >> 24
            if a == 255 {
                out.storeBytes(of: word, toByteOffset: 4 * i, as: UInt32.self)
            } else if a == 0 {
                out.storeBytes(of: 0, toByteOffset: 4 * i, as: UInt32.self)
            } else {
                @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
                    min(255, (((word >> shift) & 0xFF) * 255 + a / 2) / a) << shift
                }
                out.storeBytes(of: channel(0) | channel(8) | channel(16) | a << 24, toByteOffset: 4 * i, as: UInt32.self)
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
