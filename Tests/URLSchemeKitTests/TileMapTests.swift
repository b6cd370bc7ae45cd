import XCTest
import ImageCodecs
import MapRendering
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// `map://…&tiles=NAME` against tiles served by a real HTTP server on loopback.
final class TileMapTests: XCTestCase {
    /// Zoom 1's four tiles, each one colour: x grows east, y south.
    private let colors = [TileCoordinate(z: 1, x: 0, y: 0): RGBA(200, 0, 0), TileCoordinate(z: 1, x: 1, y: 0): RGBA(0, 200, 0),
                          TileCoordinate(z: 1, x: 0, y: 1): RGBA(0, 0, 200), TileCoordinate(z: 1, x: 1, y: 1): RGBA(200, 200, 0)]

    private func makeTiles() throws -> URL {
        let root = try makeTemporaryDirectory()
        for (tile, color) in colors {
            let folder = root.appendingPathComponent("1/\(tile.x)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try PNGEncoder().encode(Bitmap(width: 256, height: 256, fill: color)).write(to: folder.appendingPathComponent("\(tile.y).png"))
        }
        return root
    }

    private func session(_ sources: MapTileSources) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(tileSources: sources, imageCache: QueryKeyedURLCache(memoryCapacity: 8 << 20, diskCapacity: 0),
                                                                  httpCache: nil))
        return URLSession(configuration: configuration)
    }

    func testTilesFromAnHTTPServerComposeWrapAndCarryOverlaysAndAttribution() async throws {
        let server = try LoopbackFileServer(root: try makeTiles(), test: self)
        var sources = MapTileSources()
        sources.register("testtiles", TileSource(
            loader: HTTPTileLoader(template: server.url("/{z}/{x}/{y}.png"), userAgent: "URLSchemeKitTests/1.0"),
            attribution: "Test tiles"))
        let (data, _) = try await session(sources).data(from: URL(string: "map://?latitude=0&longitude=0&zoom=1&width=512&height=512&tiles=testtiles&marker=40,-90,color:000000")!)
        let map = try PNGDecoder().decode(data)
        XCTAssertEqual(map[100, 100], colors[TileCoordinate(z: 1, x: 0, y: 0)])
        XCTAssertEqual(map[400, 100], colors[TileCoordinate(z: 1, x: 1, y: 0)])
        XCTAssertEqual(map[100, 300], colors[TileCoordinate(z: 1, x: 0, y: 1)])
        XCTAssertEqual(map[400, 300], colors[TileCoordinate(z: 1, x: 1, y: 1)])
        // The marker at 40°N 90°W, drawn over the tiles.
        let viewport = MapViewport(options: MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 1), width: 512, height: 512))
        let tip = viewport.pixel(for: GeoCoordinate(latitude: 40, longitude: -90))
        XCTAssertEqual(map[Int(tip.x), Int(tip.y - 30 * 0.3)], .black)
        // The attribution in the bottom-right corner: some pixels there are not tile colour.
        let corner = (440..<508).flatMap { x in (492..<508).map { y in map[x, y] } }
        XCTAssertTrue(corner.contains { $0 != colors[TileCoordinate(z: 1, x: 1, y: 1)] }, "no attribution drawn")
        XCTAssertTrue(server.requests.allSatisfy { $0.userAgent == "URLSchemeKitTests/1.0" }, "\(server.requests)")
        XCTAssertEqual(Set(server.requests.map(\.path)), ["/1/0/0.png", "/1/1/0.png", "/1/0/1.png", "/1/1/1.png"])

        // Centred on the antimeridian: east of it comes tile x = 0 again.
        let (wrapped, _) = try await session(sources).data(from: URL(string: "map://?latitude=0&longitude=180&zoom=1&width=512&height=512&tiles=testtiles")!)
        let across = try PNGDecoder().decode(wrapped)
        XCTAssertEqual(across[100, 100], colors[TileCoordinate(z: 1, x: 1, y: 0)])
        XCTAssertEqual(across[400, 100], colors[TileCoordinate(z: 1, x: 0, y: 0)])
    }

    func testAMissingTileOrAnUnknownSourceIsAClearError() async throws {
        let server = try LoopbackFileServer(root: try makeTiles(), test: self)
        var sources = MapTileSources()
        sources.register("testtiles", TileSource(
            loader: HTTPTileLoader(template: server.url("/{z}/{x}/{y}.png"), userAgent: "URLSchemeKitTests/1.0"), attribution: "Test tiles"))
        do {
            _ = try await session(sources).data(from: URL(string: "map://?latitude=0&longitude=0&zoom=2&width=64&height=64&tiles=testtiles")!)
            XCTFail("zoom 2 has no tiles")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .resourceUnavailable)
            XCTAssertTrue(error.localizedDescription.contains("map tile 2/"), error.localizedDescription)
            XCTAssertTrue(error.localizedDescription.contains("HTTP 404"), error.localizedDescription)
        }
        do {
            _ = try await session(sources).data(from: URL(string: "map://?latitude=0&longitude=0&zoom=2&tiles=nosuch")!)
            XCTFail("unknown source")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .badURL)
            XCTAssertTrue(error.localizedDescription.contains("parameter 'tiles' names no registered tile source 'nosuch'; registered: testtiles"), error.localizedDescription)
        }
    }

    /// A planted FIFO, a link to /dev/zero and an oversized file are refused
    /// at once, naming the path; a link to a real tile is read.
    func testADirectoryLoaderReadsOnlyRegularFilesWithinItsCap() throws {
        let root = try makeTiles()
        let loader = DirectoryTileLoader(directory: root, maximumBytes: 4096)
        let tile = TileCoordinate(z: 1, x: 0, y: 0)
        XCTAssertEqual(try loader.tile(tile), Array(try Data(contentsOf: root.appendingPathComponent("1/0/0.png"))))
        func refusal(_ z: Int, _ x: Int, _ y: Int) -> String {
            do {
                _ = try loader.tile(TileCoordinate(z: z, x: x, y: y))
                return "read"
            } catch {
                return "\(error)"
            }
        }
        let folder = root.appendingPathComponent("2/0", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("0.png").path, 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("1.png").path, withDestinationPath: "/dev/zero")
        try Data(count: 5000).write(to: folder.appendingPathComponent("2.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("3.png").path,
                                                   withDestinationPath: root.appendingPathComponent("1/0/0.png").path)
        XCTAssertTrue(refusal(2, 0, 0).hasSuffix("2/0/0.png is not a regular file"), refusal(2, 0, 0))
        XCTAssertTrue(refusal(2, 0, 1).hasSuffix("2/0/1.png is not a regular file"), refusal(2, 0, 1))
        XCTAssertTrue(refusal(2, 0, 2).hasSuffix("2/0/2.png has 5000 bytes; at most 4096 are read"), refusal(2, 0, 2))
        XCTAssertEqual(refusal(2, 0, 3), "read")
        XCTAssertTrue(refusal(2, 0, 4).contains("no file at"), refusal(2, 0, 4))
    }

    func testADirectoryOfTilesAtAFractionalZoom() throws {
        let renderer = TileMapRenderer(source: TileSource(loader: DirectoryTileLoader(directory: try makeTiles()), attribution: "Test"))
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 0.5), width: 300, height: 300)
        let map = try renderer.render(options)
        // At zoom 0.5 the world is 362 points wide: the zoom-1 tiles, scaled by √½.
        XCTAssertEqual(map[60, 60], colors[TileCoordinate(z: 1, x: 0, y: 0)])
        XCTAssertEqual(map[240, 240], colors[TileCoordinate(z: 1, x: 1, y: 1)])
        XCTAssertEqual(try MapURL(url: try MapURL(options: options, tiles: "x-1").url).tiles, "x-1")
    }

    /// Tiles go through `ImageDecoder`, so a source serving JPEG tiles draws
    /// as one serving PNGs; bytes of neither format name the tile.
    func testJPEGTilesDrawAndOtherBytesNameTheTile() throws {
        let root = try makeTemporaryDirectory()
        for (tile, color) in colors {
            let folder = root.appendingPathComponent("1/\(tile.x)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try ImageEncoder.encode(Bitmap(width: 256, height: 256, fill: color), format: .jpeg)
                .write(to: folder.appendingPathComponent("\(tile.y).jpg"))
        }
        let renderer = TileMapRenderer(source: TileSource(loader: DirectoryTileLoader(directory: root, template: "{z}/{x}/{y}.jpg"), attribution: "Test"))
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 0.5), width: 300, height: 300)
        let map = try renderer.render(options)
        for (point, tile) in [((60, 60), TileCoordinate(z: 1, x: 0, y: 0)), ((240, 240), TileCoordinate(z: 1, x: 1, y: 1))] {
            let pixel = map[point.0, point.1], expected = try XCTUnwrap(colors[tile])
            for (got, want) in [(pixel.r, expected.r), (pixel.g, expected.g), (pixel.b, expected.b)] {
                XCTAssertLessThanOrEqual(abs(Int(got) - Int(want)), 3, "\(pixel) at \(point), tile \(tile)")
            }
        }

        try Data("BM6, not a tile".utf8).write(to: root.appendingPathComponent("1/0/0.jpg"))
        XCTAssertThrowsError(try renderer.render(options)) { error in
            guard case .undecodable(let tile, let reason)? = error as? MapTileError else { return XCTFail("\(error)") }
            XCTAssertEqual(tile, TileCoordinate(z: 1, x: 0, y: 0))
            XCTAssertTrue(reason.contains("not PNG, JPEG, GIF or WebP"), reason)
        }
    }
}

