import Foundation
import MapRendering
import Synchronization

/// Reads a style's tiles from the suite's files, as `local://` URLs name them,
/// and records the paths of the files it read (in its ``SuiteResources``), so
/// that a test's resources can be copied without the rest of the suite.
struct SuiteFileLoader: TileLoading {
    private let loader: DirectoryTileLoader
    private let record: @Sendable (String) -> Void

    /// A loader of `template` (a path under `integration`, with `{z}`, `{x}`,
    /// `{y}`); a tile with no file is empty, as a server's 404 is to MapLibre.
    init(integration: URL, template: String, record: @escaping @Sendable (String) -> Void) {
        loader = DirectoryTileLoader(directory: integration, template: template, missingFilesAreEmpty: true)
        self.record = record
    }

    func tile(_ coordinate: TileCoordinate) throws -> [UInt8] {
        let bytes = try loader.tile(coordinate)
        if !bytes.isEmpty { record(coordinate.filling(loader.template)) }
        return bytes
    }
}
