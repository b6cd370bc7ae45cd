import XCTest
import ImageCodecs
import MapRendering
import Raster
@testable import URLSchemeKit

final class MapURLTests: XCTestCase {
    private func parse(_ text: String) throws -> MapURL { try MapURL(url: URL(string: text)!) }

    private func message(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "parsed"
        } catch {
            return "\(error)"
        }
    }

    func testTheSeedExampleParsesWithDefaults() throws {
        let map = try parse("map://?latitude=59.935634&longitude=30.325935")
        XCTAssertEqual(map.options.camera, .zoom(center: GeoCoordinate(latitude: 59.935634, longitude: 30.325935), zoom: MapSnapshotOptions.defaultZoom))
        XCTAssertEqual(map.options.width, 600)
        XCTAssertEqual(map.options.height, 400)
        XCTAssertEqual(map.format, .png)
    }

    func testDocumentedExamplesParse() throws {
        let span = try parse("map://?latitude=59.93&longitude=30.32&latitude_delta=0.2&longitude_delta=0.4&format=jpeg&quality=70&scale=2&style=dark")
        XCTAssertEqual(span.options.camera, .span(center: GeoCoordinate(latitude: 59.93, longitude: 30.32), latitudeDelta: 0.2, longitudeDelta: 0.4))
        XCTAssertEqual(span.format, .jpeg)
        XCTAssertEqual(span.options.pixelWidth, 1200)
        XCTAssertEqual(span.options.style, .dark)

        let overlays = try parse("map://?marker=59.9386,30.3141,color:red,label:A&marker=55.7539,37.6208,size:large&path=59.9386,30.3141,55.7539,37.6208,width:4,fill:1e88e540")
        XCTAssertEqual(overlays.options.camera, .fit(center: nil, padding: MapSnapshotOptions.defaultPadding))
        XCTAssertEqual(overlays.options.markers.count, 2)
        XCTAssertEqual(overlays.options.markers[0].label, "A")
        XCTAssertEqual(overlays.options.markers[0].color, RGBA(229, 57, 53))
        XCTAssertEqual(overlays.options.markers[1].size, .large)
        XCTAssertEqual(overlays.options.paths[0].width, 4)
        XCTAssertEqual(overlays.options.paths[0].fill, RGBA(0x1e, 0x88, 0xe5, 0x40))
        XCTAssertEqual(try parse("map://?latitude=1&longitude=2&format=JPG").format, .jpeg)
    }

    func testBuiltURLsReadBackAndNeedNoEscaping() throws {
        let maps = [
            try MapURL(options: MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: -33.8688, longitude: 151.2093), zoom: 11.25), width: 320, height: 240, scale: 3, style: .dark, labels: .none), format: .jpeg, quality: 90),
            try MapURL(options: MapSnapshotOptions(camera: .span(center: GeoCoordinate(latitude: 0, longitude: 179.9), latitudeDelta: 10, longitudeDelta: 40))),
            try MapURL(options: {
                var tile = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 60.17, longitude: 24.94), zoom: 14), width: 256, height: 256)
                tile.attribution = .none
                return tile
            }(), tiles: "hel"),
            try MapURL(options: MapSnapshotOptions(
                camera: .fit(center: GeoCoordinate(latitude: 60, longitude: 30), padding: 8),
                markers: [MapMarker(coordinate: GeoCoordinate(latitude: 59.9, longitude: 30.3), color: RGBA(1, 2, 3, 4), label: "7", size: .small)],
                paths: [MapPath(points: [GeoCoordinate(latitude: 1.5, longitude: -2), GeoCoordinate(latitude: 3, longitude: 4.25)], color: .black, width: 1.5, fill: RGBA(255, 0, 0, 128))])),
        ]
        for map in maps {
            let text = map.url.absoluteString
            XCTAssertFalse(text.contains("%"), text)
            XCTAssertEqual(try MapURL(url: URL(string: text)!), map, text)
        }
    }

    /// Following the suggestions leads to a working URL: a Google Static
    /// Maps or Yandex URL, rewritten item by item as each error says, parses
    /// as the map it meant.
    func testFollowingTheHabitSuggestionsGivesTheMeantMap() throws {
        let cases: [(String, String)] = [
            ("center=59.9,30.3&zoom=4&size=600x400&maptype=dark", "latitude=59.9&longitude=30.3&zoom=4&width=600&height=400&style=dark"),
            ("lat=59.9&lng=30.3&z=4", "latitude=59.9&longitude=30.3&zoom=4"),
            ("ll=30.3,59.9&spn=0.4,0.2", "latitude=59.9&longitude=30.3&latitude_delta=0.2&longitude_delta=0.4"),
            ("markers=color:blue%7Clabel:S%7C59.9,30.3%7C55.75,37.62&zoom=4",
             "marker=59.9,30.3,color:blue,label:S&marker=55.75,37.62,color:blue,label:S&zoom=4"),
        ]
        for (habit, meant) in cases {
            var items = habit.split(separator: "&").map(String.init)
            for _ in 0..<items.count {
                do {
                    _ = try parse("map://?" + items.joined(separator: "&"))
                    break
                } catch let error as URLParameterError {
                    // "is unknown; did you mean 'X'?": X is a name (rename) or name=value items (replace).
                    let suggestion = try XCTUnwrap(error.reason.components(separatedBy: "did you mean '").dropFirst().first?.components(separatedBy: "'?").first,
                                                   error.description)
                    let index = try XCTUnwrap(items.firstIndex { $0.hasPrefix(error.parameter + "=") })
                    items[index] = suggestion.contains("=") ? suggestion : suggestion + items[index].dropFirst(error.parameter.count)
                }
            }
            XCTAssertEqual(try parse("map://?" + items.joined(separator: "&")), try parse("map://?" + meant), habit)
        }
    }

    func testATenThousandPointPathParses() throws {
        let points = (0..<10_000).map { GeoCoordinate(latitude: sin(Double($0) / 300) * 60, longitude: Double($0) / 10_000 * 300 - 150) }
        let map = try MapURL(options: MapSnapshotOptions(camera: .fit(center: nil, padding: 10), paths: [MapPath(points: points)]))
        let parsed = try MapURL(url: map.url)
        XCTAssertEqual(parsed.options.paths.first?.points.count, 10_000)
    }

    func testBadInputNamesTheParameterAndTheRange() {
        let cases: [(String, String)] = [
            ("map://?latitude=91&longitude=0", "parameter 'latitude' must be a number from -90 to 90, got '91'"),
            ("map://?latitude=1&longitude=2&zoom=25", "parameter 'zoom' must be a number from 0 to 20, got '25'"),
            ("map://?latitude=1&longitude=2&width=4000&height=4000&scale=2", "parameter 'width' × height × scale² must be at most 16777216 pixels (4096×4096), got 64000000"),
            ("map://?latitude=1", "parameter 'longitude' is required with 'latitude'"),
            ("map://?zoom=3", "parameter 'latitude' is required (with 'longitude') when 'zoom' is given without markers or paths to centre on"),
            ("map://?latitude=1&longitude=2&zoom=3&latitude_delta=1&longitude_delta=1", "parameter 'zoom' cannot be given with 'latitude_delta'/'longitude_delta'; choose one"),
            ("map://?latitude=1&longitude=2&latitude_delta=1", "parameter 'longitude_delta' is required with 'latitude_delta'"),
            ("map://?latitude=1&longitude=2&zoom=3&padding=4", "parameter 'padding' applies only when the map is fitted to markers or paths (no 'zoom' or span)"),
            ("map://?latitude=1&longitude=2&format=bmp", "parameter 'format' must be one of png, jpeg, webp, gif, got 'bmp'"),
            ("map://?marker=abc", "parameter 'marker' needs 'latitude,longitude' first, got 'abc'"),
            ("map://?marker=1,2,label:AB", "parameter 'marker' label must be one letter or digit, got 'AB'"),
            ("map://?marker=1,2,colour:red", "parameter 'marker' has unknown option 'colour'; known: color, label, size"),
            ("map://?marker=1,2,color:%23ff0000", "parameter 'marker' has colour '#ff0000'; use RRGGBB or RRGGBBAA hex (no '#') or one of black, blue, brown, gray, green, grey, orange, purple, red, white, yellow"),
            ("map://?marker=1,200", "parameter 'marker' must be a number from -180 to 180, got '200'"),
            ("map://?path=1,2", "parameter 'path' needs at least two 'latitude,longitude' pairs, got 2 numbers"),
            ("map://?path=1,2,3,4,width:99", "parameter 'path' must be a number from 0 to 64, got '99'"),
            ("map://?path=1,2,color:red,3,4", "parameter 'path' has '3' after its options; coordinates come first"),
            ("map://?latitude=1&longitude=2&attribution=left", "parameter 'attribution' must be one of corner, none, got 'left'"),
            ("map://?latitude=1&longitude=2&zoomm=3", "parameter 'zoomm' is unknown; did you mean 'zoom'? (known: latitude, longitude, zoom, latitude_delta, longitude_delta, width, height, scale, format, quality, lossless, marker, path, style, labels, padding, tiles, bearing, attribution, pitch)"),
        ]
        for (url, expected) in cases {
            XCTAssertEqual(message(url), expected, url)
        }
    }
}

