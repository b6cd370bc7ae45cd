/// The 8-bit PNG colour types the encoder writes.
public enum PNGColorType: UInt8, CaseIterable, Sendable {
    case gray = 0
    case rgb = 2
    case grayAlpha = 4
    case rgba = 6

    /// Bytes per pixel at 8 bits per channel.
    var channels: Int {
        switch self {
        case .gray: return 1
        case .grayAlpha: return 2
        case .rgb: return 3
        case .rgba: return 4
        }
    }

    /// The smallest type that stores `pixels` (RGBA8) without loss.
    static func smallest(for pixels: UnsafeBufferPointer<UInt8>) -> PNGColorType {
        // 16 pixels at a time as little-endian words 0xAABBGGRR: AND-ing them keeps
        // alpha 0xFF only if every alpha is; OR-ing R^G and G^B stays 0 only if all are gray.
        var allBits = SIMD16<UInt32>(repeating: .max), colourBits = SIMD16<UInt32>()
        var i = 0
        if let base = pixels.baseAddress {
            while i + 64 <= pixels.count {
                let words = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt32>.self)
                allBits &= words
                colourBits |= (words ^ (words &>> 8)) & 0xFFFF
                i += 64
            }
        }
        var opaque = true, gray = true
        for lane in 0..<16 {
            if allBits[lane] >> 24 != 0xFF { opaque = false }
            if colourBits[lane] != 0 { gray = false }
        }
        while i < pixels.count {
            if pixels[i + 3] != 255 { opaque = false }
            if pixels[i] != pixels[i + 1] || pixels[i] != pixels[i + 2] { gray = false }
            i += 4
        }
        switch (gray, opaque) {
        case (true, true): return .gray
        case (true, false): return .grayAlpha
        case (false, true): return .rgb
        case (false, false): return .rgba
        }
    }
}
