import Raster

/// Colours in URLs: `RRGGBB` or `RRGGBBAA` hex (no `#`, which would start a
/// fragment), or one of a few names.
enum ColorParameter {
    static let names: [String: RGBA] = [
        "black": RGBA(0, 0, 0), "white": RGBA(255, 255, 255), "gray": RGBA(128, 128, 128), "grey": RGBA(128, 128, 128),
        "red": RGBA(229, 57, 53), "orange": RGBA(251, 140, 0), "yellow": RGBA(253, 216, 53), "green": RGBA(67, 160, 71),
        "blue": RGBA(30, 136, 229), "purple": RGBA(142, 36, 170), "brown": RGBA(109, 76, 65),
    ]

    static func parse(_ text: Substring, parameter: String) throws -> RGBA {
        if let named = names[text.lowercased()] { return named }
        guard !text.hasPrefix("#"), let color = RGBA(hex: text) else {
            throw URLParameterError(parameter: parameter,
                                    reason: "has colour '\(text)'; use RRGGBB or RRGGBBAA hex (no '#') or one of \(names.keys.sorted().joined(separator: ", "))")
        }
        return color
    }
}
