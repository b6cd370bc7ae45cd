import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MapRendering
@testable import URLSchemeKit

/// `map://…&bearing=B` through a real URLSession: the vector map, its paths
/// and markers turn together about the image's centre (MapLibre's bearing: at
/// 90 east is up), the basemap too, and a bearing out of 0…360 is refused naming it.
final class MapBearingURLTests: XCTestCase {
    private static let view = "latitude=\(VectorMapURLTests.center.latitude)&longitude=\(VectorMapURLTests.center.longitude)&zoom=15&width=256&height=256&labels=none"
    /// A thick magenta path from the centre 100 points east (zoom 15: 2^23 points round the world).
    private static let east = VectorMapURLTests.center.longitude + 100 * 360 / (256 * 32768)
    private static let path = "path=\(VectorMapURLTests.center.latitude),\(VectorMapURLTests.center.longitude),\(VectorMapURLTests.center.latitude),\(east),color:ff00ff,width:8"

    private func session(_ sources: MapTileSources) -> URLSession { MapURLTestSession.session(sources) }
    private func session() throws -> URLSession { try MapURLTestSession.helsinki() }
    private func image(_ session: URLSession, _ query: String) async throws -> Bitmap { try await MapURLTestSession.image(session, query) }
    private func isMagenta(_ c: RGBA) -> Bool { MapURLTestSession.isMagenta(c) }

    func testTheVectorMapAndItsPathsTurnWithTheBearing() async throws {
        let session = try session()
        let north = try await image(session, Self.view + "&" + Self.path + "&tiles=hel")
        let turned = try await image(session, Self.view + "&" + Self.path + "&tiles=hel&bearing=90")
        XCTAssertTrue(isMagenta(north[128 + 60, 128]), "east of the centre at bearing 0")
        XCTAssertFalse(isMagenta(north[128, 128 - 60]))
        XCTAssertTrue(isMagenta(turned[128, 128 - 60]), "above the centre at bearing 90: east is up")
        XCTAssertFalse(isMagenta(turned[128 + 60, 128]))
        // The whole map turns: the bearing-0 image turned a quarter anticlockwise
        // matches the bearing-90 one away from the credit line at the bottom.
        let expected = try north.rotated(by: -90)
        var differing = 0, counted = 0
        for y in 0..<200 {
            for x in 0..<256 where (x - 128) * (x - 128) + (y - 128) * (y - 128) < 100 * 100 {
                let a = expected[x, y], b = turned[x, y]
                counted += 1
                let red = abs(Int(a.r) - Int(b.r)), green = abs(Int(a.g) - Int(b.g)), blue = abs(Int(a.b) - Int(b.b))
                if max(red, green, blue) > 24 { differing += 1 }
            }
        }
        XCTAssertLessThan(Double(differing) / Double(counted), 0.01, "\(differing) of \(counted) pixels differ")
    }

    /// Markers stand upright where their point lands on the turned map.
    func testMarkersFollowTheTurnedMap() async throws {
        let session = try session()
        let marker = "marker=\(VectorMapURLTests.center.latitude),\(Self.east),color:ff00ff"
        let turned = try await image(session, Self.view + "&" + marker + "&tiles=hel&bearing=270")
        // At 270 east points down: the pin's point is 100 points below the centre, its head above that.
        let head = (118..<138).flatMap { x in (128 + 60..<128 + 100).map { (x, $0) } }.filter { isMagenta(turned[$0.0, $0.1]) }
        XCTAssertFalse(head.isEmpty, "the pin stands over its point below the centre")
        XCTAssertFalse((0..<256).contains { x in (0..<100).contains { isMagenta(turned[x, $0]) } }, "nothing above the centre")
    }

    /// The embedded basemap turns too: the bearing-180 image is the bearing-0 one upside down.
    func testTheBasemapTurns() async throws {
        let session = session(MapTileSources())
        let view = "latitude=60&longitude=25&zoom=5&width=200&height=200&labels=none"
        let north = try await image(session, view)
        let south = try await image(session, view + "&bearing=180")
        let expected = try north.rotated(by: 180)
        var differing = 0
        for y in 20..<170 { for x in 20..<180 where expected[x, y] != south[x, y] { differing += 1 } }
        XCTAssertLessThan(differing, 150 * 160 / 100, "\(differing) pixels differ")
        XCTAssertNotEqual(north, south)
    }

    func testABearingOutOfRangeFailsNamingIt() async throws {
        let session = try session()
        await MapURLTestSession.assertRefused(session, Self.view + "&tiles=hel", parameter: "bearing", [
            ("-1", "parameter 'bearing' must be a number from 0 to 360, got '-1'"),
            ("361", "parameter 'bearing' must be a number from 0 to 360, got '361'"),
            ("east", "parameter 'bearing'"),
        ])
        XCTAssertThrowsError(try MapURL(options: MapSnapshotOptions(camera: .zoom(center: VectorMapURLTests.center, zoom: 3), bearing: 400))) {
            XCTAssertEqual(($0 as? URLParameterError)?.parameter, "bearing")
        }
        // A value round-trips through the URL.
        let url = try MapURL(options: MapSnapshotOptions(camera: .zoom(center: VectorMapURLTests.center, zoom: 3), bearing: 161.5))
        XCTAssertTrue(url.url.absoluteString.contains("bearing=161.5"), url.url.absoluteString)
        XCTAssertEqual(try MapURL(url: url.url).options.bearing, 161.5)
    }
}
