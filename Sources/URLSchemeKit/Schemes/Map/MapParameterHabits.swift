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
/// Covered: Google Static Maps (`center`, `size`, `markers`, `maptype`),
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
        case "markers", "pt", "pin", "pins": return "marker"
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

    /// Two numbers separated by one of `separators`, as written (so the
    /// suggestion repeats the user's digits), or nil.
    private static func pair(_ value: String?, separators: Set<Character>) -> (Substring, Substring)? {
        guard let value else { return nil }
        let parts = value.split(omittingEmptySubsequences: false) { separators.contains($0) }
        guard parts.count == 2, parts.allSatisfy({ Double($0) != nil }) else { return nil }
        return (parts[0], parts[1])
    }
}
