import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MapRendering
@testable import URLSchemeKit

/// Vector tiles as a folder of `{z}/{x}/{y}.pbf` files and as an HTTP URL
/// template, through a real URLSession: the tiles are those of the committed
/// Helsinki archive, extracted here with our PMTiles reader (half stored
/// gzipped as in the archive, half inflated), so every snapshot must equal
/// the archive's pixel for pixel.
final class VectorTileSetTests: XCTestCase {
    static let archive = VectorMapURLTests.archive("openmaptiles")
    /// Under the view's centre (as in `VectorMapURLTests`).
    static let central = TileCoordinate(z: 14, x: 9327, y: 4742)
    static func view(zoom: Double = 15, size: Int = 256) -> String {
        "latitude=60.1705&longitude=24.945&zoom=\(zoom)&width=\(size)&height=\(size)&labels=none"
    }

    /// Writes every tile of the archive within its bounds under `folder`
    /// (`z/x/y.pbf`), odd columns as stored (gzip), even ones inflated, and
    /// its metadata as the MBTiles-style `metadata.json` tilemaker writes;
    /// every file dated a year back (so an HTTP cache finds them fresh).
    static func extractFolder(to folder: URL) throws -> Int {
        let archive = try PMTilesArchive(url: Self.archive)
        let file = try Data(contentsOf: Self.archive)
        let bounds = archive.header.bounds
        let files = FileManager.default
        var written: [URL] = []
        for z in archive.zoomRange {
            let n = Double(1 << z)
            func column(_ longitude: Double) -> Int { Int((longitude + 180) / 360 * n) }
            func row(_ latitude: Double) -> Int {
                let phi = latitude * .pi / 180
                return Int((1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * n)
            }
            for x in column(bounds.west)...column(bounds.east) {
                for y in row(bounds.north)...row(bounds.south) {
                    let tile = TileCoordinate(z: z, x: x, y: y)
                    guard let range = try archive.tileRange(PMTilesTileID.id(of: tile)) else { continue }
                    let bytes: Data
                    if x % 2 == 1 {
                        // tileRange is within the file (the tile data section's start added).
                        let start = Int(range.lowerBound)
                        guard start + range.count <= file.count else { throw VectorTileError(.truncated, "tile \(tile) past the file") }
                        bytes = file[start..<start + range.count]
                        XCTAssertEqual(Array(bytes.prefix(2)), [0x1F, 0x8B], "the archive's tiles are gzipped")
                    } else {
                        bytes = Data(try XCTUnwrap(archive.tileData(at: tile)))
                    }
                    let directory = folder.appendingPathComponent("\(z)/\(x)", isDirectory: true)
                    try files.createDirectory(at: directory, withIntermediateDirectories: true)
                    let url = directory.appendingPathComponent("\(y).pbf")
                    try bytes.write(to: url)
                    written.append(url)
                }
            }
        }
        let metadata = try archive.metadata()
        let layers = try JSONSerialization.data(withJSONObject: ["vector_layers": metadata["vector_layers"] ?? []])
        let mbtiles: [String: Any] = ["name": "Helsinki", "format": "pbf", "minzoom": "\(archive.header.minZoom)",
                                      "maxzoom": "\(archive.header.maxZoom)", "attribution": metadata["attribution"] ?? "",
                                      "json": String(decoding: layers, as: UTF8.self)]
        let metadataURL = folder.appendingPathComponent("metadata.json")
        try JSONSerialization.data(withJSONObject: mbtiles).write(to: metadataURL)
        let yearAgo = Date(timeIntervalSinceNow: -365 * 86_400)
        for url in written + [metadataURL] { try files.setAttributes([.modificationDate: yearAgo], ofItemAtPath: url.path) }
        return written.count
    }

    func session(_ sources: MapTileSources, renderers: SchemeRenderers = SchemeRenderers()) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(tileSources: sources, imageCache: QueryKeyedURLCache(memoryCapacity: 16 << 20, diskCapacity: 0),
                                                                  httpCache: nil, renderers: renderers))
        return URLSession(configuration: configuration)
    }

    func image(_ session: URLSession, _ query: String) async throws -> Bitmap {
        let (data, response) = try await session.data(from: try XCTUnwrap(URL(string: "map://?" + query)))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        return try ImageDecoder.decode(data).bitmap
    }

    /// The load of `query` fails with `code`, its message holding every one of `texts`.
    func assertFails(_ session: URLSession, _ query: String, _ code: URLError.Code, containing texts: [String],
                     file: StaticString = #filePath, line: UInt = #line) async {
        do {
            _ = try await session.data(from: try XCTUnwrap(URL(string: "map://?" + query)))
            XCTFail("\(query) drew", file: file, line: line)
        } catch let error as URLError {
            XCTAssertEqual(error.code, code, error.localizedDescription, file: file, line: line)
            for text in texts {
                XCTAssertTrue(error.localizedDescription.contains(text), "'\(text)' not in: \(error.localizedDescription)", file: file, line: line)
            }
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    /// A configuration whose sessions keep tiles in `cache` (as the CLI's does with the shared HTTPCache).
    func cachingConfiguration(_ cache: HTTPCache) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: nil, httpCache: cache))
        return configuration
    }

    /// The folder and the same folder served over HTTP as a template draw
    /// what the archive draws, pixel for pixel: at zoom 15, over-zoomed at 17
    /// (past the tiles' zoom 14), with labels, @2x; with the archive's
    /// attribution, zoom range and schema (told from metadata.json, and for
    /// the template from tile 0/0/0).
    func testFolderAndTemplateDrawTheArchivePixelForPixel() async throws {
        let root = try makeTemporaryDirectory()
        let folder = root.appendingPathComponent("hel", isDirectory: true)
        XCTAssertEqual(try Self.extractFolder(to: folder), 19, "the archive's 19 tiles (pmtiles.reader.all_tiles)")
        let server = try LoopbackFileServer(root: root, test: self)
        var sources = MapTileSources()
        let archived = try VectorTileSource.open(Self.archive)
        let fromFolder = try VectorTileSource.open(folder: folder)
        let fromTemplate = try VectorTileSource.open(template: server.url("/hel/{z}/{x}/{y}.pbf"),
                                                     configuration: cachingConfiguration(HTTPCache(directory: nil)))
        sources.register("archive", archived)
        sources.register("folder", fromFolder)
        sources.register("template", fromTemplate)
        XCTAssertEqual(fromFolder.tiles.zoomRange, 0...14)
        XCTAssertEqual(fromFolder.attribution, archived.attribution)
        XCTAssertEqual(fromTemplate.attribution, archived.attribution, "from the metadata.json beside the zoom folders")
        XCTAssertEqual(fromTemplate.tiles.zoomRange, 0...14)
        XCTAssertTrue(archived.attribution.contains("OpenStreetMap"), archived.attribution)
        XCTAssertEqual(try VectorTileSource.open(URL(fileURLWithPath: folder.path)).identity, fromFolder.identity, "a folder URL opens the folder")
        let session = session(sources)
        for query in [Self.view(), Self.view(zoom: 17), Self.view(zoom: 15.5).replacingOccurrences(of: "&labels=none", with: "") + "&scale=2"] {
            let expected = try await image(session, query + "&tiles=archive")
            let folderMap = try await image(session, query + "&tiles=folder")
            let templateMap = try await image(session, query + "&tiles=template")
            XCTAssertEqual(folderMap.pixels, expected.pixels, "folder, \(query)")
            XCTAssertEqual(templateMap.pixels, expected.pixels, "template, \(query)")
        }
        XCTAssertTrue(server.requests.contains { $0.path == "/hel/14/9327/4742.pbf" }, "tiles were fetched from the server")
        XCTAssertTrue(server.requests.allSatisfy { $0.userAgent == "URLSchemeKit" }, "\(server.requests)")
    }

    /// A missing tile is an empty one (a 404 from a server), drawn as
    /// background; a corrupt tile, a 500 and an unreachable server fail the
    /// snapshot naming the source, the tile and (for a server) the URL.
    func testMissingCorruptAndFailingTilesNameThemselves() async throws {
        let root = try makeTemporaryDirectory()
        let folder = root.appendingPathComponent("hel", isDirectory: true)
        _ = try Self.extractFolder(to: folder)
        let server = try LoopbackFileServer(root: root, test: self)
        let tilePath = "14/\(Self.central.x)/\(Self.central.y).pbf"
        let tileFile = folder.appendingPathComponent(tilePath)
        let original = try Data(contentsOf: tileFile)

        var sources = MapTileSources()
        sources.register("archive", try VectorTileSource.open(Self.archive))
        sources.register("dir", try VectorTileSource.open(folder: folder))
        sources.register("web", try VectorTileSource.open(template: server.url("/hel/{z}/{x}/{y}.pbf")))
        let session = session(sources)
        let complete = try await image(session, Self.view() + "&tiles=archive")

        try FileManager.default.removeItem(at: tileFile)
        let withoutFolder = try await image(session, Self.view() + "&tiles=dir")
        let withoutServer = try await image(session, Self.view() + "&tiles=web")
        XCTAssertEqual(withoutFolder.pixels, withoutServer.pixels, "a 404 is drawn as a missing file is")
        XCTAssertNotEqual(withoutFolder.pixels, complete.pixels, "the missing tile is left as background")

        try Data("definitely not a vector tile".utf8).write(to: tileFile)
        await assertFails(session, Self.view(size: 250) + "&tiles=dir", .cannotDecodeContentData,
                          containing: ["tile source 'dir'", "tile 14/9327/4742"])
        await assertFails(session, Self.view(size: 250) + "&tiles=web", .cannotDecodeContentData,
                          containing: ["tile source 'web'", "tile 14/9327/4742"])
        try original.write(to: tileFile)

        let origin = try OriginServer(test: self)
        try origin.route("/t/14/9327/4742.pbf", status: 500, body: "broken")
        var failing = MapTileSources()
        let template = origin.url("/t/").absoluteString + "{z}/{x}/{y}.pbf"
        failing.register("bad", try VectorTileSource.open(template: template, style: .json(Data(contentsOf: VectorMapURLTests.tiles.appendingPathComponent("helsinki-label-free-style.json")))))
        let failingSession = self.session(failing)
        await assertFails(failingSession, Self.view(size: 250) + "&tiles=bad", .resourceUnavailable,
                          containing: ["tile source 'bad'", "14/9327/4742", origin.url("/t/14/9327/4742.pbf").absoluteString, "500"])
        origin.stop()
        await assertFails(failingSession, Self.view(size: 248) + "&tiles=bad", .resourceUnavailable,
                          containing: ["tile source 'bad'", "14/", origin.url("/t/14/").absoluteString])
        XCTAssertThrowsError(try VectorTileSource.open(template: template)) { error in
            XCTAssertTrue("\(error)".contains(template) && "\(error)".contains("metadata.json"), "\(error)")
        }
    }

    /// The same URL twice is one render; another source of the same template
    /// over the same HTTPCache draws from the cached tiles, asking the server
    /// nothing (the files' dates make them fresh for weeks). A folder's
    /// identity changes when a zoom folder changes.
    func testSameURLTwiceIsOneRenderAndTilesComeFromTheHTTPCache() async throws {
        let root = try makeTemporaryDirectory()
        let folder = root.appendingPathComponent("hel", isDirectory: true)
        _ = try Self.extractFolder(to: folder)
        let server = try LoopbackFileServer(root: root, test: self)
        let cache = HTTPCache(directory: nil)
        let counter = VectorMapURLTests.CountingMapRenderer()
        var renderers = SchemeRenderers()
        renderers.set(counter)
        func source() throws -> MapTileSources {
            var sources = MapTileSources()
            sources.register("web", try VectorTileSource.open(template: server.url("/hel/{z}/{x}/{y}.pbf"), configuration: cachingConfiguration(cache)))
            return sources
        }
        let first = session(try source(), renderers: renderers)
        let a = try await image(first, Self.view() + "&tiles=web")
        let b = try await image(first, Self.view() + "&tiles=web")
        XCTAssertEqual(a.pixels, b.pixels)
        XCTAssertEqual(counter.count.withLock { $0 }, 1, "the second load is answered from the image cache")
        let asked = server.requests.count
        XCTAssertEqual(Set(server.requests.map(\.path)), ["/hel/metadata.json", "/hel/14/9327/4742.pbf"], "the metadata and the view's one tile were asked for")
        let again = try await image(session(try source(), renderers: renderers), Self.view() + "&tiles=web")
        XCTAssertEqual(again.pixels, a.pixels)
        XCTAssertEqual(counter.count.withLock { $0 }, 2)
        XCTAssertEqual(server.requests.count, asked, "every tile (and the metadata.json) came from the HTTP cache")

        let before = try VectorTileSource.open(folder: folder).identity
        try FileManager.default.removeItem(at: folder.appendingPathComponent("14/\(Self.central.x)/\(Self.central.y).pbf"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("14/\(Self.central.x)"))
        XCTAssertNotEqual(try VectorTileSource.open(folder: folder).identity, before, "a zoom folder changed")
    }

    /// The budget holds a folder's tiles as an archive's: over
    /// `compressedTileBytes` or `tilesPerSnapshot`, refused naming the limit.
    func testBudgetLimitsHoldForFolders() async throws {
        let folder = try makeTemporaryDirectory().appendingPathComponent("hel", isDirectory: true)
        _ = try Self.extractFolder(to: folder)
        var budget = ResourceBudget()
        budget.vectorTile.compressedTileBytes = 1000
        var sources = MapTileSources()
        sources.register("dir", try VectorTileSource.open(folder: folder, budget: budget))
        budget.vectorSnapshot.tilesPerSnapshot = 2
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(budget: budget, tileSources: sources, imageCache: nil, httpCache: nil))
        let session = URLSession(configuration: configuration)
        await assertFails(session, Self.view(size: 512) + "&tiles=dir", .cannotDecodeContentData, containing: ["over the limit of 2 per snapshot"])
        await assertFails(session, Self.view(size: 64) + "&tiles=dir", .resourceUnavailable, containing: ["tile 14/9327/4742", "at most 1000"])
    }

    /// `metadata.json` and TileJSON: zooms as numbers or strings, layers at
    /// the top or inside `json`; hostile documents refused naming the field.
    func testTileSetMetadataReadsBothFormsAndRefusesHostileOnes() throws {
        let tileJSON = try TileSetMetadata(json: Data(#"{"tilejson": "3.0.0", "minzoom": 2, "maxzoom": 12, "attribution": "© X", "vector_layers": [{"id": "water"}, {"id": "roads"}]}"#.utf8),
                                           limit: 1000, what: "tiles.json")
        XCTAssertEqual(tileJSON, TileSetMetadata(minimumZoom: 2, maximumZoom: 12, attribution: "© X", layerIDs: ["water", "roads"]))
        let mbtiles = try TileSetMetadata(json: Data(#"{"minzoom": "0", "maxzoom": "14", "json": "{\"vector_layers\": [{\"id\": \"building\"}]}"}"#.utf8),
                                          limit: 1000, what: "metadata.json")
        XCTAssertEqual(mbtiles, TileSetMetadata(minimumZoom: 0, maximumZoom: 14, layerIDs: ["building"]))
        for (json, text) in [(#"[1, 2]"#, "not a JSON object"), (#"{"minzoom": 99}"#, "minzoom is 99"), (#"{"maxzoom": "x"}"#, "maxzoom is x"),
                             (#"{"minzoom": 5, "maxzoom": 3}"#, "above maxzoom"), (#"{"vector_layers": {"id": 1}}"#, "not a list"),
                             (#"{"vector_layers": [{"id": 1}]}"#, "no string id"), (#"{"json": "{"}"#, "json field"),
                             (#"{"attribution": 5}"#, "attribution"), (String(repeating: " ", count: 2000), "over the limit of 1000")] {
            XCTAssertThrowsError(try TileSetMetadata(json: Data(json.utf8), limit: 1000, what: "metadata.json")) { error in
                XCTAssertTrue("\(error)".contains("metadata.json") && "\(error)".contains(text), "\(json): \(error)")
            }
        }
        let folder = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("metadata.json"), withIntermediateDirectories: true)
        XCTAssertThrowsError(try VectorTileSource.open(folder: folder)) { error in
            XCTAssertTrue("\(error)".contains(folder.path) && "\(error)".contains("not a regular file"), "\(error)")
        }
        let empty = try makeTemporaryDirectory("empty")
        XCTAssertThrowsError(try VectorTileSource.open(folder: empty)) { error in
            XCTAssertTrue("\(error)".contains("no zoom folders"), "\(error)")
        }
    }
}
