import XCTest
import ImageCodecs
import MapRendering
import Raster
@testable import URLSchemeKit

/// Every typed builder checks its values when it is made, with the error its
/// URL would give (naming the parameter and the range), and every value that
/// exists reads back from its URL as itself, edge values included (issue 29,
/// point 5: builders accepted what their URL refuses).
final class SchemeURLBuilderTests: XCTestCase {
    private func refusal(_ build: () throws -> Any) -> String {
        do {
            _ = try build()
            return "built"
        } catch {
            return "\(error)"
        }
    }

    private func assertReadsBack<T: SchemeURL>(_ values: [T], file: StaticString = #filePath, line: UInt = #line) {
        for value in values {
            XCTAssertEqual(try T(url: value.url), value, value.url.absoluteString, file: file, line: line)
            XCTAssertEqual(try T(url: URL(string: value.url.absoluteString)!), value, "as text too", file: file, line: line)
        }
    }

    func testPollBuilderRefusesWhatItsURLRefuses() {
        let cases: [(() throws -> Any, String)] = [
            ({ try PollURL(question: "Q", options: ["Cafe", "Park"], votes: [1, 3], chosen: 3) },
             "parameter 'chosen' must be a whole number from 1 to 2, got '3'"),
            ({ try PollURL(question: "Q", options: ["Cafe", "Park"], votes: [1, 3], chosen: 0) },
             "parameter 'chosen' must be a whole number from 1 to 2, got '0'"),
            ({ try PollURL(question: "Q", options: ["Cafe"], votes: [1]) },
             "parameter 'option' is given 1 times; a poll has 2 to 10 options"),
            ({ try PollURL(question: "Q", options: ["a", "b"], votes: [1]) },
             "parameter 'votes' has 1 counts for 2 options; give one per option, e.g. votes=1,3,3"),
            ({ try PollURL(question: "Q", options: ["a", "b"], votes: [1, -1]) },
             "parameter 'votes' must be whole numbers from 0 to 1000000000, got '-1'"),
            ({ try PollURL(question: " ", options: ["a", "b"], votes: [1, 1]) }, "parameter 'question' is empty; give 1 to 300 characters"),
            ({ try PollURL(question: "Q", options: ["a", "b\nc"], votes: [1, 1]) },
             "parameter 'option' contains the control character U+000A; it is one line of text, wrapped to the card"),
            ({ try PollURL(question: "Q", options: ["a", "b"], votes: [1, 1], width: 159) },
             "parameter 'width' must be a whole number from 160 to 1024, got '159'"),
            ({ try PollURL(question: "Q", options: ["a", "b"], votes: [1, 1], scale: .nan) },
             "parameter 'scale' must be a number from 1 to 4, got 'nan'"),
            ({ try PollURL(question: "Q", options: ["a", "b"], votes: [1, 1], quality: 101) },
             "parameter 'quality' must be a whole number from 1 to 100, got '101'"),
        ]
        for (build, expected) in cases { XCTAssertEqual(refusal(build), expected) }
    }

    func testPollsReadBackAtTheEdges() throws {
        let longest = String(repeating: "ё", count: PollURL.maximumQuestionLength)
        assertReadsBack([
            try PollURL(question: "Q", options: ["a", "b"], votes: [0, 0], chosen: 1),
            try PollURL(question: longest, options: (1...10).map { "#\($0) & +%" }, votes: Array(repeating: 1_000_000_000, count: 10), chosen: 10,
                        closed: true, anonymous: true, width: 1024, scale: 4, style: .dark, format: .jpeg, quality: 1),
            try PollURL(question: "  spaced  ", options: [String(repeating: "x", count: 100), "b"], votes: [1, 2], width: 160, scale: 1.5,
                        format: .png, quality: 100),
        ])
    }

    func testAssetBuilderRefusesWhatItsURLRefuses() {
        let cases: [(() throws -> Any, String)] = [
            ({ try AssetURL(id: "../x") }, "parameter 'id' must be 1–128 letters, digits, '-' or '_', got '../x'"),
            ({ try AssetURL(id: "") }, "parameter 'id' must be 1–128 letters, digits, '-' or '_', got ''"),
            ({ try AssetURL(id: "a", width: 0) }, "parameter 'width' must be a whole number from 1 to 16384, got '0'"),
            ({ try AssetURL(id: "a", height: 16_385) }, "parameter 'height' must be a whole number from 1 to 16384, got '16385'"),
            ({ try AssetURL(id: "a", width: 10, mode: .fill) }, "parameter 'mode' 'fill' needs both 'width' and 'height'"),
            ({ try AssetURL(id: "a", rotate: 3601) }, "parameter 'rotate' must be a number from -3600 to 3600, got '3601'"),
            ({ try AssetURL(id: "a", crop: NormalizedRect(x: 0.5, y: 0, width: 0.6, height: 1)) },
             "parameter 'crop' lies outside the unit square: need x,y ≥ 0 and x+width, y+height ≤ 1, got '0.5,0,0.6,1'"),
            ({ try AssetURL(id: "a", filters: [.blur(radius: 500)]) }, "parameter 'filter blur' must be a number from 0 to 100, got '500'"),
        ]
        for (build, expected) in cases { XCTAssertEqual(refusal(build), expected) }
    }

