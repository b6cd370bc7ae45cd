import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MapRendering
@testable import URLSchemeKit

/// `map://…&pitch=P` through a real URLSession: the vector map and its paths
/// tilt together as MapLibre's camera shows them (ground farther up the
/// image drawn smaller), the basemap too, and a pitch out of 0…85 is
/// refused naming it.
final class MapPitchURLTests: XCTestCase {
    private static let view = "latitude=\(VectorMapURLTests.center.latitude)&longitude=\(VectorMapURLTests.center.longitude)&zoom=15&width=256&height=256&labels=none"
    /// 100 points north of the centre at zoom 15 (2^23 points round the world), along the meridian.
    private static let north: Double = {
        let y = WebMercator.unitY(latitude: VectorMapURLTests.center.latitude) - 100 / (256 * 32768)
        return atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }()
    private static let path = "path=\(VectorMapURLTests.center.latitude),\(VectorMapURLTests.center.longitude),\(north),\(VectorMapURLTests.center.longitude),color:ff00ff,width:8"

    private func session(_ sources: MapTileSources) -> URLSession { MapURLTestSession.session(sources) }
    private func session() throws -> URLSession { try MapURLTestSession.helsinki() }
    private func image(_ session: URLSession, _ query: String) async throws -> Bitmap { try await MapURLTestSession.image(session, query) }
    private func isMagenta(_ c: RGBA) -> Bool { MapURLTestSession.isMagenta(c) }

    func testTheVectorMapAndItsPathsTiltWithThePitch() async throws {
        let session = try session()
        let flat = try await image(session, Self.view + "&" + Self.path + "&tiles=hel")
        let tilted = try await image(session, Self.view + "&" + Self.path + "&tiles=hel&pitch=60")
        XCTAssertTrue(isMagenta(flat[128, 128 - 90]), "100 points up, flat")
        // MapLibre's camera 1.5 × 256 points away: the end 100 points up the
        // map lies at depth 384 + sin 60° · 100, so cos 60° · 100 · 384 / that above the centre.
        let end = 128 - 0.5 * 100 * 384 / (384 + 3.0.squareRoot() / 2 * 100)
        XCTAssertTrue(isMagenta(tilted[128, Int(end.rounded()) + 3]), "the path reaches \(end)")
        XCTAssertFalse(isMagenta(tilted[128, Int(end.rounded()) - 8]), "and ends there")
        XCTAssertFalse(isMagenta(tilted[128, 128 - 90]))
        // The map itself tilts: its top half differs from the flat one.
        var differing = 0
        for y in 0..<100 { for x in 0..<256 where flat[x, y] != tilted[x, y] { differing += 1 } }
        XCTAssertGreaterThan(differing, 256 * 100 / 4, "\(differing) pixels of the top differ")
    }

    /// The embedded basemap tilts too, and markers behind the camera are left out.
    func testTheBasemapTiltsAndFarMarkersStayInFront() async throws {
        let session = session(MapTileSources())
        let view = "latitude=60&longitude=25&zoom=5&width=200&height=200&labels=none"
        let flat = try await image(session, view)
        let tilted = try await image(session, view + "&pitch=80&marker=-60,25,color:ff00ff")
        XCTAssertNotEqual(flat, tilted)
        XCTAssertFalse((0..<200).contains { x in (0..<200).contains { isMagenta(tilted[x, $0]) } }, "a marker far behind the camera is not drawn")
    }

    func testAPitchOutOfRangeFailsNamingIt() async throws {
        let session = try session()
        await MapURLTestSession.assertRefused(session, Self.view + "&tiles=hel", parameter: "pitch", [
            ("-1", "parameter 'pitch' must be a number from 0 to 85, got '-1'"),
            ("86", "parameter 'pitch' must be a number from 0 to 85, got '86'"),
            ("up", "parameter 'pitch'"),
        ])
        XCTAssertThrowsError(try MapURL(options: MapSnapshotOptions(camera: .zoom(center: VectorMapURLTests.center, zoom: 3), pitch: 90))) {
            XCTAssertEqual(($0 as? URLParameterError)?.parameter, "pitch")
        }
        let url = try MapURL(options: MapSnapshotOptions(camera: .zoom(center: VectorMapURLTests.center, zoom: 3), pitch: 42.5))
        XCTAssertTrue(url.url.absoluteString.contains("pitch=42.5"), url.url.absoluteString)
        XCTAssertEqual(try MapURL(url: url.url).options.pitch, 42.5)
    }
}
