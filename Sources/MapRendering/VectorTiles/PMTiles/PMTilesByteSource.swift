import Foundation
import Synchronization

/// Where a PMTiles archive's bytes come from: ranges read on demand, so an
/// archive of gigabytes costs only the directories and tiles drawn.
public protocol PMTilesByteSource: Sendable {
    /// The archive's size in bytes.
    var count: UInt64 { get }
    /// The bytes in `range` (within `0..<count`), or an error naming why not.
    func bytes(in range: Range<UInt64>) throws -> [UInt8]
    /// The bytes in `range`, given up on soon after `cancellation` fires (a
    /// source that waits on a network cancels its request and throws what
    /// `cancellation.check()` throws). By default, `bytes(in:)`.
    func bytes(in range: Range<UInt64>, cancellation: RenderCancellation) throws -> [UInt8]
}

extension PMTilesByteSource {
    /// The bytes, ignoring `cancellation`: for sources that answer at once (a file, memory).
    public func bytes(in range: Range<UInt64>, cancellation: RenderCancellation) throws -> [UInt8] {
        try bytes(in: range)
    }
}

/// An archive in a local file, read with positioned reads.
public final class PMTilesFileSource: PMTilesByteSource {
    /// The file's size when opened.
    public let count: UInt64
    private let path: String
    /// A seek and a read must not interleave with another thread's.
    private let handle: Mutex<FileHandle>

    /// Opens the file at `url` for reading.
    public init(url: URL) throws {
        path = url.path
        do {
            let handle = try FileHandle(forReadingFrom: url)
            count = try handle.seekToEnd()
            self.handle = Mutex(handle)
        } catch {
            throw VectorTileError(.truncated, "\(url.path): \(Self.reason(error))")
        }
    }

    /// Why a file could not be opened or read, in a few words ("no such file"), not
    /// Foundation's sentence ("The operation could not be completed…").
    static func reason(_ error: Error) -> String {
        switch (error as? CocoaError)?.code {
        case .fileNoSuchFile?, .fileReadNoSuchFile?: return "no such file"
        case .fileReadNoPermission?: return "permission denied"
        default:
            let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            return posix.map { String(cString: strerror(Int32($0.code))) } ?? error.localizedDescription
        }
    }

    /// The bytes in `range`.
    public func bytes(in range: Range<UInt64>) throws -> [UInt8] {
        guard range.upperBound <= count else {
            throw VectorTileError(.truncated, "bytes \(range) lie past the end of \(path) (\(count) bytes)")
        }
        guard !range.isEmpty else { return [] }
        let data = try handle.withLock { handle -> Data? in
            do {
                try handle.seek(toOffset: range.lowerBound)
                return try handle.read(upToCount: range.count)
            } catch {
                throw VectorTileError(.truncated, "reading bytes \(range) of \(path): \(Self.reason(error))")
            }
        }
        guard let data, data.count == range.count else {
            throw VectorTileError(.truncated, "\(path) ended inside bytes \(range): the file shrank or is truncated")
        }
        return [UInt8](data)
    }
}

/// An archive held in memory (tests, fuzzing, an archive downloaded whole).
public struct PMTilesDataSource: PMTilesByteSource {
    /// The archive.
    public let data: Data

    /// Serves `data`.
    public init(_ data: Data) {
        self.data = data
    }

    /// The archive's size.
    public var count: UInt64 { UInt64(data.count) }

    /// The bytes in `range`.
    public func bytes(in range: Range<UInt64>) throws -> [UInt8] {
        guard range.upperBound <= count else {
            throw VectorTileError(.truncated, "bytes \(range) lie past the end of the archive (\(count) bytes)")
        }
        let start = data.startIndex + Int(range.lowerBound)
        return [UInt8](data[start..<start + range.count])
    }
}