    func testAssetsReadBackAtTheEdges() throws {
        assertReadsBack([
            try AssetURL(id: String(repeating: "Z", count: 128), width: 1, height: 16_384, mode: .stretch, crop: NormalizedRect(x: 0, y: 0, width: 1, height: 1),
                         rotate: -3600, flip: .hv, filters: [.blur(radius: 100), .sharpen(amount: 0), .brightness(4), .contrast(0), .grayscale],
                         format: .jpeg, quality: 100),
            try AssetURL(id: "a_b-9", width: 16_384, height: 1, mode: .fill, crop: NormalizedRect(x: 1.0 / 3, y: 0.1, width: 0.2, height: 0.7),
                         rotate: 0.1 + 0.2, filters: [.sepia, .saturation(0.5)], format: .png, quality: 1),
            try AssetURL(id: "0", rotate: 3600),
        ])
    }

    func testAvatarBuilderRefusesWhatItsURLRefuses() {
        let cases: [(() throws -> Any, String)] = [
            ({ try AvatarURL(ids: []) }, "parameter 'id' is required: give 1 to 4 participants' asset ids"),
            ({ try AvatarURL(ids: ["a", "b", "c", "d", "e"]) }, "parameter 'id' is given 5 times; an avatar shows at most 4 participants"),
            ({ try AvatarURL(ids: ["a b"]) }, "parameter 'id' must be 1–128 letters, digits, '-' or '_', got 'a b'"),
            ({ try AvatarURL(ids: ["a"], size: 15) }, "parameter 'size' must be a whole number from 16 to 2048, got '15'"),
            ({ try AvatarURL(ids: ["a"], size: 2049) }, "parameter 'size' must be a whole number from 16 to 2048, got '2049'"),
            ({ try AvatarURL(ids: ["a"], format: .jpeg) },
             "parameter 'format' 'jpeg' cannot hold a circle's transparent corners; use png or shape=square"),
            ({ try AvatarURL(ids: ["a"], quality: 0) }, "parameter 'quality' must be a whole number from 1 to 100, got '0'"),
        ]
        for (build, expected) in cases { XCTAssertEqual(refusal(build), expected) }
    }

    func testAvatarsReadBackAtTheEdges() throws {
        assertReadsBack([
            try AvatarURL(ids: ["a"], size: 16),
            try AvatarURL(ids: ["a", "a", "b", "c"], size: 2048, shape: .square, format: .jpeg, quality: 1),
            try AvatarURL(ids: ["x"], shape: .circle, format: .png, quality: 100),
        ])
    }

    func testMapBuilderRefusesWhatItsURLRefuses() {
        let here = GeoCoordinate(latitude: 59.9, longitude: 30.3)
        func map(_ markers: [MapMarker] = [], tiles: String? = nil, format: ImageFormat = .png) throws -> MapURL {
            try MapURL(options: MapSnapshotOptions(camera: .zoom(center: here, zoom: 4), markers: markers), format: format, tiles: tiles)
        }
        let cases: [(() throws -> Any, String)] = [
            ({ try map([MapMarker(coordinate: here, label: "é")]) }, "parameter 'marker' label must be one letter or digit, got 'é'"),
            ({ try map([MapMarker(coordinate: here, label: " ")]) }, "parameter 'marker' label must be one letter or digit, got ' '"),
            ({ try map(Array(repeating: MapMarker(coordinate: here), count: MapURL.maximumMarkers + 1)) },
             "parameter 'marker' is given 257 times; at most 256"),
            ({ try map(tiles: "my tiles") }, "parameter 'tiles' must name a tile source (letters, digits, '-', '_'), got 'my tiles'"),
            ({ try MapURL(options: MapSnapshotOptions(camera: .zoom(center: here, zoom: 20.5))) }, "parameter 'zoom' must be from 0 to 20, got 20.5"),
        ]
        for (build, expected) in cases { XCTAssertEqual(refusal(build), expected) }
    }

    func testMapsReadBackAtTheEdges() throws {
        let corner = GeoCoordinate(latitude: -90, longitude: 180)
        assertReadsBack([
            try MapURL(options: MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 90, longitude: -180), zoom: 0), width: 1, height: 4096,
                                                   scale: 1), format: .jpeg, quality: 1),
            try MapURL(options: MapSnapshotOptions(camera: .zoom(center: corner, zoom: 20), width: 1024, height: 1024, scale: 4), quality: 100, tiles: "osm_2-x"),
            try MapURL(options: MapSnapshotOptions(camera: .span(center: corner, latitudeDelta: 180, longitudeDelta: 360))),
            try MapURL(options: MapSnapshotOptions(camera: .span(center: corner, latitudeDelta: 1e-9, longitudeDelta: 0.1 + 0.2))),
            try MapURL(options: MapSnapshotOptions(
                camera: .fit(center: nil, padding: 512),
                markers: (0..<MapURL.maximumMarkers).map { MapMarker(coordinate: GeoCoordinate(latitude: Double($0) / 3, longitude: -Double($0) / 7),
                                                                     color: RGBA(0, 0, 0, 0), label: $0.isMultiple(of: 2) ? "z" : "9", size: .large) },
                paths: [MapPath(points: [corner, GeoCoordinate(latitude: 90, longitude: -180)], width: MapPath.widthRange.upperBound, fill: .white)])),
            try MapURL(options: MapSnapshotOptions(camera: .fit(center: GeoCoordinate(latitude: 0, longitude: 0), padding: 0),
                                                   paths: [MapPath(points: [corner, corner], width: MapPath.widthRange.lowerBound)])),
        ])
    }
}
