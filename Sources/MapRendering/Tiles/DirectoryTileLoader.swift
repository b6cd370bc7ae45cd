import Foundation

/// Tiles stored as files: `directory/{z}/{x}/{y}.png` by default.
///
/// A tile folder may come from elsewhere (an export, a shared mount), so a
/// file is read only if it is a regular file (a symbolic link to one is
/// fine; one to `/dev/zero` or a FIFO is refused without reading) of at most
/// `maximumBytes`.
public struct DirectoryTileLoader: TileLoading {
    /// The folder holding the tiles.
    public let directory: URL
    /// The path of a tile under `directory`, with `{z}`, `{x}` and `{y}`.
    public let template: String
    /// The largest tile file read (1 MiB by default, as `ResourceBudget.tileBytes`).
    public let maximumBytes: Int
    /// Whether a tile with no file is an empty tile (`[]`, as vector tile
    /// folders leave out tiles with nothing in them) rather than an error.
    public let missingFilesAreEmpty: Bool

    /// A loader reading `template` paths under `directory`, files of at most
    /// `maximumBytes`; a missing file is `[]` when `missingFilesAreEmpty`.
    public init(directory: URL, template: String = "{z}/{x}/{y}.png", maximumBytes: Int = 1 << 20, missingFilesAreEmpty: Bool = false) {
        self.directory = directory
        self.template = template
        self.maximumBytes = maximumBytes
        self.missingFilesAreEmpty = missingFilesAreEmpty
    }

    /// The tile's file (`[]` when there is none and `missingFilesAreEmpty`).
    /// Throws `MapTileError.unavailable` naming the path when there is none,
    /// it is not a regular file, it is larger than
    /// `maximumBytes`, or it cannot be read whole.
    public func tile(_ coordinate: TileCoordinate) throws -> [UInt8] {
        let path = directory.appendingPathComponent(coordinate.filling(template)).path
        // O_NONBLOCK: opening a FIFO must not wait for a writer.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if missingFilesAreEmpty, errno == ENOENT { return [] }
            throw MapTileError.unavailable(coordinate, "no file at \(path)")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw MapTileError.unavailable(coordinate, "\(path) is not a regular file")
        }
        guard status.st_size <= Int64(maximumBytes) else {
            throw MapTileError.unavailable(coordinate, "\(path) has \(status.st_size) bytes; at most \(maximumBytes) are read")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw MapTileError.unavailable(coordinate, "\(path) could not be read whole") }
            offset += count
        }
        return bytes
    }
}
