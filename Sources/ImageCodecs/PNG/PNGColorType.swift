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
        var opaque = true, gray = true
        var i = 0
        while i < pixels.count && (opaque || gray) {
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
