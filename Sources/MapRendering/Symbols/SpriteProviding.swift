import Foundation

/// Where a style's sprite files come from: the renderer asks for a sprite's
/// URL with `.json` or `.png` appended (and `@2x` before it on a sheet for
/// pixel ratios over 1), as MapLibre builds them.
public protocol SpriteProviding: Sendable {
    /// The bytes of the file `url` names, at most `maximumBytes` of them.
    /// - Throws: an error naming the file when it cannot be read or is larger.
    func spriteFile(_ url: String, maximumBytes: Int) throws -> Data
}

/// Sprite files from a folder: `file://` URLs and paths relative to
/// `directory` (a path may not climb out of it with `..`).
public struct DirectorySpriteProvider: SpriteProviding {
    /// The folder relative sprite URLs are read from.
    public var directory: URL

    /// A provider reading relative sprite URLs from `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The file `url` names, checked against `maximumBytes` before it is read.
    public func spriteFile(_ url: String, maximumBytes: Int) throws -> Data {
        let file: URL
        if url.hasPrefix("file://") {
            guard let parsed = URL(string: url), parsed.isFileURL else { throw SpriteError(file: url, "not a file URL") }
            file = parsed
        } else {
            guard !url.contains("://"), !url.split(separator: "/").contains("..") else {
                throw SpriteError(file: url, "only file:// URLs and paths inside \(directory.path) are read")
            }
            file = directory.appendingPathComponent(url)
        }
        let size: Int
        do {
            size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw SpriteError(file: url, "cannot be read (\(file.path) does not exist)")
        }
        guard size <= maximumBytes else { throw SpriteError(file: url, "the file is \(size) bytes, over the limit of \(maximumBytes)") }
        do {
            return try Data(contentsOf: file)
        } catch {
            throw SpriteError(file: url, "cannot be read: \(error.localizedDescription)")
        }
    }
}
