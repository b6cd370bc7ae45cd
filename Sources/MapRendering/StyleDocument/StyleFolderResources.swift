import Foundation

/// A style's resources from files: paths relative to the style's folder,
/// absolute paths and `file://` URLs; a source's `url` of `pmtiles://` and
/// a path (`pmtiles://tiles/city.pmtiles`, relative to the folder, or
/// `pmtiles:///srv/city.pmtiles`). Other schemes are not read: a tile
/// template or file URL of one throws, naming it.
public struct StyleFolderResources: StyleResourceLoading {
    /// The style's folder: relative paths are read from here.
    public var folder: URL
    /// Bounds on one vector tile and an archive's directories.
    public var tileLimits: VectorTileLimits

    /// Resources read from `folder` (the style file's).
    public init(folder: URL, tileLimits: VectorTileLimits = .default) {
        self.folder = folder
        self.tileLimits = tileLimits
    }

    /// The file `url` names: `file://` and absolute paths as they are,
    /// relative paths inside ``folder``; nil for another scheme.
    public func fileURL(_ url: String) -> URL? {
        if url.hasPrefix("file://") {
            return URL(string: url).flatMap { $0.isFileURL ? $0 : nil }
        }
        if url.hasPrefix("/") { return URL(fileURLWithPath: url) }
        guard !url.contains("://"), !url.hasPrefix("mapbox:") else { return nil }
        return folder.appendingPathComponent(url)
    }

    /// Whether `url` names a file (``fileURL(_:)`` is not nil).
    public func reads(_ url: String) -> Bool { fileURL(url) != nil }

    /// Tiles from files: the template's directory part read by a `DirectoryTileLoader`
    /// (a tile with no file is empty, as a server's 404 is to MapLibre).
    public func tileLoader(template: String) throws -> any TileLoading {
        guard let file = fileURL(template) else { throw StyleDocumentError("tiles '\(template)': only files are read (a path relative to the style, or a file:// URL)") }
        let path = file.path.removingPercentEncoding ?? file.path
        guard let tokens = path.range(of: "{z}") else { throw StyleDocumentError("tiles '\(template)': the template has no {z}") }
        let directory = String(path[..<tokens.lowerBound])
        return DirectoryTileLoader(directory: URL(fileURLWithPath: directory, isDirectory: true),
                                   template: String(path[tokens.lowerBound...]), maximumBytes: tileLimits.compressedTileBytes,
                                   missingFilesAreEmpty: true)
    }

    /// A PMTiles archive for `pmtiles://PATH`; nil for another URL.
    public func vectorTiles(url: String) throws -> (any VectorTileProviding)? {
        guard url.hasPrefix("pmtiles://") else { return nil }
        let rest = String(url.dropFirst("pmtiles://".count))
        guard let file = fileURL(rest) else { return nil }
        return try PMTilesArchive(url: file, limits: tileLimits)
    }

    /// The file's bytes, at most `maximumBytes` (one byte more is read to tell).
    public func file(_ url: String, maximumBytes: Int) throws -> Data? {
        guard let file = fileURL(url) else { throw StyleDocumentError("'\(url)': only files are read (a path relative to the style, or a file:// URL)") }
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        guard data.count <= maximumBytes else { throw StyleDocumentError("'\(url)': over the limit of \(maximumBytes) bytes") }
        return data
    }
}
