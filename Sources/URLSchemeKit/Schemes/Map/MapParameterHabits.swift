/// What users of other static-map APIs write by habit, and the `map://`
/// spelling to write instead: the answer to an unknown parameter (issue 29,
/// point 7), so `lat=59.9` gets "did you mean 'latitude'?" and
/// `center=59.9,30.3` gets "did you mean 'latitude=59.9&longitude=30.3'?".
///
/// These are suggestions, not aliases: a picture has one URL, so caches,
/// logs and links agree on it, and a spelling whose meaning differs by API
/// (`ll` is longitude first for Yandex, `size` is `600x400` for Google and
/// `600,400` for Yandex) is never guessed silently.
///
/// Covered: Google Static Maps (`center`, `size`, `maptype`, and `markers`,
/// whose `style|location|…` value is rewritten as `marker=` items),
/// Mapbox and Leaflet-style coordinates (`lat`, `lng`, `lon`), Yandex Static
/// API (`ll`, `z`, `spn`, `pt`). Other names fall back to the nearest known
/// name (`NameSuggestion`).
enum MapParameterHabits {
    /// The `map://` replacement for `name` (given with `value`), or nil when it is no habit this knows.
    static func suggestion(for name: String, value: String?) -> String? {
        switch name.lowercased() {
        case "lat": return "latitude"
        case "lng", "lon", "long": return "longitude"
        case "z": return "zoom"
        case "maptype": return "style"
        case "markers": return googleMarkers(value) ?? "marker"
        case "pt", "pin", "pins": return "marker"
        case "paths": return "path"
        case "center", "centre":
            // Google's `center=lat,lng`; an address (`center=Paris`) has no map:// spelling.
            guard let (first, second) = pair(value, separators: [","]) else { return "latitude=…&longitude=…" }
            return "latitude=\(first)&longitude=\(second)"
        case "ll":
            // Yandex: longitude first.
            guard let (first, second) = pair(value, separators: [","]) else { return "latitude=…&longitude=…" }
            return "latitude=\(second)&longitude=\(first)"
        case "spn":
            // Yandex: the longitude span first.
            guard let (first, second) = pair(value, separators: [","]) else { return "latitude_delta=…&longitude_delta=…" }
            return "latitude_delta=\(second)&longitude_delta=\(first)"
        case "size":
            // Google `600x400`, Yandex `600,400`: points before `scale`, as here.
            guard let (first, second) = pair(value, separators: ["x", "X", ","]) else { return "width=…&height=…" }
            return "width=\(first)&height=\(second)"
        default: return nil
        }
    }

    /// Google's `markers=size:mid|color:0xFF0000|label:A|59.9,30.3|55.75,37.62`
    /// as `marker=` items (one per location, each with the style), or nil
    /// when it holds something with no `map://` spelling (an address, an icon).
    private static func googleMarkers(_ value: String?) -> String? {
        guard let value, value.contains("|") || value.contains(",") else { return nil }
        var style: [String] = [], locations: [String] = []
        for token in value.split(separator: "|") {
            if let colon = token.firstIndex(of: ":") {
                let name = token[..<colon].lowercased(), setting = token[token.index(after: colon)...]
                switch name {
                case "color":
                    let hex = setting.hasPrefix("0x") ? String(setting.dropFirst(2)) : String(setting)
                    style.append("color:" + hex)
                case "label": style.append("label:\(setting)")
                case "size":
                    guard let size = ["tiny": "small", "small": "small", "mid": "medium"][setting.lowercased()] else { return nil }
                    style.append("size:" + size)
                default: return nil
                }
            } else {
                guard pair(String(token), separators: [","]) != nil else { return nil }
                locations.append(String(token))
            }
        }
        guard !locations.isEmpty else { return nil }
        return locations.map { "marker=" + ([$0] + style).joined(separator: ",") }.joined(separator: "&")
    }

    /// Two numbers separated by one of `separators`, as written (so the
    /// suggestion repeats the user's digits), or nil.
    private static func pair(_ value: String?, separators: Set<Character>) -> (Substring, Substring)? {
        guard let value else { return nil }
        let parts = value.split(omittingEmptySubsequences: false) { separators.contains($0) }
        guard parts.count == 2, parts.allSatisfy({ Double($0) != nil }) else { return nil }
        return (parts[0], parts[1])
    }
}
