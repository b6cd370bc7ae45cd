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
            ("map://?latitude=1&longitude=2&format=bmp", .badURL, "parameter 'format' must be one of png, jpeg, webp, gif, got 'bmp'"),
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

    /// Other static-map APIs' spellings get the `map://` one to write instead,
    /// through a real session (issue 29, point 7: they were "unknown" with no hint).
    func testStaticMapHabitsAreAnsweredWithTheMapSpelling() async throws {
        let session = session(QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0))
        let cases: [(String, String)] = [
            ("map://?lat=59.9&longitude=30.3", "parameter 'lat' is unknown; did you mean 'latitude'?"),
            ("map://?latitude=59.9&lng=30.3", "parameter 'lng' is unknown; did you mean 'longitude'?"),
            ("map://?latitude=59.9&lon=30.3", "parameter 'lon' is unknown; did you mean 'longitude'?"),
            ("map://?center=59.9,30.3&zoom=4", "parameter 'center' is unknown; did you mean 'latitude=59.9&longitude=30.3'?"),
            ("map://?center=Paris&zoom=4", "parameter 'center' is unknown; did you mean 'latitude=…&longitude=…'?"),
            ("map://?latitude=1&longitude=2&size=600x400", "parameter 'size' is unknown; did you mean 'width=600&height=400'?"),
            ("map://?markers=59.9,30.3", "parameter 'markers' is unknown; did you mean 'marker=59.9,30.3'?"),
            ("map://?markers=size:mid%7Ccolor:0xFF0000%7Clabel:A%7C59.9,30.3%7C55.75,37.62",
             "parameter 'markers' is unknown; did you mean 'marker=59.9,30.3,size:medium,color:FF0000,label:A&marker=55.75,37.62,size:medium,color:FF0000,label:A'?"),
            ("map://?markers=color:red%7CParis", "parameter 'markers' is unknown; did you mean 'marker'?"),
            ("map://?latitude=1&longitude=2&maptype=roadmap", "parameter 'maptype' is unknown; did you mean 'style'?"),
            ("map://?ll=30.3,59.9&z=4", "parameter 'll' is unknown; did you mean 'latitude=59.9&longitude=30.3'?"),
            ("map://?latitude=1&longitude=2&zoomm=4", "parameter 'zoomm' is unknown; did you mean 'zoom'?"),
        ]
        for (text, expected) in cases {
            guard let error = await loadError(session, text) else { continue }
            XCTAssertEqual(error.code, .badURL, text)
            XCTAssertTrue(error.localizedDescription.contains(expected), "\(text): \(error.localizedDescription)")
        }
    }

    /// A zoom (or span) with markers or paths and no centre looks at the
    /// overlays' middle, as a fitted map does: the same picture as the URL
    /// that names that centre.
    func testAZoomWithoutACentreCentresOnTheOverlays() async throws {
        let session = session(QueryKeyedURLCache(memoryCapacity: 4 << 20, diskCapacity: 0))
        // Mirror images across the equator and 20° apart: the middle is 0, 30 in Web Mercator too.
        let overlays = "marker=10,20&marker=-10,40&zoom=3&width=160&height=120&labels=none"
        let map = try MapURL(url: XCTUnwrap(URL(string: "map://?" + overlays)))
        guard case let .zoom(center, zoom) = map.options.camera else { return XCTFail("\(map.options.camera)") }
        XCTAssertEqual(center.latitude, 0, accuracy: 1e-9)
        XCTAssertEqual(center.longitude, 30, accuracy: 1e-9)
        XCTAssertEqual(zoom, 3)
        XCTAssertEqual(try MapURL(url: map.url), map)
        let (centred, _) = try await session.data(from: XCTUnwrap(URL(string: "map://?" + overlays)))
        let (named, _) = try await session.data(from: XCTUnwrap(URL(string: "map://?latitude=0&longitude=30&" + overlays)))
        XCTAssertEqual(try PNGDecoder().decode(centred).pixels, try PNGDecoder().decode(named).pixels)
        let (spanned, response) = try await session.data(from: XCTUnwrap(URL(string: "map://?path=59.9,30.3,55.75,37.62&latitude_delta=8&longitude_delta=12&width=80&height=60")))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(ImageFormat(sniffing: spanned), .png)
        let bare = await loadError(session, "map://?zoom=3")
        XCTAssertEqual(bare?.localizedDescription.contains("parameter 'latitude' is required (with 'longitude') when 'zoom' is given without markers or paths"), true,
                       bare?.localizedDescription ?? "")
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
