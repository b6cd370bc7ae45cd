import Foundation
import MapRendering
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A style's resources from files (`StyleFolderResources`) and from
/// `http(s)` through a session made from `configuration`: tile templates
/// fetched tile by tile as a snapshot needs them (`HTTPTileLoader`), files
/// (GeoJSON, images, sprites, glyph ranges) each within its limit, and
/// `pmtiles://https://…` archives read by Range requests. With URLSchemeKit
/// installed over an `HTTPCache` in `configuration`, every answer is kept
/// there as the server's, so a second render asks the server nothing new.
public struct StyleSessionResources: StyleResourceLoading {
    /// The files beside the style.
    public var files: StyleFolderResources
    /// The session's configuration for `http(s)` resources.
    public let configuration: URLSessionConfiguration
    /// Bytes one tile may have.
    public var maximumTileBytes: Int

    /// Resources read from `folder` and, for `http(s)` URLs, through `configuration`.
    public init(folder: URL, configuration: URLSessionConfiguration = .ephemeral, maximumTileBytes: Int = 8 << 20) {
        files = StyleFolderResources(folder: folder)
        self.configuration = configuration
        self.maximumTileBytes = maximumTileBytes
    }

    /// Whether `url` is fetched over the network.
    private static func isRemote(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// Whether `url` is `http(s)` or names a file.
    public func reads(_ url: String) -> Bool { Self.isRemote(url) || files.reads(url) }

    /// An `http(s)` template's tiles through the session (a 204 or 404 is an
    /// empty tile, as MapLibre takes it); files otherwise.
    public func tileLoader(template: String) throws -> any TileLoading {
        guard Self.isRemote(template) else { return try files.tileLoader(template: template) }
        return HTTPTileLoader(template: template, configuration: configuration, maximumTileBytes: maximumTileBytes, emptyStatuses: [204, 404])
    }

    /// `pmtiles://https://…` read by Range requests; local archives as `StyleFolderResources` reads them.
    public func vectorTiles(url: String) throws -> (any VectorTileProviding)? {
        let archive = url.hasPrefix("pmtiles://") ? String(url.dropFirst("pmtiles://".count)) : nil
        guard let archive, Self.isRemote(archive), let location = URL(string: archive) else { return try files.vectorTiles(url: url) }
        return try PMTilesArchive(source: HTTPRangeByteSource(url: location, configuration: configuration))
    }

    /// An `http(s)` file fetched whole, at most `maximumBytes`; a 404 is no file.
    public func file(_ url: String, maximumBytes: Int) throws -> Data? {
        guard Self.isRemote(url) else { return try files.file(url, maximumBytes: maximumBytes) }
        // A template without tokens is one URL: the loader fetches it for any tile.
        // Font stacks have spaces ("Open Sans Regular"), sent as %20 as MapLibre sends them.
        let loader = HTTPTileLoader(template: url.replacingOccurrences(of: " ", with: "%20"), configuration: configuration, maximumTileBytes: maximumBytes, emptyStatuses: [404])
        let bytes: [UInt8]
        do {
            bytes = try loader.tile(TileCoordinate(z: 0, x: 0, y: 0))
        } catch MapTileError.unavailable(_, let reason) {
            throw StyleDocumentError("'\(url)': \(reason)")
        }
        return bytes.isEmpty ? nil : Data(bytes)
    }
}
