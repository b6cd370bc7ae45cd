import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// The map-server routes of ``SchemeServer``, for each tile source of the
/// environment (`--tiles NAME=…`):
///
/// | route | answer |
/// |---|---|
/// | `/tiles/NAME/{z}/{x}/{y}[@2x].png\|jpg` | a 256-pixel raster tile, drawn by `map://` from the source and its style |
/// | `/tiles/NAME.json` | its TileJSON |
/// | `/data/NAME/{z}/{x}/{y}.pbf` | a vector tile's bytes as stored (`Content-Encoding: gzip` when gzipped and accepted) |
/// | `/data/NAME.json` | the vector tiles' TileJSON |
/// | `/styles/NAME/style.json` | the source's MapLibre style for a browser (``BrowserStyle``) |
/// | `/styles/NAME/sprite[/ID][@2x].json\|png`, `/fonts/NAME/{fontstack}/{range}.pbf` | its local sprites and glyphs (the built-in glyphs for a style without `glyphs`) |
/// | `/styles/NAME/static/LON,LAT,ZOOM[@BEARING[,PITCH]]/WxH[@2x].png` | tileserver-gl's static map (``StaticMapPath``) |
///
/// Raster tiles and static maps are `map://` loads, so they share the
/// scheme routes' queue, caches, budgets and errors.
final class TileRoutes: Sendable {
    /// The first path segments these routes own.
    static let prefixes: Set<Substring> = ["tiles", "data", "styles", "fonts"]
    /// The zooms a raster tile may have: `map://`'s.
    static let rasterZooms = Int(MapSnapshotOptions.zoomRange.lowerBound)...Int(MapSnapshotOptions.zoomRange.upperBound)

    private let environment: URLSchemeKitEnvironment
    private let styles: [String: Data]
    /// The local `glyphs` template and sprites of each style given, read once:
    /// what `/fonts/NAME/…` and `/styles/NAME/sprite…` serve.
    private let localFiles: [String: (glyphs: String?, sprites: [StyleSprite])]
    private let maxAge: Int
    private let work: WorkQueue
    /// Loads a `map://` URL as the scheme routes do (queue, gateway, metrics).
    private let loadScheme: @Sendable (URL, HTTPRequest, RequestCancellation, @escaping @Sendable (HTTPResponse) -> Void) -> Void

    init(environment: URLSchemeKitEnvironment, styles: [String: Data], maxAge: Int, work: WorkQueue,
         loadScheme: @escaping @Sendable (URL, HTTPRequest, RequestCancellation, @escaping @Sendable (HTTPResponse) -> Void) -> Void) {
        self.environment = environment
        self.styles = styles
        localFiles = styles.compactMapValues { data in
            guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            let sprites: [StyleSprite]
            switch document["sprite"] {
            case let url as String: sprites = [StyleSprite(id: "default", url: url)]
            case let list as [[String: Any]]:
                sprites = list.compactMap { item in (item["id"] as? String).flatMap { id in (item["url"] as? String).map { StyleSprite(id: id, url: $0) } } }
            default: sprites = []
            }
            return (document["glyphs"] as? String, sprites.filter { BrowserStyle.isLocal($0.url) })
        }
        self.maxAge = maxAge
        self.work = work
        self.loadScheme = loadScheme
    }

