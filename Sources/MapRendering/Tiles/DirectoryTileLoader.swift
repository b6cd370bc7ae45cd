import Foundation

/// Tiles stored as files: `directory/{z}/{x}/{y}.png` by default.
public struct DirectoryTileLoader: TileLoading {
    /// The folder holding the tiles.
    public let directory: URL
    /// The path of a tile under `directory`, with `{z}`, `{x}` and `{y}`.
    public let template: String

    /// A loader reading `template` paths under `directory`.
    public init(directory: URL, template: String = "{z}/{x}/{y}.png") {
        self.directory = directory
        self.template = template
    }

    /// The tile's file, or `MapTileError.unavailable` naming the path.
    public func tile(_ coordinate: TileCoordinate) throws -> [UInt8] {
        let path = directory.appendingPathComponent(coordinate.filling(template)).path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MapTileError.unavailable(coordinate, "no file at \(path)")
        }
        return Array(data)
    }
}
