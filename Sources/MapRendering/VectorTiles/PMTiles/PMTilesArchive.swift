import Foundation
import Synchronization

/// A PMTiles v3 archive: tiles looked up by z/x/y through the root and leaf
/// directories, decompressed, and (for vector archives) decoded.
///
///     let archive = try PMTilesArchive(url: fileURL)
///     if let tile = try archive.vectorTile(at: TileCoordinate(z: 14, x: 9330, y: 4742)) { … }
///
/// Every size and offset read from the file is checked before it is used:
/// sections past the end of the file (a truncated archive), directories that
/// point outside their section, leaf directories that nest deeper than
/// ``VectorTileLimits/leafDirectoryDepth`` or point back at themselves, and
/// tiles or directories that inflate past the limits are errors naming what
/// is wrong. Parsed directories (the root and the leaves kept) are held
/// within ``VectorTileLimits/directoryBytes``, each checked against it from
/// its entry count before it is parsed. Safe to use from several threads.
public final class PMTilesArchive: Sendable {
    /// The archive's header.
    public let header: PMTilesHeader
    /// The limits every read is held to.
    public let limits: VectorTileLimits
    private let source: any PMTilesByteSource
    let root: PMTilesDirectory
    /// Leaf directories already read, by offset, within what
    /// `limits.directoryBytes` leaves after the root.
    private let leaves = Mutex(PMTilesLeafCache())
    /// Held while a leaf missing from `leaves` is read, so a render's threads
    /// wanting the same leaf read it once, and at most one leaf being parsed
    /// is outside the budget at a time.
    private let leafReading = Mutex(())

    /// Opens the archive in the local file at `url`.
    public convenience init(url: URL, limits: VectorTileLimits = .default) throws {
        try self.init(source: PMTilesFileSource(url: url), limits: limits)
    }

    /// Opens the archive served by `source`: reads and checks the header and
    /// the root directory.
    public init(source: any PMTilesByteSource, limits: VectorTileLimits = .default) throws {
        self.source = source
        self.limits = limits
        let head = try source.bytes(in: 0..<min(UInt64(PMTilesHeader.size), source.count))
        header = try PMTilesHeader(head, fileSize: source.count)
        root = try Self.readDirectory(source: source, header: header, range: header.rootDirectory, limits: limits,
                                      byteLimit: limits.directoryBytes, what: "the root directory")
    }

    /// The metadata JSON's bytes, inflated (at most `limits.metadataBytes`).
    public func metadataJSON() throws -> Data {
        guard header.metadata.count <= limits.metadataBytes else {
            throw VectorTileError(.limitExceeded, "the metadata is \(header.metadata.count) bytes, over the limit of \(limits.metadataBytes)")
        }
        guard !header.metadata.isEmpty else { return Data("{}".utf8) }
        let bytes = try source.bytes(in: header.metadata)
        return Data(try header.internalCompression.decompress(bytes, limit: limits.metadataBytes, what: "the metadata"))
    }

