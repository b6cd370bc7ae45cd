import MapRendering
import Raster

/// One step of an `asset://` filter chain, in URL form (`filter=sepia,blur:2`).
///
/// Each maps onto a `Raster.ImageFilter`; the factors mean what Pillow's
/// `ImageEnhance` factors mean (1 leaves the image unchanged).
public enum ImageEdit: Hashable, Sendable {
    case grayscale
    case sepia
    case invert
    /// Gaussian blur with this radius in pixels (0–100).
    case blur(radius: Double)
    /// Unsharp mask of this strength (0–10; 1 when written bare): radius 2,
    /// 150 % × amount, threshold 3, so `sharpen` is Pillow's `UnsharpMask()`.
    case sharpen(amount: Double)
    /// Multiplies each channel by this factor (0–4; 0 is black, 1 changes nothing).
    case brightness(Double)
    /// Scales distance from mid-grey by this factor (0–4; 1 changes nothing).
    case contrast(Double)
    /// Scales colourfulness by this factor (0–4; 0 is grey, 1 changes nothing).
    case saturation(Double)

    /// The names a chain may use.
    public static let names = ["grayscale", "sepia", "invert", "blur", "sharpen", "brightness", "contrast", "saturation"]

    /// Parses one token, `name` or `name:value`.
    static func parse(_ token: Substring, parameter: String) throws -> ImageEdit {
        let parts = token.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].lowercased()
        let value = parts.count == 2 ? String(parts[1]) : nil
        func number(_ range: ClosedRange<Double>, default fallback: Double? = nil) throws -> Double {
            guard let value else {
                if let fallback { return fallback }
                throw URLParameterError(parameter: parameter, reason: "'\(name)' needs a value, as in '\(name):\(QueryWriter.format(range.upperBound / 4))'")
            }
            return try QueryReader.number(value, name: "\(parameter) \(name)", in: range)
        }
        func bare(_ edit: ImageEdit) throws -> ImageEdit {
            guard value == nil else { throw URLParameterError(parameter: parameter, reason: "'\(name)' takes no value") }
            return edit
        }
        switch name {
        case "grayscale", "greyscale": return try bare(.grayscale)
        case "sepia": return try bare(.sepia)
        case "invert": return try bare(.invert)
        case "blur": return .blur(radius: try number(0...100))
        case "sharpen": return .sharpen(amount: try number(0...10, default: 1))
        case "brightness": return .brightness(try number(0...4))
        case "contrast": return .contrast(try number(0...4))
        case "saturation": return .saturation(try number(0...4))
        default:
            let suggestion = NameSuggestion.didYouMean(name, in: names)
            throw URLParameterError(parameter: parameter, reason: "has unknown filter '\(name)'\(suggestion) (known: \(names.joined(separator: ", ")))")
        }
    }

    /// The token `parse` reads back as this edit.
    var token: String {
        switch self {
        case .grayscale: return "grayscale"
        case .sepia: return "sepia"
        case .invert: return "invert"
        case let .blur(radius): return "blur:" + QueryWriter.format(radius)
        case let .sharpen(amount): return amount == 1 ? "sharpen" : "sharpen:" + QueryWriter.format(amount)
        case let .brightness(value): return "brightness:" + QueryWriter.format(value)
        case let .contrast(value): return "contrast:" + QueryWriter.format(value)
        case let .saturation(value): return "saturation:" + QueryWriter.format(value)
        }
    }

    /// The Raster filter doing this edit on an image decoded at `pixelScale`
    /// of the original's size (radii are in original pixels, so they shrink with it).
    func filter(pixelScale: Double) -> ImageFilter {
        switch self {
        case .grayscale: return .grayscale
        case .sepia: return .sepia
        case .invert: return .invert
        case let .blur(radius): return .blur(radius: radius * pixelScale)
        case let .sharpen(amount): return .sharpen(radius: 2 * pixelScale, percent: Int((150 * amount).rounded()), threshold: 3)
        case let .brightness(factor): return .brightness(factor)
        case let .contrast(factor): return .contrast(factor)
        case let .saturation(factor): return .saturation(factor)
        }
    }
}
