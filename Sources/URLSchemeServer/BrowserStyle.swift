import Foundation

/// A tile source's MapLibre style, rewritten for MapLibre GL JS in a browser
/// drawing from this server: each `vector` source points at the source's
/// vector TileJSON here (`BASE/data/NAME.json`), whatever its `url` said
/// (`pmtiles://…`, a local path); `file://` (or plain path) glyphs and
/// sprites, which a browser cannot read, point at the server's copies
/// (`BASE/fonts/NAME/{fontstack}/{range}.pbf`, `BASE/styles/NAME/sprite…`).
/// `http(s)` URLs are left as they are. A style without `glyphs` gets the
/// server's built-in glyph set at that same URL (MapLibre GL JS refuses a
/// `text-field` without glyphs; our renderer draws it from those glyphs too).
enum BrowserStyle {
    /// The rewritten style JSON of `style` for source `name` served at `base`.
    /// Throws when `style` is not a JSON object.
    static func rewrite(_ style: Data, name: String, base: String) throws -> Data {
        guard var document = try JSONSerialization.jsonObject(with: style) as? [String: Any] else {
            throw HTTPRequestError(500, "the style of tile source '\(name)' is not a JSON object")
        }
        if var sources = document["sources"] as? [String: Any] {
            for (key, value) in sources {
                guard let source = value as? [String: Any], source["type"] as? String == "vector" else { continue }
                var served: [String: Any] = ["type": "vector", "url": "\(base)/data/\(name).json"]
                if let attribution = source["attribution"] { served["attribution"] = attribution }
                sources[key] = served
            }
            document["sources"] = sources
        }
        if (document["glyphs"] as? String).map(isLocal) ?? true {
            document["glyphs"] = "\(base)/fonts/\(name)/{fontstack}/{range}.pbf"
        }
        switch document["sprite"] {
        case let sprite as String where isLocal(sprite):
            document["sprite"] = "\(base)/styles/\(name)/sprite"
        case let sprites as [[String: Any]]:
            document["sprite"] = sprites.map { sprite -> [String: Any] in
                guard let id = sprite["id"] as? String, let url = sprite["url"] as? String, isLocal(url), TileRoutes.isName(id) else { return sprite }
                return ["id": id, "url": "\(base)/styles/\(name)/sprite/\(id)"]
            }
        default: break
        }
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
    }

    /// Whether `url` names a local file (`file://` or a path), which only the server can read.
    static func isLocal(_ url: String) -> Bool {
        url.hasPrefix("file://") || !url.contains("://")
    }

    /// The local path `url` (`file://…` or a path) names, with `replacements` made in it.
    static func path(of url: String, replacing replacements: [(String, String)] = []) -> String {
        var path = url.hasPrefix("file://") ? (URL(string: url)?.path ?? String(url.dropFirst(7))) : url
        for (token, value) in replacements { path = path.replacingOccurrences(of: token, with: value) }
        return path
    }
}
