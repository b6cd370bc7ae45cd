import Foundation

/// The kernel used to resample a bitmap.
public enum ResamplingFilter: Sendable, Equatable {
    /// Windowed sinc with three lobes: the sharpest, the default.
    case lanczos3
    /// Linear interpolation (a triangle kernel of radius 1, widened when shrinking).
    case bilinear
    /// Area averaging (a box kernel): what shrinking by an integer factor wants.
    case box
    /// The nearest source pixel, no blending (pixel art, masks).
    case nearest

    /// Half-width of the kernel at scale 1.
    var support: Double {
        switch self {
        case .lanczos3: return 3
        case .bilinear: return 1
        case .box, .nearest: return 0.5
        }
    }

    /// The kernel's value at `x` (in source pixels at scale 1).
    func weight(_ x: Double) -> Double {
        switch self {
        case .lanczos3:
            if x == 0 { return 1 }
            if x <= -3 || x >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        case .bilinear:
            let a = abs(x)
            return a < 1 ? 1 - a : 0
        case .box, .nearest:
            return (x > -0.5 && x <= 0.5) ? 1 : 0
        }
    }
}