/// A tile source costs what `ResourceBudget` allows: so many tiles, so many
/// bytes each, fetched together under the render's deadline.
final class TileBudgetTests: XCTestCase {
    private func loadError(_ url: String, in environment: URLSchemeKitEnvironment) async -> URLError? {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(environment)
        do {
            _ = try await URLSession(configuration: configuration).data(from: URL(string: url)!)
            XCTFail("\(url) loaded")
            return nil
        } catch {
            return error as? URLError
        }
    }

    /// The view every test loads: four zoom-1 tiles from the "budgettiles" source.
    private static let view = "map://?latitude=0&longitude=0&zoom=1&width=512&height=512&tiles=budgettiles"

    /// An environment with `server`'s tiles (under `path`) as "budgettiles"
    /// (at most `tileBytes` each) and the default budget changed by `change`.
    private func environment(_ server: LoopbackFileServer, path: String = "", tileBytes: Int = 1 << 20,
                             budget change: (inout ResourceBudget) -> Void = { _ in }) -> URLSchemeKitEnvironment {
        var sources = MapTileSources()
        sources.register("budgettiles", TileSource(loader: HTTPTileLoader(template: server.url(path + "/{z}/{x}/{y}.png"), userAgent: "t",
                                                                          maximumTileBytes: tileBytes),
                                                   attribution: "t"))
        var budget = ResourceBudget()
        change(&budget)
        return URLSchemeKitEnvironment(budget: budget, tileSources: sources, imageCache: QueryKeyedURLCache(memoryCapacity: 8 << 20, diskCapacity: 0))
    }