extension MapURLTests {
    /// A typed URL is a pure value: the points of all paths together are
    /// held to the environment's budget when the map is drawn, before drawing.
    func testPathPointsAreBudgetedAcrossAllPathsWhenDrawn() throws {
        let path = "path=" + (0..<5_001).map { _ in "1,2" }.joined(separator: ",")
        let four = try MapURL(url: XCTUnwrap(URL(string: "map://?" + [String](repeating: path, count: 4).joined(separator: "&"))))
        let context = RenderContext(environment: URLSchemeKitEnvironment(imageCache: nil, httpCache: nil))
        XCTAssertThrowsError(try MapSnapshotRenderer().render(four, in: context)) { error in
            XCTAssertEqual("\(error)", "parameter 'path' has 20004 points in all; at most 20000 (ResourceBudget.pathPoints)")
        }
        var budget = ResourceBudget()
        budget.pathPoints = 2
        let small = try MapURL(url: XCTUnwrap(URL(string: "map://?path=1,2,3,4,5,6&width=32&height=32")))
        let tight = RenderContext(environment: URLSchemeKitEnvironment(budget: budget, imageCache: nil, httpCache: nil))
        XCTAssertThrowsError(try MapSnapshotRenderer().render(small, in: tight)) { error in
            XCTAssertEqual("\(error)", "parameter 'path' has 3 points in all; at most 2 (ResourceBudget.pathPoints)")
        }
        XCTAssertNoThrow(try MapSnapshotRenderer().render(small, in: context))
    }
}
