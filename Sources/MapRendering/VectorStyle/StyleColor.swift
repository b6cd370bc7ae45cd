import Foundation
import Raster

/// A colour in a style: sRGB channels and straight (not premultiplied) alpha, each
/// 0…1, as MapLibre's CSS colour parser gives them (not rounded to 8 bits, so
/// interpolation between two colours matches MapLibre's).
public struct StyleColor: Sendable, Hashable {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Alpha, 0 (transparent) … 1 (opaque), straight.
    public var alpha: Double

    /// A colour from channels 0…1 and straight alpha.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The nearest 8-bit colour, straight alpha, for drawing with `Raster`.
    public var rgba: RGBA {
        func byte(_ v: Double) -> UInt8 { v.isNaN ? 0 : UInt8((min(max(v, 0), 1) * 255).rounded()) }
        return RGBA(byte(red), byte(green), byte(blue), byte(alpha))
    }

    /// MapLibre's colour interpolation: each channel of the straight (unpremultiplied)
    /// colours linearly, alpha too (`Color.interpolate` in the 'rgb' space).
    static func interpolate(_ from: StyleColor, _ to: StyleColor, _ t: Double) -> StyleColor {
        StyleColor(red: from.red + t * (to.red - from.red),
                   green: from.green + t * (to.green - from.green),
                   blue: from.blue + t * (to.blue - from.blue),
                   alpha: from.alpha + t * (to.alpha - from.alpha))
    }

    /// `rgba(r,g,b,a)` with 0…255 channels, what MapLibre's `to-string` gives.
    var cssString: String {
        func byte(_ v: Double) -> String { String(Int((v * 255).rounded())) }
        return "rgba(\(byte(red)),\(byte(green)),\(byte(blue)),\(StyleNumberFormat.string(alpha)))"
    }

    /// Parses every CSS colour form MapLibre accepts: named colours and
    /// `transparent`, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()` and
    /// `hsl()`/`hsla()` with commas or spaces (and `/ alpha`), numbers or
    /// percentages (saturation and lightness without `%` read as fractions,
    /// as MapLibre Native reads them). Nil for anything else.
    public init?(css input: String) {
        let text = input.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        if text == "transparent" {
            self.init(red: 0, green: 0, blue: 0, alpha: 0)
            return
        }
        if let (r, g, b) = StyleColor.named[text] {
            self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255)
            return
        }
        if text.hasPrefix("#") {
            guard let color = StyleColor.hex(text.dropFirst()) else { return nil }
            self = color
            return
        }
        for (prefix, isHSL) in [("rgba(", false), ("rgb(", false), ("hsla(", true), ("hsl(", true)] where text.hasPrefix(prefix) {
            guard text.hasSuffix(")"),
                  let arguments = StyleColor.arguments(text.dropFirst(prefix.count).dropLast()) else { return nil }
            guard let color = isHSL ? StyleColor.hsl(arguments) : StyleColor.rgb(arguments) else { return nil }
            self = color
            return
        }
        return nil
    }

    private static func hex(_ digits: Substring) -> StyleColor? {
        guard [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        let step = digits.count < 6 ? 1 : 2
        var channels: [Double] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: step)
            var pair = String(digits[index..<next])
            if step == 1 { pair += pair }
            channels.append(Double(UInt8(pair, radix: 16) ?? 0) / 255)
            index = next
        }
        return StyleColor(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 1)
    }

    /// The three or four arguments of `rgb(…)`/`hsl(…)`: all comma-separated, or
    /// space-separated with an optional `/ alpha` (CSS Color 4; mixing is refused).
    private static func arguments(_ body: Substring) -> [Substring]? {
        let trimmed = { (s: Substring) in s.trimmingCharacters(in: .whitespaces)[...] }
        if body.contains(",") {
            guard !body.contains("/") else { return nil }
            let parts = body.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
            return (parts.count == 3 || parts.count == 4) && !parts.contains(where: \.isEmpty) ? parts : nil
        }
        let halves = body.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        var parts = halves[0].split(whereSeparator: \.isWhitespace)
        guard parts.count == 3 else { return nil }
        if halves.count == 2 {
            let alpha = trimmed(halves[1])
            guard !alpha.isEmpty, !alpha.contains(where: \.isWhitespace) else { return nil }
            parts.append(alpha)
        }
        return parts
    }

    /// A CSS number (the characters MapLibre's pattern allows: digits, `e`, `.`,
    /// `+`, `-`) and whether it ended in `%`.
    private static func number(_ token: Substring) -> (value: Double, percent: Bool)? {
        var digits = token
        let percent = digits.hasSuffix("%")
        if percent { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || "e.+-".contains($0)) }),
              let value = Double(digits), value.isFinite else { return nil }
        return (value, percent)
    }

    private static func alpha(_ token: Substring?) -> Double? {
        guard let token else { return 1 }
        guard let (value, percent) = number(token) else { return nil }
        return clamp(percent ? value / 100 : value)
    }

    private static func clamp(_ v: Double, _ upper: Double = 1) -> Double { min(max(v, 0), upper) }

    private static func rgb(_ arguments: [Substring]) -> StyleColor? {
        let values = arguments.prefix(3).compactMap(number)
        guard values.count == 3, let alpha = alpha(arguments.count == 4 ? arguments[3] : nil) else { return nil }
        let percentCount = values.filter(\.percent).count
        guard percentCount == 0 || percentCount == 3 else { return nil }
        let scale = percentCount == 3 ? 100.0 : 255.0
        return StyleColor(red: clamp(values[0].value / scale), green: clamp(values[1].value / scale),
                          blue: clamp(values[2].value / scale), alpha: alpha)
    }

    private static func hsl(_ arguments: [Substring]) -> StyleColor? {
        var hueToken = arguments[0]
        if hueToken.hasSuffix("deg") { hueToken = hueToken.dropLast(3) }
        guard let hue = number(hueToken), !hue.percent,
              let saturation = number(arguments[1]), let lightness = number(arguments[2]),
              let alpha = alpha(arguments.count == 4 ? arguments[3] : nil) else { return nil }
        // CSS Color 4 §7.1 hslToRgb, as MapLibre's color_spaces.ts writes it.
        let h = (hue.value.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        // Without `%`, a fraction 0…1, as MapLibre Native's CSS colour parser reads it (`hsla(0, 0, 0, 0)`).
        let s = saturation.percent ? clamp(saturation.value, 100) / 100 : clamp(saturation.value)
        let l = lightness.percent ? clamp(lightness.value, 100) / 100 : clamp(lightness.value)
        func channel(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return StyleColor(red: channel(0), green: channel(8), blue: channel(4), alpha: alpha)
    }
}