    private func serve(tileBytes: Int) throws -> LoopbackFileServer {
        let root = try makeTemporaryDirectory()
        for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let folder = root.appendingPathComponent("1/\(x)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var bytes = try PNGEncoder().encode(Bitmap(width: 256, height: 256, fill: RGBA(9, 9, 9)))
            bytes.append(Data(count: max(0, tileBytes - bytes.count)))  // padding after IEND
            try bytes.write(to: folder.appendingPathComponent("\(y).png"))
        }
        return try LoopbackFileServer(root: root, test: self)
    }

    func testAViewNeedingMoreTilesThanTheBudgetIsRefusedBeforeFetching() async throws {
        let server = try serve(tileBytes: 0)
        let error = await loadError(Self.view, in: environment(server) { $0.tiles = 3 })
        XCTAssertEqual(error?.code, .badURL)
        XCTAssertTrue(error?.localizedDescription.hasSuffix("parameter 'tiles' needs 4 tiles for this view; at most 3 may be fetched (ResourceBudget.tiles): make the map smaller or zoom out") == true,
                      error?.localizedDescription ?? "")
        XCTAssertEqual(server.requests.count, 0)
    }

    func testATileLargerThanTheBudgetIsRefused() async throws {
        let server = try serve(tileBytes: 300_000)
        let error = await loadError(Self.view, in: environment(server, tileBytes: 100_000))
        XCTAssertEqual(error?.code, .resourceUnavailable)
        XCTAssertTrue(error?.localizedDescription.contains("sends 300000 bytes; at most 100000 are accepted (HTTPTileLoader.maximumTileBytes)") == true,
                      error?.localizedDescription ?? "")
    }

    func testTilesAreFetchedTogetherUnderTheRenderDeadline() async throws {
        let server = try serve(tileBytes: 0)
        let environment = environment(server, path: "/slow") { $0.renderDeadline = 0.5 }
        let start = Date()
        let error = await loadError(Self.view, in: environment)
        XCTAssertEqual(error?.code, .timedOut, error?.localizedDescription ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "one deadline for all tiles (each tile's own time-out is 15 s)")
        // All four were asked for at once, not one after another.
        XCTAssertEqual(server.requests.count, 4)
    }
}
