import Foundation
import MapRendering
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension VectorTileSource {
    /// Opens the PMTiles archive at `location` (a local file, or an `http(s)`
    /// URL read with Range requests by an `HTTPRangeByteSource`; a local
    /// folder of tiles is opened by `open(folder:zoomRange:style:budget:)`) with `style`,
    /// within `budget`'s vector limits: each tile is checked against
    /// `budget.vectorTile` as it is read, the style against `budget.vectorStyle`
    /// here. The attribution is the archive's (its metadata's `attribution`,
    /// tags removed), else the style source's.
    ///
    /// `rangeStore`: where an `http(s)` archive's ranges are kept beyond the
    /// source's own memory (`HTTPRangeByteSource`'s `store`), e.g. the
    /// environment's `imageCache`, so that later processes read them from disk.
    ///
    /// Throws `VectorTileError` with a message naming `location` (a truncated
    /// archive, an unknown schema), or `VectorStyleError` naming the style's
    /// file and the line and column at fault (a style that cannot be read or
    /// has more than one vector source).
    ///
    /// A style file's `source-layer`s are checked against the tiles'
    /// `vector_layers`: a layer the tiles lack is named in the style's warnings.
    public static func open(_ location: URL, style: VectorSourceStyle = .automatic, budget: ResourceBudget = ResourceBudget(),
                            configuration: URLSessionConfiguration? = nil, rangeStore: QueryKeyedURLCache? = nil) throws -> VectorTileSource {
        let name = location.isFileURL ? location.path : location.absoluteString
        do {
            let bytes: any PMTilesByteSource
            switch location.scheme?.lowercased() {
            case "http", "https":
                bytes = try HTTPRangeByteSource(url: location, configuration: configuration ?? .ephemeral, store: rangeStore)
            case "file":
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: location.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    return try open(folder: location, style: style, budget: budget)
                }
                bytes = try PMTilesFileSource(url: location)
            default:
                throw VectorTileError(.unsupported, "a PMTiles archive is read from a file or an http(s) URL, not \(location.scheme ?? "a relative URL")")
            }
            return try open(bytes, style: style, budget: budget, configuration: configuration)
        } catch let error as VectorTileError {
            // Named once: a file that cannot be opened names itself.
            throw error.message.hasPrefix(name + ": ") ? error : VectorTileError(error.kind, "\(name): \(error.message)")
        }
    }

    /// Opens the archive served by `bytes` (see `open(_:style:budget:configuration:rangeStore:)`).
    /// With `configuration`, a style's `http(s)` sprites and glyphs are read
    /// through a session made from it; without, only files.
    public static func open(_ bytes: any PMTilesByteSource, style: VectorSourceStyle = .automatic,
                            budget: ResourceBudget = ResourceBudget(), configuration: URLSessionConfiguration? = nil) throws -> VectorTileSource {
        let archive = try PMTilesArchive(source: bytes, limits: budget.vectorTile)
        // What the archive holds is named by its header and root directory
        // (every tile's place is reached from them), read again here: cheap,
        // and a range source answers them from what it kept.
        let head = try bytes.bytes(in: 0..<UInt64(PMTilesHeader.size))
        let root = try bytes.bytes(in: archive.header.rootDirectory)
        return try open(archive, identity: head + root + Array(String(bytes.count).utf8), style: style, budget: budget,
                        configuration: configuration)
    }

    /// A source drawing `tiles` with `style` (checked against
    /// `budget.vectorStyle`), its identity a hash of `identity` (bytes that
    /// change whenever the tiles do) and of the style. The style's sprites and
    /// glyphs are read from files, and with `configuration` from `http(s)` too.
    static func open(_ tiles: any VectorTileProviding, identity: [UInt8], style: VectorSourceStyle,
                     budget: ResourceBudget, configuration: URLSessionConfiguration? = nil) throws -> VectorTileSource {
        let light: VectorStyle, dark: VectorStyle, styleIdentity: [UInt8]
        var resources = StyleResources()
        switch style {
        case .automatic, .builtin:
            let schema = try BuiltinVectorStyle.Schema(detecting: tiles)
            let lightStyle = BuiltinVectorStyle(schema: schema, look: style == .builtin(.dark) ? .dark : .light)
            let darkStyle = BuiltinVectorStyle(schema: schema, look: style == .builtin(.light) ? .light : .dark)
            light = try lightStyle.style()
            dark = try darkStyle.style()
            styleIdentity = Array((lightStyle.json + darkStyle.json).utf8)
        case .json(let data, let fileName):
            (light, resources) = try styled(data, fileName: fileName, folder: nil, tiles: tiles, budget: budget, configuration: configuration)
            dark = light
            styleIdentity = Array(data)
        case .file(let file):
            // Named as the caller named it (`URL(fileURLWithPath: "my.json")` keeps `my.json`).
            let data = try readStyle(file, budget: budget)
            (light, resources) = try styled(data, fileName: file.relativePath, folder: file.deletingLastPathComponent(), tiles: tiles, budget: budget,
                                            configuration: configuration)
            dark = light
            styleIdentity = Array(data)
        }
        let attribution = try VectorTileSource.attribution(of: tiles)
            ?? light.sources.values.compactMap(\.attribution).sorted().first ?? ""
        let hash = hex(KeyedHash.sha256(identity)) + "-" + hex(KeyedHash.sha256(styleIdentity))
        return VectorTileSource(tiles: tiles, lightStyle: light, darkStyle: dark, attribution: attribution, identity: hash,
                                resources: resources)
    }

    /// The style `data` (from `fileName`, its relative sprites and glyphs
    /// read from `folder`) checked against `budget.vectorStyle` and `tiles`,
    /// with its resources; their warnings join the style's.
    private static func styled(_ data: Data, fileName: String?, folder: URL?, tiles: any VectorTileProviding,
                               budget: ResourceBudget, configuration: URLSessionConfiguration?) throws -> (VectorStyle, StyleResources) {
        guard data.count <= budget.vectorStyle.maximumByteCount else {
            var error = VectorStyleError(.limitExceeded, detail: "the style is \(data.count) bytes, over the limit of \(budget.vectorStyle.maximumByteCount) (ResourceBudget.vectorStyle)")
            error.file = fileName
            throw error
        }
        var style = try VectorStyle(data: data, fileName: fileName, limits: budget.vectorStyle)
        // Every layer draws from the one tile set: a style of several vector
        // sources would draw the others' layers from the wrong tiles.
        // (A `geojson` source is not bound to the archive: map:// does not load it yet.)
        let vectorSources = style.sources.values.filter { $0.kind == .vector }.map(\.name).sorted()
        guard vectorSources.count <= 1 else {
            var error = VectorStyleError(.invalidValue, property: "sources", detail: "the style has \(vectorSources.count) vector sources (\(vectorSources.joined(separator: ", "))); a style drawn from one archive has one")
            error.file = fileName
            throw error
        }
        let resources = configuration.map { configuration in
            StyleResources(of: style, folder: folder, loading: StyleSessionResources(folder: folder ?? URL(fileURLWithPath: "/"), configuration: configuration))
        } ?? StyleResources(of: style, folder: folder)
        let prefix = fileName.map { "\($0): " } ?? ""
        style.warnings += resources.warnings.map { prefix + $0 }
        // Images the loaded sprites lack (all of them when none loaded).
        style.warnings += resources.sprites.warnings(for: style).map { prefix + $0 }
        style.checkSourceLayers(try layerIDs(of: tiles))
        return (style, resources)
    }

    /// The bytes of the style file `file`, refused unread past `budget.vectorStyle`'s size.
    package static func readStyle(_ file: URL, budget: ResourceBudget) throws -> Data {
        let limit = budget.vectorStyle.maximumByteCount
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: file)
        } catch {
            let exists = FileManager.default.fileExists(atPath: file.path)
            var failure = VectorStyleError(.invalidValue, detail: exists ? "the style cannot be read (\(error.localizedDescription))" : "no such file")
            failure.file = file.relativePath
            throw failure
        }
        defer { try? handle.close() }
        // One byte past the limit at most: a huge or endless file costs nothing.
        let data = try handle.read(upToCount: limit + 1) ?? Data()
        guard data.count <= limit else {
            var error = VectorStyleError(.limitExceeded, detail: "the style is over the limit of \(limit) bytes (ResourceBudget.vectorStyle)")
            error.file = file.relativePath
            throw error
        }
        return data
    }

    /// The first 8 bytes of `digest` as hex.
    static func hex(_ digest: [UInt8]) -> String {
        digest.prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
