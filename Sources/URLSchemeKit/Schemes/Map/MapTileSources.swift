import MapRendering
import Synchronization

/// The tile sources `map://` URLs can name with `tiles=NAME`. Registered in
/// code (the URL carries only the name, never a server address), read under a lock.
///
/// ```swift
/// MapTileSources.register("streets", TileSource(
///     loader: HTTPTileLoader(template: "https://tiles.example/{z}/{x}/{y}.png", userAgent: "MyApp/1.0 (me@example.com)"),
///     attribution: "© Example contributors"))
/// // map://?latitude=59.93&longitude=30.32&zoom=12&tiles=streets
/// ```
public enum MapTileSources {
    private static let sources = Mutex<[String: TileSource]>([:])

    /// Makes `source` available as `tiles=name` (letters, digits, `-`, `_`).
    public static func register(_ name: String, _ source: TileSource) {
        sources.withLock { $0[name] = source }
    }

    /// Forgets a source.
    public static func remove(_ name: String) {
        sources.withLock { $0[name] = nil }
    }

    /// The source registered as `name`.
    public static func source(named name: String) -> TileSource? {
        sources.withLock { $0[name] }
    }

    /// Every registered name, sorted.
    public static var names: [String] {
        sources.withLock { $0.keys.sorted() }
    }
}