    /// The metadata as a JSON object (`name`, `attribution`, `vector_layers`…).
    public func metadata() throws -> [String: Any] {
        let json = try metadataJSON()
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw VectorTileError(.corrupt, "the metadata is not a JSON object")
        }
        return object
    }

    /// The tile's bytes, decompressed; nil when the archive has no such tile
    /// (or it is no tile of the world: a zoom above 31, a column past 2^z).
    public func tileData(at tile: TileCoordinate) throws -> [UInt8]? {
        try tileData(at: tile, cancellation: nil)
    }

    /// The tile's bytes as the archive stores them, compressed as
    /// `header.tileCompression` says (what a server hands a browser with
    /// that `Content-Encoding`); nil when the archive has no such tile. The
    /// stored size is held to ``VectorTileLimits/compressedTileBytes``.
    public func storedTileData(at tile: TileCoordinate, cancellation: RenderCancellation) throws -> [UInt8]? {
        do {
            return try storedBytes(at: tile, cancellation: cancellation)
        } catch let error as VectorTileError {
            throw error.prefixed("tile \(tile)")
        }
    }

    /// The stored bytes of `tile` (nil without one), within the stored-size limit.
    private func storedBytes(at tile: TileCoordinate, cancellation: RenderCancellation?) throws -> [UInt8]? {
        guard let id = try? PMTilesTileID.id(of: tile), let range = try tileRange(id, cancellation: cancellation) else { return nil }
        guard range.count <= limits.compressedTileBytes else {
            throw VectorTileError(.limitExceeded, "it is \(range.count) bytes stored, over the limit of \(limits.compressedTileBytes)")
        }
        return try cancellation.map { try source.bytes(in: range, cancellation: $0) } ?? source.bytes(in: range)
    }

    /// The tile's bytes (see ``tileData(at:)``), each read given up on soon
    /// after `cancellation` fires.
    func tileData(at tile: TileCoordinate, cancellation: RenderCancellation?) throws -> [UInt8]? {
        let what = "tile \(tile)"
        do {
            guard let stored = try storedBytes(at: tile, cancellation: cancellation) else { return nil }
            return try header.tileCompression.decompress(stored, limit: limits.inflatedTileBytes, what: "its data")
        } catch let error as VectorTileError {
            throw error.prefixed(what)
        }
    }

    /// The tile decoded as a vector tile; nil when the archive has no such
    /// tile. An archive of raster tiles (tile type 2–5) is refused as unsupported.
    public func vectorTile(at tile: TileCoordinate) throws -> VectorTile? {
        try vectorTile(at: tile, cancellation: nil)
    }

    /// The tile decoded (see ``vectorTile(at:)``), each read given up on
    /// soon after `cancellation` fires.
    func vectorTile(at tile: TileCoordinate, cancellation: RenderCancellation?) throws -> VectorTile? {
        guard header.tileType <= 1 else {
            let names = [2: "PNG", 3: "JPEG", 4: "WebP", 5: "AVIF"]
            throw VectorTileError(.unsupported, "the archive holds \(names[Int(header.tileType)] ?? "type \(header.tileType)") tiles, not vector tiles")
        }
        guard let bytes = try tileData(at: tile, cancellation: cancellation) else { return nil }
        do {
            return try bytes.withUnsafeBufferPointer { try VectorTile(bytes: $0, limits: limits) }
        } catch let error as VectorTileError {
            throw error.prefixed("tile \(tile)")
        }
    }

    /// Where the tile numbered `id` is stored, following leaf directories.
    func tileRange(_ id: UInt64, cancellation: RenderCancellation? = nil) throws -> Range<UInt64>? {
        var directory = root
        var visited = Set<UInt64>()
        for depth in 0...limits.leafDirectoryDepth {
            guard let entry = directory.entry(covering: id) else { return nil }
            if entry.runLength > 0 {
                return try Self.range(entry, in: header.tileData, section: "tile data")
            }
            guard depth < limits.leafDirectoryDepth else { break }
            guard visited.insert(entry.offset).inserted else {
                throw VectorTileError(.corrupt, "leaf directory at offset \(entry.offset) points back at itself: the directories loop")
            }
            directory = try leaf(entry, cancellation: cancellation)
        }
        throw VectorTileError(.limitExceeded, "leaf directories nest deeper than \(limits.leafDirectoryDepth) levels")
    }

    private func leaf(_ entry: PMTilesDirectory.Entry, cancellation: RenderCancellation?) throws -> PMTilesDirectory {
        if let cached = leaves.withLock({ $0.directory(at: entry.offset) }) { return cached }
        let range = try Self.range(entry, in: header.leafDirectories, section: "leaf directories")
        let budget = limits.directoryBytes - root.byteCount
        return try leafReading.withLock { _ throws -> PMTilesDirectory in
            // Another thread may have read it while this one waited.
            if let cached = leaves.withLock({ $0.directory(at: entry.offset) }) { return cached }
            let directory = try Self.readDirectory(source: source, header: header, range: range, limits: limits, byteLimit: budget,
                                                   what: "the leaf directory at offset \(entry.offset)", cancellation: cancellation)
            leaves.withLock { $0.insert(directory, at: entry.offset, budget: budget) }
            return directory
        }
    }

    /// The parsed bytes of the leaf directories kept.
    var keptLeafBytes: Int { leaves.withLock { $0.byteCount } }

    /// The entry's bytes as a range of the file, checked to lie in its section.
    private static func range(_ entry: PMTilesDirectory.Entry, in section: Range<UInt64>, section name: String) throws -> Range<UInt64> {
        let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
        guard !overflow, end <= UInt64(section.count) else {
            throw VectorTileError(.corrupt, "a directory entry points at bytes \(entry.offset)..<\(entry.offset &+ UInt64(entry.length)) of the \(name) section, which is \(section.count) bytes")
        }
        return section.lowerBound + entry.offset..<section.lowerBound + end
    }

    private static func readDirectory(source: any PMTilesByteSource, header: PMTilesHeader, range: Range<UInt64>,
                                      limits: VectorTileLimits, byteLimit: Int, what: String,
                                      cancellation: RenderCancellation? = nil) throws -> PMTilesDirectory {
        guard range.count <= limits.compressedTileBytes else {
            throw VectorTileError(.limitExceeded, "\(what) is \(range.count) bytes, over the limit of \(limits.compressedTileBytes)")
        }
        let stored = try cancellation.map { try source.bytes(in: range, cancellation: $0) } ?? source.bytes(in: range)
        // The entry count leads the directory: read from the first inflated
        // bytes, a directory over the budget is refused before it is inflated whole.
        if let head = try header.internalCompression.inflatedPrefix(stored, count: 10, what: what) {
            try PMTilesDirectory.checkEntryCount(head: head, byteLimit: byteLimit, what: what)
        }
        let bytes = try header.internalCompression.decompress(stored, limit: limits.inflatedTileBytes, what: what)
        return try PMTilesDirectory(bytes, what: what, byteLimit: byteLimit)
    }
}
