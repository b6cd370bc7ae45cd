import Foundation
import Raster

/// Where the files a MapLibre style names come from, by the URLs it names
/// them with: its sources' tile templates and `url`s, GeoJSON `data`, image
/// sources, sprites and glyph ranges. ``StyleDocumentRenderer`` reads a
/// style's resources through one.
///
/// Implementations: ``StyleFolderResources`` (files beside the style),
/// URLSchemeKit's `StyleSessionResources` (adds `http(s)` through a session),
/// and the render-test runner's (the suite's `local://` files).
public protocol StyleResourceLoading: Sendable {
    /// The loader of a source's tiles (vector or picture), `template` one of
    /// its `tiles` URLs with `{z}`, `{x}` and `{y}`.
    func tileLoader(template: String) throws -> any TileLoading
    /// The vector tiles a source's `url` names (a TileJSON document or an
    /// archive such as `pmtiles://…`), nil when this loader does not read
    /// that kind of URL (the style is then refused, naming it).
    func vectorTiles(url: String) throws -> (any VectorTileProviding)?
    /// The bytes of the file `url` names, at most `maximumBytes` of them (a
    /// larger file is refused, naming the limit); nil when there is no such file.
    func file(_ url: String, maximumBytes: Int) throws -> Data?
    /// Whether this loader reads the kind of URL `url` is (a file, `http(s)`…),
    /// asked before any is read so that a style naming others is told at once.
    func reads(_ url: String) -> Bool
    /// The picture of the canvas `id` a `canvas` source names (straight
    /// alpha), drawn by the host as a web page draws on its `<canvas>`
    /// element; nil when the host has none of that id (the style is then
    /// refused, naming it).
    func canvas(id: String) throws -> Bitmap?
}

extension StyleResourceLoading {
    /// Every URL, unless a loader says otherwise: it then fails on the ones it cannot read, naming them.
    public func reads(_ url: String) -> Bool { true }

    /// No canvases, unless a loader has them.
    public func canvas(id: String) throws -> Bitmap? { nil }
}