    /// Whether `name` may name a source or sprite: letters, digits, `-`, `_`.
    static func isName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && name.count <= 64 && name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
    }

    /// Answers `request` for its path split into `segments` (the first one
    /// of ``prefixes``), absolute URLs starting with `base`; a load queued for
    /// it is dropped when `cancellation` fires first.
    func respond(_ segments: [Substring], _ request: HTTPRequest, _ cancellation: RequestCancellation, base: PublicBaseURL,
                 _ completion: @escaping @Sendable (HTTPResponse) -> Void) {
        do {
            switch (segments[0], segments.count) {
            case ("tiles", 2) where segments[1].hasSuffix(".json"):
                completion(try rasterTileJSON(try source(segments[1].dropLast(5)), request, base))
            case ("tiles", 5):
                let name = try source(segments[1])
                let tile = try TilePath.parse(segments[2...], extensions: ["png", "jpg", "jpeg", "webp"], zooms: Self.rasterZooms, scaled: true).get()
                loadScheme(Self.tileURL(name: name, tile: tile), request, cancellation, completion)
            case ("data", 2) where segments[1].hasSuffix(".json"):
                completion(try vectorTileJSON(try vectorSource(segments[1].dropLast(5)), request, base))
            case ("data", 5):
                let (name, source) = try vectorSource(segments[1])
                let tile = try TilePath.parse(segments[2...], extensions: ["pbf", "mvt"], zooms: 0...30, scaled: false).get()
                readVectorTile(name: name, source: source, tile: tile, request, cancellation, completion)
            case ("styles", 3) where segments[2] == "style.json":
                let (name, _) = try vectorSource(segments[1])
                let body = try BrowserStyle.rewrite(try styleJSON(name), name: name, base: base.base(for: request))
                completion(cacheable(body, type: "application/json", vary: base.varyingHeaders, request))
            case ("styles", 5) where segments[2] == "static":
                let name = try source(segments[1])
                let url = try StaticMapPath.parse(camera: segments[3], size: segments[4], source: name).get()
                loadScheme(url, request, cancellation, completion)
            case ("styles", 3), ("styles", 4):
                let (name, _) = try vectorSource(segments[1])
                completion(try sprite(name: name, sprites: localFiles[name]?.sprites ?? [], file: segments.count == 3 ? nil : segments[2], segments.last!, request))
            case ("fonts", 4):
                let (name, _) = try vectorSource(segments[1])
                completion(try glyphs(name: name, template: localFiles[name]?.glyphs, fontStack: segments[2], range: segments[3], request))
            default:
                throw HTTPRequestError(404, "no route \(request.path.prefix(200)); see /tiles/NAME.json, /data/NAME.json, /styles/NAME/style.json")
            }
        } catch let error as HTTPRequestError {
            completion(.error(error.status, error.message))
        } catch {
            completion(.error(500, "\(error)"))
        }
    }

    // MARK: Sources

    /// `name` when a tile source of that name is registered (raster or vector), else the 404 listing them.
    private func source(_ name: Substring) throws -> String {
        let names = environment.tileSources.names
        guard Self.isName(name), names.contains(String(name)) else {
            throw HTTPRequestError(404, "no tile source '\(name.prefix(64))'; served: \(names.isEmpty ? "none (give --tiles NAME=SOURCE)" : names.joined(separator: ", "))")
        }
        return String(name)
    }

    /// The vector source `name`, else a 404 saying why.
    private func vectorSource(_ name: Substring) throws -> (String, VectorTileSource) {
        let name = try source(name)
        guard let source = environment.tileSources.vectorSource(named: name) else {
            throw HTTPRequestError(404, "tile source '\(name)' is raster tiles: it has /tiles/\(name)/… but no vector tiles, style, sprites or glyphs")
        }
        return (name, source)
    }

    /// The MapLibre style JSON source `name` draws with: the one given to the
    /// server, else the built-in style for the tiles' schema.
    private func styleJSON(_ name: String) throws -> Data {
        if let style = styles[name] { return style }
        guard let source = environment.tileSources.vectorSource(named: name) else { throw HTTPRequestError(404, "no vector tile source '\(name)'") }
        do {
            return Data(BuiltinVectorStyle(schema: try BuiltinVectorStyle.Schema(detecting: source.tiles), look: .light).json.utf8)
        } catch {
            throw HTTPRequestError(404, "tile source '\(name)' has no style to serve: \(error)")
        }
    }

    // MARK: Raster tiles

    /// The `map://` URL drawing `tile` of source `name`: 256 points square
    /// at the tile's zoom, centred on it, no corner credit (TileJSON carries it).
    static func tileURL(name: String, tile: TilePath) -> URL {
        let (longitude, latitude) = tile.center
        var query = "latitude=\(latitude)&longitude=\(longitude)&zoom=\(tile.z)&width=256&height=256"
        if tile.scale != 1 { query += "&scale=\(tile.scale)" }
        switch tile.fileExtension {
        case "jpg", "jpeg": query += "&format=jpeg"
        case "webp": query += "&format=webp"
        default: break
        }
        query += "&tiles=\(name)&attribution=none"
        return URL(string: "map://?" + query)!
    }

    private func rasterTileJSON(_ name: String, _ request: HTTPRequest, _ base: PublicBaseURL) throws -> HTTPResponse {
        let root = base.base(for: request)
        var document: [String: Any] = [
            "tilejson": "3.0.0", "name": name, "scheme": "xyz", "tiles": ["\(root)/tiles/\(name)/{z}/{x}/{y}.png"],
            "minzoom": Self.rasterZooms.lowerBound, "maxzoom": Self.rasterZooms.upperBound,
        ]
        if let vector = environment.tileSources.vectorSource(named: name) {
            if !vector.attribution.isEmpty { document["attribution"] = vector.attribution }
            if let bounds = vector.tiles.bounds { document["bounds"] = [bounds.minimumLongitude, bounds.minimumLatitude, bounds.maximumLongitude, bounds.maximumLatitude] }
        } else if let raster = environment.tileSources.source(named: name), !raster.attribution.isEmpty {
            document["attribution"] = raster.attribution
        }
        return cacheable(try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]), type: "application/json",
                         vary: base.varyingHeaders, request)
    }

    // MARK: Vector tiles

    private func vectorTileJSON(_ named: (String, VectorTileSource), _ request: HTTPRequest, _ base: PublicBaseURL) throws -> HTTPResponse {
        let (name, source) = named
        let root = base.base(for: request)
        var document: [String: Any] = [
            "tilejson": "3.0.0", "name": name, "scheme": "xyz", "tiles": ["\(root)/data/\(name)/{z}/{x}/{y}.pbf"],
            "minzoom": source.tiles.zoomRange.lowerBound, "maxzoom": source.tiles.zoomRange.upperBound,
        ]
        if !source.attribution.isEmpty { document["attribution"] = source.attribution }
        if let bounds = source.tiles.bounds { document["bounds"] = [bounds.minimumLongitude, bounds.minimumLatitude, bounds.maximumLongitude, bounds.maximumLatitude] }
        if let layers = (try? source.tiles.metadata())?["vector_layers"], JSONSerialization.isValidJSONObject(["l": layers]) {
            document["vector_layers"] = layers
        }
        return cacheable(try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]), type: "application/json",
                         vary: base.varyingHeaders, request)
    }

    /// Reads `tile`'s stored bytes on the work queue (a remote archive waits
    /// on the network) and answers them: gzipped ones with
    /// `Content-Encoding: gzip` when the client accepts it, else inflated; no
    /// tile is a cacheable `204`.
    private func readVectorTile(name: String, source: VectorTileSource, tile: TilePath, _ request: HTTPRequest, _ cancellation: RequestCancellation,
                                _ completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let limits = environment.budget.vectorTile
        let acceptsGzip = Self.accepts("gzip", request.header("Accept-Encoding"))
        let accepted = work.submit(cancellation: cancellation) { [self] done in
            DispatchQueue.global().async { [self] in
                defer { done() }
                completion(vectorTileAnswer(name: name, source: source, tile: tile, limits: limits, acceptsGzip: acceptsGzip, request))
            }
        }
        if !accepted {
            completion(.error(503, "the server is busy: \(work.workers) loads running and \(work.capacity) waiting (--workers, --queue); try again",
                              extraHeaders: [("Retry-After", "1")]))
        }
    }

    private func vectorTileAnswer(name: String, source: VectorTileSource, tile: TilePath, limits: VectorTileLimits,
                                  acceptsGzip: Bool, _ request: HTTPRequest) -> HTTPResponse {
        let coordinate = TileCoordinate(z: tile.z, x: tile.x, y: tile.y)
        var stored: [UInt8]?
        do {
            switch source.tiles {
            case let archive as PMTilesArchive:
                guard archive.header.tileCompression != .brotli && archive.header.tileCompression != .zstd else {
                    return .error(500, "tile source '\(name)': the archive's tiles are \(archive.header.tileCompression)-compressed; gzip and none are served")
                }
                stored = try archive.storedTileData(at: coordinate, cancellation: RenderCancellation())
            case let loaded as LoadedVectorTiles:
                stored = try loaded.loader.tile(coordinate, cancellation: RenderCancellation())
            default:
                return .error(404, "tile source '\(name)' gives decoded tiles only; /data serves PMTiles archives, folders and URL templates")
            }
        } catch {
            return .error(error is MapTileError ? 502 : 500, "tile source '\(name)': \(error)")
        }
        var headers: [(name: String, value: String)] = [("Content-Type", "application/x-protobuf")]
        guard var body = stored, !body.isEmpty else {
            return HTTPResponse(status: 204, headers: [("Cache-Control", "public, max-age=\(maxAge)")])
        }
        if body.count >= 2 && body[0] == 0x1F && body[1] == 0x8B {
            if acceptsGzip {
                headers.append(("Content-Encoding", "gzip"))
            } else {
                do {
                    body = try Inflater.gzipDecompress(body, limit: limits.inflatedTileBytes)
                } catch {
                    return .error(500, "tile source '\(name)': tile \(coordinate): \(error) (inflating at most \(limits.inflatedTileBytes) bytes)")
                }
            }
            headers.append(("Vary", "Accept-Encoding"))
        }
        // An archive's identity names its contents (header, root directory, size), so its tag needs no hash of
        // the body; a folder's or template's does not (a tile rewritten in place), so theirs hash the bytes.
        let isArchive = source.tiles is PMTilesArchive
        let seed = "data \(name) \(source.identity) \(coordinate) \(headers.contains { $0.name == "Content-Encoding" } ? "gzip" : "identity")"
        return cacheable(Data(body), headers: headers, seed: seed, hashingBody: !isArchive, request)
    }

    /// Whether an `Accept-Encoding` value accepts `coding` (named, or `*`, with no `q=0`).
    static func accepts(_ coding: String, _ header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first, name == coding || name == "*" else { return false }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
    }

    // MARK: Sprites and glyphs

    /// `/styles/NAME/sprite[@2x].json|png` (the given style's one sprite) or `/styles/NAME/sprite/ID[@2x].json|png`, from its local file.
    private func sprite(name: String, sprites: [StyleSprite], file id: Substring?, _ last: Substring, _ request: HTTPRequest) throws -> HTTPResponse {
        let sprite: StyleSprite?
        var file = last
        if let id {
            guard id == "sprite" else { throw HTTPRequestError(404, "no route \(request.path.prefix(200))") }
            let wanted = file.prefix { $0 != "@" && $0 != "." }
            sprite = sprites.first { $0.id == wanted }
            file = "sprite" + file.dropFirst(wanted.count)
        } else {
            sprite = sprites.count == 1 ? sprites[0] : nil
        }
        guard let suffix = ["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"].first(where: { $0 == file })?.dropFirst(6),
              let sprite, BrowserStyle.isLocal(sprite.url) else {
            throw HTTPRequestError(404, "tile source '\(name)' serves no sprite file \(request.path.prefix(200))")
        }
        let path = BrowserStyle.path(of: sprite.url) + suffix
        let data = try Self.readFile(path, limit: SpriteLimits.default.maximumSheetBytes, what: "sprite")
        return cacheable(data, type: suffix.hasSuffix("json") ? "application/json" : "image/png", vary: nil, request)
    }

    /// `/fonts/NAME/{fontstack}/{range}.pbf` from the given style's local
    /// `glyphs` template, or the built-in glyph set for a style without `glyphs`.
    private func glyphs(name: String, template: String?, fontStack: Substring, range: Substring, _ request: HTTPRequest) throws -> HTTPResponse {
        let provider: any GlyphProviding
        if let template {
            guard BrowserStyle.isLocal(template), let folder = try? GlyphFolderProvider(template: template) else {
                throw HTTPRequestError(404, "tile source '\(name)': its style's glyphs are not local files")
            }
            provider = folder
        } else {
            provider = BuiltInGlyphs()
        }
        let numbers = range.hasSuffix(".pbf") ? range.dropLast(4).split(separator: "-", omittingEmptySubsequences: false) : []
        guard numbers.count == 2, let low = Int(numbers[0]), let high = Int(numbers[1]), low % 256 == 0, high == low + 255, high <= 65535 else {
            throw HTTPRequestError(400, "glyph range '\(range.prefix(32))' is not START-END.pbf with START a multiple of 256 and END = START + 255")
        }
        guard let stack = String(fontStack).removingPercentEncoding,
              let data = try provider.glyphRange(fontStack: stack, range: "\(low)-\(high)", limits: GlyphRangeLimits()) else {
            throw HTTPRequestError(404, "tile source '\(name)': no glyphs \(fontStack.prefix(100))/\(range)")
        }
        return cacheable(data, type: "application/x-protobuf", vary: nil, request)
    }

    /// A regular file's bytes, at most `limit` (one byte past is read to tell).
    static func readFile(_ path: String, limit: Int, what: String) throws -> Data {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, let handle = FileHandle(forReadingAtPath: path) else {
            throw HTTPRequestError(404, "no \(what) file \((path as NSString).lastPathComponent)")
        }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: limit + 1) ?? Data()
        guard data.count <= limit else { throw HTTPRequestError(500, "the \(what) file \((path as NSString).lastPathComponent) is over \(limit) bytes") }
        return data
    }

    // MARK: Answers

    private func cacheable(_ body: Data, type: String, vary: String?, _ request: HTTPRequest) -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", type)]
        if let vary { headers.append(("Vary", vary)) }
        return cacheable(body, headers: headers, seed: request.target, request)
    }

    /// A `200` with a strong tag over `seed` and (unless `seed` alone names
    /// the bytes) the body, `Cache-Control: public, max-age`, or `304` when
    /// `If-None-Match` names the tag.
    private func cacheable(_ body: Data, headers: [(name: String, value: String)], seed: String, hashingBody: Bool = true,
                           _ request: HTTPRequest) -> HTTPResponse {
        var message = Array("\(seed)\n".utf8)
        if hashingBody { message.append(contentsOf: body) }
        let tag = "\"" + KeyedHash.hex(KeyedHash.sha256(message).prefix(16)) + "\""
        let validators: [(name: String, value: String)] = [("ETag", tag), ("Cache-Control", "public, max-age=\(maxAge)")]
        if let ifNoneMatch = request.header("If-None-Match"), SchemeGateway.matches(ifNoneMatch, tag) {
            return HTTPResponse(status: 304, headers: validators + headers.filter { $0.name == "Vary" })
        }
        return HTTPResponse(status: 200, headers: headers + validators, body: body)
    }
}
