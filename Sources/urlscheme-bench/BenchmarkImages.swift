import Foundation
import Raster

/// The standard benchmark inputs of `../shared/docs/anchors.md`, generated
/// deterministically so both sides of a comparison see the same pixels:
/// a photo-like image (smooth fields, texture, noise) and a map-like image
/// (flat regions, thin roads). Both are opaque, 1920×1280.
enum BenchmarkImages {
    enum Kind: String, CaseIterable {
        case photo
        case map
    }

    static let width = 1920
    static let height = 1280

    static func make(_ kind: Kind) throws -> Bitmap {
        switch kind {
        case .photo: return try photo()
        case .map: return try map()
        }
    }

    /// Low-frequency colour fields, a mid-frequency texture and ±6 of noise,
    /// 1920×1280 unless asked otherwise (the asset suite uses a 4000×3000 camera-sized one).
    static func photo(width: Int = width, height: Int = height) throws -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var random = SplitMix(seed: 0x5EED_0001)
        for y in 0..<height {
            let fy = Double(y) / Double(height)
            for x in 0..<width {
                let fx = Double(x) / Double(width)
                let field = 0.5 + 0.25 * sin(6.1 * fx + 2.3 * fy) + 0.2 * cos(4.7 * fy - 1.9 * fx * fx)
                let texture = 0.06 * sin(Double(x) * 0.37 + 3 * sin(Double(y) * 0.11)) * cos(Double(y) * 0.29)
                let noise = Int(random.next() % 13) - 6
                let base = field + texture
                let i = (y * width + x) * 4
                pixels[i] = clamp(Int(255 * (base * 0.9 + 0.1 * fy)) + noise)
                pixels[i + 1] = clamp(Int(255 * (0.8 * base + 0.15 * sin(3 * fx))) + noise)
                pixels[i + 2] = clamp(Int(255 * (1.0 - base * 0.7)) + noise)
            }
        }
        return try Bitmap(width: width, height: height, rgba: pixels)
    }

    /// Flat land/water/park regions bounded by smooth curves, with thin straight roads.
    static func map() throws -> Bitmap {
        let water = RGBA(170, 211, 223), land = RGBA(242, 239, 233), park = RGBA(200, 230, 190)
        let road = RGBA(255, 255, 255), major = RGBA(252, 214, 164), edge = RGBA(200, 196, 188)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x), fy = Double(y)
                let coast = 300 + 120 * sin(fy / 170) + 60 * sin(fy / 53 + 1)
                var colour = fx < coast ? water : land
                if colour == land, sin(fx / 140) * cos(fy / 120) > 0.82 { colour = park }
                if colour != water {
                    let minor = (x % 97 < 2) || (y % 83 < 2)
                    let diagonal = abs((x + 2 * y) % 331 - 165) < 2
                    let arterial = abs((3 * x - y) % 613) < 4
                    if arterial { colour = major } else if minor || diagonal { colour = road }
                    if !arterial && abs((3 * x - y) % 613) < 5 { colour = edge }
                }
                let i = (y * width + x) * 4
                pixels[i] = colour.r; pixels[i + 1] = colour.g; pixels[i + 2] = colour.b
            }
        }
        return try Bitmap(width: width, height: height, rgba: pixels)
    }

    private static func clamp(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value))) }
}

/// SplitMix64: a tiny deterministic generator, identical on every platform.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
