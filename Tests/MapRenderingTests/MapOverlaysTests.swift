import XCTest
import Raster
@testable import MapRendering

/// Paths are drawn a bounded number of times, however far they wander.
final class MapOverlaysTests: XCTestCase {
    /// The URL: 20,000 points whose longitudes step 0, 120, −120, …,
    /// each step 120° east the short way, 2.4 million degrees in all.
    private let wanderer = (0..<20_000).map { GeoCoordinate(latitude: Double($0 % 7), longitude: [0, 120, -120][$0 % 3]) }

    func testAPathThatCirclesTheWorldIsCutIntoPiecesNearTheView() throws {
        let pieces = MapOverlays.pieces(of: wanderer, nearLongitude: 30)
        XCTAssertEqual(pieces.reduce(0) { $0 + $1.count }, 20_000 + pieces.count - 1, "each cut repeats one point")
        for piece in pieces {
            for point in piece { XCTAssertLessThanOrEqual(abs(point.longitude - 30), 540) }
            for (a, b) in zip(piece, piece.dropFirst()) { XCTAssertEqual(abs(b.longitude - a.longitude), 120, accuracy: 1e-9) }
        }
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 30), zoom: 0), width: 64, height: 64,
                                         paths: [MapPath(points: wanderer)])
        let viewport = MapViewport(options: options)
        let drawn = pieces.reduce(0) { total, piece in
            total + viewport.project(piece, tolerance: 0).reduce(0) { $0 + $1.count }
        }
        XCTAssertLessThanOrEqual(drawn, 4 * 20_000, "at most a few copies of each point (it was one per world: 6,667)")
    }

    func testAPathAcrossTheAntimeridianStaysOnePieceTheShortWay() {
        let path = [GeoCoordinate(latitude: 0, longitude: 170), GeoCoordinate(latitude: 1, longitude: -170), GeoCoordinate(latitude: 2, longitude: -160)]
        XCTAssertEqual(MapOverlays.pieces(of: path, nearLongitude: 180).map { $0.map(\.longitude) }, [[170, 190, 200]])
    }

    func testCancellationIsCheckedBetweenPathsAndCopies() throws {
        struct Stop: Error {}
        let paths = (0..<10).map { i in MapPath(points: [GeoCoordinate(latitude: Double(i), longitude: 0), GeoCoordinate(latitude: Double(i), longitude: 10)]) }
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 5), zoom: 3), width: 64, height: 64, paths: paths)
        var canvas = Canvas(try Bitmap(width: 64, height: 64, fill: .white))
        var calls = 0
        XCTAssertThrowsError(try MapOverlays.draw(options, viewport: MapViewport(options: options), on: &canvas) {
            calls += 1
            if calls == 5 { throw Stop() }
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(calls, 5)
    }
}
