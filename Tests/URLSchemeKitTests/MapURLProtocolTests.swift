import XCTest
import Synchronization
import MapRendering
import ImageCodecs
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// `map://` through a real URLSession, with the real basemap renderer.
final class MapURLProtocolTests: XCTestCase {
    /// Wraps the real renderer, counting calls.
    final class CountingMapRenderer: Renderer {
        let calls = Atomic<Int>(0)
        private let real = MapSnapshotRenderer()
        func render(_ request: MapURL, in context: RenderContext) throws -> RenderedImage {
            calls.add(1, ordering: .relaxed)
            return try real.render(request, in: context)
        }
    }

    private func session(_ cache: QueryKeyedURLCache, renderer: (any Renderer<MapURL>)? = nil) -> URLSession {
        var renderers = SchemeRenderers()
        if let renderer { renderers.set(renderer) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: cache, httpCache: nil, renderers: renderers))
        return URLSession(configuration: configuration)
    }

    func testASnapshotIsAPNGOfExactlyTheScaledSizeAndTheSecondLoadIsCached() async throws {
        let counter = CountingMapRenderer()
        let session = session(QueryKeyedURLCache(memoryCapacity: 8 << 20, diskCapacity: 0), renderer: counter)
        let url = URL(string: "map://?latitude=59.935634&longitude=30.325935&zoom=4&width=150&height=100&scale=2&marker=59.935634,30.325935")!
        let (data, response) = try await session.data(from: url)
        XCTAssertEqual((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"), "image/png")
        let bytes = Array(data)
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(width, 300)
        XCTAssertEqual(height, 200)

        let reordered = URL(string: "map://?marker=59.935634,30.325935&scale=2&height=100&width=150&zoom=4&longitude=30.325935&latitude=59.935634")!
        let (again, _) = try await session.data(from: reordered)
        XCTAssertEqual(again, data)
        XCTAssertEqual(counter.calls.load(ordering: .relaxed), 1, "the second load must come from QueryKeyedURLCache")
    }

    func testJPEGSnapshotsUseTheURLsQuality() async throws {
        let session = session(QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0))
        let (low, response) = try await session.data(from: URL(string: "map://?latitude=50&longitude=15&zoom=3&width=160&height=120&format=jpeg&quality=20")!)
        let (high, _) = try await session.data(from: URL(string: "map://?latitude=50&longitude=15&zoom=3&width=160&height=120&format=jpeg&quality=95")!)
        XCTAssertEqual((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"), "image/jpeg")
        XCTAssertEqual(ImageFormat(sniffing: low), .jpeg)
        XCTAssertLessThan(low.count, high.count)
        let decoded = try JPEGDecoder().decode(high)
        XCTAssertEqual([decoded.width, decoded.height], [160, 120])
    }

    func testBadParametersFailClearly() async throws {
        let session = session(QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0))
        let cases: [(String, URLError.Code, String)] = [
            ("map://?latitude=95&longitude=0", .badURL, "parameter 'latitude' must be a number from -90 to 90, got '95'"),
            ("map://?latitude=1&longitude=2&width=4096&height=4096&scale=2", .badURL, "must be at most 16777216 pixels"),
            ("map://?latitude=1&longitude=2&format=gif", .badURL, "parameter 'format' must be one of png, jpeg, got 'gif'"),
        ]
        for (text, code, expected) in cases {
            do {
                _ = try await session.data(from: URL(string: text)!)
                XCTFail("\(text) loaded")
            } catch let error as URLError {
                XCTAssertEqual(error.code, code, text)
                XCTAssertTrue(error.localizedDescription.contains(expected), error.localizedDescription)
                XCTAssertEqual(error.failingURL?.absoluteString, text)
            }
        }
    }

    /// The seed's own URL, as a new user loads it: the city is named near its
    /// point and the Gulf of Finland west of it is water.
    func testTheSeedsURLNamesSaintPetersburgOnItsGulf() async throws {
        let session = session(QueryKeyedURLCache(memoryCapacity: 8 << 20, diskCapacity: 0))
        let seed = "map://?latitude=59.935634&longitude=30.325935"
        let (data, _) = try await session.data(from: URL(string: seed)!)
        let (plainData, _) = try await session.data(from: URL(string: seed + "&labels=none")!)
        let map = try PNGDecoder().decode(data), plain = try PNGDecoder().decode(plainData)
        let options = try MapURL(url: URL(string: seed)!).options
        XCTAssertEqual(options.camera, .zoom(center: GeoCoordinate(latitude: 59.935634, longitude: 30.325935), zoom: 10))
        XCTAssertEqual([map.width, map.height], [600, 400])

        let viewport = MapViewport(options: options)
        let label = try XCTUnwrap(try PlaceLabel.layout(options, in: viewport).first { $0.place.name == "Saint Petersburg" })
        let point = viewport.pixel(for: label.place.coordinate)
        XCTAssertLessThan(abs(Double(label.frame.x) - point.x), 20, "the label starts beside the city's point")
        XCTAssertLessThan(abs(Double(label.frame.y + label.frame.height / 2) - point.y), 20)
        let land = MapStyle.light.palette.land
        var inked = 0
        for y in label.frame.y..<(label.frame.y + label.frame.height) {
            for x in label.frame.x..<(label.frame.x + label.frame.width) where map[x, y] != plain[x, y] && !land.contains(map[x, y]) {
                inked += 1
            }
        }
        XCTAssertGreaterThan(inked, label.frame.width * label.frame.height / 5, "the name's pixels differ from the land there")
        let gulf = viewport.pixel(for: GeoCoordinate(latitude: 59.95, longitude: 30.0))
        XCTAssertEqual(map[Int(gulf.x), Int(gulf.y)], MapStyle.light.palette.water, "the Gulf of Finland, west of the city")
    }
}
