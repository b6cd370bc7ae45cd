import Foundation
import MapRendering
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension VectorTileSource {
    /// The zooms a tile set without metadata is taken to have: OpenMapTiles'
    /// and Protomaps' (and most servers').
    public static let defaultZoomRange = 0...14

    /// Opens the vector tiles served at `template`
    /// (`https://tiles.example/{z}/{x}/{y}.pbf`), fetched as snapshots need them
    /// by an `HTTPTileLoader` through a session of `configuration` (one with
    /// URLSchemeKit installed over an `HTTPCache` keeps each tile there as an
    /// ordinary HTTP answer). A 404 or 204 is an empty tile; a gzipped body
    /// is inflated; each tile is held to `budget.vectorTile`.
    ///
    /// A `metadata.json` or `tiles.json` (TileJSON) beside the zoom folders
    /// (`https://host/tiles/metadata.json` for `https://host/tiles/{z}/{x}/{y}.pbf`,
    /// as a folder on a static server has it), when the server has one, gives
    /// the zoom range, the attribution and the layers the schema is told from.
    /// `zoomRange` overrides its zooms (default ``defaultZoomRange``); views
    /// past the top are over-zoomed. With neither metadata nor a style file
    /// the schema is told from the layers of tile `0/0/0` (fetched here).
    ///
    /// The source's identity is the template, the zoom range, the metadata and the style:
    /// a server whose tiles change under the same template is not noticed
    /// by cached snapshots (as for any image URL).
    ///
    /// Throws `VectorTileError` naming the template, or `VectorStyleError`
    /// naming the style's file, line and column.
    public static func open(template: String, zoomRange: ClosedRange<Int>? = nil, style: VectorSourceStyle = .automatic,
                            budget: ResourceBudget = ResourceBudget(), configuration: URLSessionConfiguration? = nil) throws -> VectorTileSource {
        do {
            guard ["{z}", "{x}", "{y}"].allSatisfy(template.contains) else {
                throw VectorTileError(.unsupported, "a tile URL template has {z}, {x} and {y}")
            }
            let probe = TileCoordinate(z: 0, x: 0, y: 0).filling(template)
            guard let url = URL(string: probe), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                throw VectorTileError(.unsupported, "a tile URL template is an http(s) URL once {z}, {x} and {y} are filled in")
            }
            let session = configuration ?? .ephemeral
            let limits = budget.vectorTile
            var (metadata, metadataBytes) = try serverMetadata(template: template, configuration: session, limit: limits.metadataBytes)
            let stated = metadata.minimumZoom.flatMap { low in metadata.maximumZoom.map { low...$0 } }
            let zooms = try checked(zoomRange ?? stated ?? defaultZoomRange)
            let loader = HTTPTileLoader(template: template, configuration: session,
                                        maximumTileBytes: limits.compressedTileBytes, emptyStatuses: [204, 404])
            if metadata.layerIDs.isEmpty, style == .automatic || style == .builtin(.light) || style == .builtin(.dark) {
                metadata.layerIDs = try probedLayers(LoadedVectorTiles(loader: loader, zoomRange: zooms, limits: limits))
            }
            let tiles = LoadedVectorTiles(loader: loader, zoomRange: zooms, metadata: metadata, limits: limits)
            return try open(tiles, identity: Array("template \(template) \(zooms)".utf8) + metadataBytes, style: style, budget: budget,
                            configuration: configuration)
        } catch let error as VectorTileError {
            throw VectorTileError(error.kind, "\(template): \(error.message)")
        } catch MapTileError.unavailable(let tile, let reason) {
            throw VectorTileError(.truncated, "\(template): tile \(tile): \(reason)")
        }
    }

    /// Opens the folder `directory` of vector tiles, `directory/{z}/{x}/{y}.pbf`
    /// (or `.mvt`), read by a `DirectoryTileLoader` as snapshots need them;
    /// a missing file is an empty tile, a gzipped one is inflated, each is
    /// held to `budget.vectorTile`.
    ///
    /// A `metadata.json` (as tilemaker and mb-util write) or `tiles.json`
    /// (TileJSON) in the folder gives the zoom range, the attribution and the
    /// layers the schema is told from; `zoomRange` overrides its zooms, and
    /// without either the zooms are the folder's numbered subfolders and the
    /// schema is told from the layers of a tile of the deepest one.
    ///
    /// The source's identity hashes the metadata, the modification times of
    /// the folder and its zoom folders, and the style: adding or removing
    /// tiles of a zoom, or replacing the metadata, draws cached URLs again.
    ///
    /// With `configuration`, a style's `http(s)` sprites and glyphs are read
    /// through a session made from it; without, only files.
    ///
    /// Throws `VectorTileError` naming the folder, or `VectorStyleError`
    /// naming the style's file, line and column.
    public static func open(folder directory: URL, zoomRange: ClosedRange<Int>? = nil, style: VectorSourceStyle = .automatic,
                            budget: ResourceBudget = ResourceBudget(), configuration: URLSessionConfiguration? = nil) throws -> VectorTileSource {
        let path = directory.path
        do {
            let limits = budget.vectorTile
            var metadata = TileSetMetadata(), metadataBytes: [UInt8] = []
            for name in ["metadata.json", "tiles.json"] {
                guard let bytes = try metadataFile(directory.appendingPathComponent(name), limit: limits.metadataBytes) else { continue }
                metadata = try TileSetMetadata(json: Data(bytes), limit: limits.metadataBytes, what: name)
                metadataBytes = bytes
                break
            }
            let zoomFolders = try numberedFolders(of: directory)
            guard !zoomFolders.isEmpty else {
                throw VectorTileError(.truncated, "no zoom folders (0, 1, … 14) of {z}/{x}/{y}.pbf tiles in it")
            }
            let stated = metadata.minimumZoom.flatMap { low in metadata.maximumZoom.map { low...$0 } }
            let zooms = try checked(zoomRange ?? stated ?? (zoomFolders.map(\.zoom).min()!...zoomFolders.map(\.zoom).max()!))
            let sample = sampleTile(zoomFolders: zoomFolders)
            let template = "{z}/{x}/{y}." + (sample?.extension ?? "pbf")
            let loader = DirectoryTileLoader(directory: directory, template: template, maximumBytes: limits.compressedTileBytes,
                                             missingFilesAreEmpty: true)
            if metadata.layerIDs.isEmpty, style == .automatic || style == .builtin(.light) || style == .builtin(.dark) {
                // No metadata to tell the schema: the layers of a tile of the deepest zoom.
                let probe = LoadedVectorTiles(loader: loader, zoomRange: sample.map { $0.tile.z...$0.tile.z } ?? zooms, limits: limits)
                metadata.layerIDs = try sample.flatMap { try probe.vectorTile(at: $0.tile, cancellation: RenderCancellation()) }?.layers.map(\.name) ?? []
            }
            let tiles = LoadedVectorTiles(loader: loader, zoomRange: zooms, metadata: metadata, limits: limits)
            var identity = Array("folder \(directory.standardizedFileURL.path) \(template) \(zooms) \(modified(directory))".utf8) + metadataBytes
            for folder in zoomFolders { identity += Array(" \(folder.zoom):\(modified(folder.url))".utf8) }
            return try open(tiles, identity: identity, style: style, budget: budget, configuration: configuration)
        } catch let error as VectorTileError {
            throw VectorTileError(error.kind, "\(path): \(error.message)")
        }
    }

    /// `zooms`, checked to lie in 0–24 (the deepest zoom drawn).
    private static func checked(_ zooms: ClosedRange<Int>) throws -> ClosedRange<Int> {
        guard zooms.lowerBound >= 0, zooms.upperBound <= 24 else {
            throw VectorTileError(.unsupported, "the zoom range \(zooms.lowerBound)–\(zooms.upperBound) is outside 0–24")
        }
        return zooms
    }

    /// The layers of tile 0/0/0, for telling a server's schema without metadata.
    private static func probedLayers(_ tiles: LoadedVectorTiles) throws -> [String] {
        let hint = "give a style file, or serve a metadata.json or tiles.json beside the zoom folders"
        guard tiles.zoomRange.lowerBound == 0 else {
            throw VectorTileError(.unsupported, "the schema is told from metadata, else from tile 0/0/0, and the zoom range starts at \(tiles.zoomRange.lowerBound): \(hint)")
        }
        let layers = try tiles.vectorTile(at: TileCoordinate(z: 0, x: 0, y: 0), cancellation: RenderCancellation())?.layers.map(\.name) ?? []
        guard !layers.isEmpty else {
            throw VectorTileError(.unsupported, "the server has no metadata.json or tiles.json, and tile 0/0/0, which would tell the schema, is empty: \(hint)")
        }
        return layers
    }

    /// The `metadata.json` (else `tiles.json`) beside a template's zoom
    /// folders (`https://host/tiles/metadata.json` for
    /// `https://host/tiles/{z}/{x}/{y}.pbf`), as a folder served by a static
    /// server has it, and its bytes; empty when there is none (a 404, 403 or 204).
    private static func serverMetadata(template: String, configuration: URLSessionConfiguration, limit: Int) throws -> (TileSetMetadata, [UInt8]) {
        guard let placeholder = template.range(of: "{z}"), template[..<placeholder.lowerBound].hasSuffix("/") else { return (TileSetMetadata(), []) }
        let prefix = String(template[..<placeholder.lowerBound])
        for name in ["metadata.json", "tiles.json"] {
            let loader = HTTPTileLoader(template: prefix + name, configuration: configuration, maximumTileBytes: limit, emptyStatuses: [204, 403, 404])
            let bytes: [UInt8]
            do {
                bytes = try loader.tile(TileCoordinate(z: 0, x: 0, y: 0))
            } catch MapTileError.unavailable(_, let reason) {
                throw VectorTileError(.truncated, reason)
            }
            guard !bytes.isEmpty else { continue }
            return (try TileSetMetadata(json: Data(bytes), limit: limit, what: prefix + name), bytes)
        }
        return (TileSetMetadata(), [])
    }

    /// The bytes of the metadata file at `url`, nil when there is none;
    /// refused when it is not a regular file or is over `limit` bytes.
    private static func metadataFile(_ url: URL, limit: Int) throws -> [UInt8]? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw VectorTileError(.corrupt, "\(url.lastPathComponent) is not a regular file")
        }
        guard status.st_size <= Int64(limit) else {
            throw VectorTileError(.limitExceeded, "\(url.lastPathComponent) is \(status.st_size) bytes, over the limit of \(limit)")
        }
        do {
            // The loader checks the file again as it opens it (it may have changed).
            return try DirectoryTileLoader(directory: url.deletingLastPathComponent(), template: url.lastPathComponent, maximumBytes: limit)
                .tile(TileCoordinate(z: 0, x: 0, y: 0))
        } catch MapTileError.unavailable(_, let reason) {
            throw VectorTileError(.corrupt, reason)
        }
    }

    /// The subfolders of `directory` named by a zoom (0–30), sorted by zoom.
    private static func numberedFolders(of directory: URL) throws -> [(zoom: Int, url: URL)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw VectorTileError(.truncated, "cannot list the folder: \(error.localizedDescription)")
        }
        return names.compactMap { name -> (Int, URL)? in
            guard name.count <= 2, name.allSatisfy(\.isASCII), let zoom = Int(name), (0...30).contains(zoom) else { return nil }
            var isDirectory: ObjCBool = false
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            return (zoom, url)
        }.sorted { $0.0 < $1.0 }
    }

    /// A tile file of the deepest zoom folder and its extension (`pbf` or
    /// `mvt`): the first found looking at a few columns, not the whole tree.
    private static func sampleTile(zoomFolders: [(zoom: Int, url: URL)]) -> (tile: TileCoordinate, extension: String)? {
        let files = FileManager.default
        for folder in zoomFolders.reversed().prefix(3) {
            for column in ((try? files.contentsOfDirectory(atPath: folder.url.path)) ?? []).sorted().prefix(4) {
                guard let x = Int(column) else { continue }
                for file in ((try? files.contentsOfDirectory(atPath: folder.url.appendingPathComponent(column).path)) ?? []).sorted() {
                    for suffix in ["pbf", "mvt"] where file.hasSuffix("." + suffix) {
                        guard let y = Int(file.dropLast(suffix.count + 1)) else { continue }
                        return (TileCoordinate(z: folder.zoom, x: x, y: y), suffix)
                    }
                }
            }
        }
        return nil
    }

    /// The modification time of `url` in nanoseconds, 0 when it cannot be read.
    private static func modified(_ url: URL) -> Int64 {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return 0 }
        return Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }
}
