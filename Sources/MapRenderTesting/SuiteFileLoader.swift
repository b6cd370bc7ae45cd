import Foundation
import MapRendering
import Synchronization

/// Reads a style's tiles from the suite's files, as `local://` URLs name them,
/// and keeps the paths of the files it read, so that a test's resources can be
/// copied without the rest of the suite.
final class SuiteFileLoader: TileLoading {
    /// The files read, relative to the suite's `integration/` folder.
    var filesRead: Set<String> { read.withLock { $0 } }

    private let loader: DirectoryTileLoader
    /// The suite's `integration/` folder.
    let integration: URL
    private let read = Mutex<Set<String>>([])

    /// A loader of `template` (a path under `integration`, with `{z}`, `{x}`,
    /// `{y}`); a tile with no file is empty, as a server's 404 is to MapLibre.
    init(integration: URL, template: String) {
        loader = DirectoryTileLoader(directory: integration, template: template, missingFilesAreEmpty: true)
        self.integration = integration
    }

    /// The suite's file at `path` (relative to `integration/`, as a
    /// `local://` URL names it, e.g. a GeoJSON source's `data`), kept as read.
    func file(_ path: String) throws -> Data {
        let data = try Data(contentsOf: integration.appendingPathComponent(path))
        read.withLock { _ = $0.insert(path) }
        return data
    }

    func tile(_ coordinate: TileCoordinate) throws -> [UInt8] {
        let bytes = try loader.tile(coordinate)
        if !bytes.isEmpty { read.withLock { _ = $0.insert(coordinate.filling(loader.template)) } }
        return bytes
    }
}
