import Foundation
import MapRendering

/// The style a vector tile source draws with (`VectorTileSource.open(_:style:budget:)`).
public enum VectorSourceStyle: Sendable, Equatable {
    /// The built-in style for the archive's schema (OpenMapTiles or
    /// Protomaps, told from its metadata), light or dark as each URL's
    /// `style=` asks.
    case automatic
    /// The built-in style for the archive's schema in one look, whatever the URL asks.
    case builtin(MapStyle)
    /// A MapLibre style JSON document; its one vector source draws from the
    /// archive, whatever that source's `url` says. `fileName`, when it was
    /// read from a file (as the user named it, e.g. `my.json`), starts its
    /// errors and warnings (`my.json:14:30: layer 'roads': …`).
    case json(Data, fileName: String? = nil)
    /// A MapLibre style JSON file, drawn as `json` is, with the sprites and
    /// glyphs it names loaded: relative paths from the file's folder,
    /// absolute paths and `file://` URLs as they are (see `StyleResources`).
    /// The file is refused unread past `ResourceBudget.vectorStyle`'s size.
    /// Errors and warnings name it as the URL does (its `relativePath`:
    /// `URL(fileURLWithPath: "my.json")` is `my.json`).
    case file(URL)
}
