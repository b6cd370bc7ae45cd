import XCTest
@testable import MapRendering

final class MapViewportTests: XCTestCase {
    private let petersburg = GeoCoordinate(latitude: 59.935634, longitude: 30.325935)

    func testTheCentreLandsInTheMiddleAtAnyScale() {
        for scale in [1.0, 2.0, 3.5] {
            let options = MapSnapshotOptions(camera: .zoom(center: petersburg, zoom: 10.5), width: 600, height: 400, scale: scale)
            let viewport = MapViewport(options: options)
            let p = viewport.pixel(for: petersburg)
            XCTAssertEqual(p.x, 300 * scale, accuracy: 1e-6)
            XCTAssertEqual(p.y, 200 * scale, accuracy: 1e-6)
            XCTAssertEqual(viewport.pixelWidth, Int(600 * scale))
            let back = viewport.coordinate(atPixel: 10, 20)
            let again = viewport.pixel(for: back)
            XCTAssertEqual(again.x, 10, accuracy: 1e-6)
            XCTAssertEqual(again.y, 20, accuracy: 1e-6)
        }
    }

    func testOneZoomLevelDoublesDistances() {
        let east = GeoCoordinate(latitude: 59.935634, longitude: 30.425935)
        let a = MapViewport(options: MapSnapshotOptions(camera: .zoom(center: petersburg, zoom: 8)))
        let b = MapViewport(options: MapSnapshotOptions(camera: .zoom(center: petersburg, zoom: 9)))
        XCTAssertEqual((b.pixel(for: east).x - 300) / (a.pixel(for: east).x - 300), 2, accuracy: 1e-9)
    }

    func testASpanShowsAtLeastItsDegreesBothWays() {
        let options = MapSnapshotOptions(camera: .span(center: petersburg, latitudeDelta: 2, longitudeDelta: 8), width: 600, height: 400)
        let viewport = MapViewport(options: options)
        for corner in [(1.0, 4.0), (-1.0, -4.0), (1.0, -4.0), (-1.0, 4.0)] {
            let p = viewport.pixel(for: GeoCoordinate(latitude: petersburg.latitude + corner.0, longitude: petersburg.longitude + corner.1))
            XCTAssertTrue((0...600.001).contains(p.x) && (0...400.001).contains(p.y), "\(corner) at \(p)")
        }
        // …and is tight on one axis.
        let east = viewport.pixel(for: GeoCoordinate(latitude: petersburg.latitude, longitude: petersburg.longitude + 4))
        let north = viewport.pixel(for: GeoCoordinate(latitude: petersburg.latitude + 1, longitude: petersburg.longitude))
        XCTAssertTrue(abs(east.x - 600) < 0.5 || abs(north.y) < 0.5 || abs(viewport.pixel(for: GeoCoordinate(latitude: petersburg.latitude - 1, longitude: petersburg.longitude)).y - 400) < 0.5)
        XCTAssertEqual(MapViewport(options: MapSnapshotOptions(camera: .span(center: GeoCoordinate(latitude: 0, longitude: 0), latitudeDelta: 170, longitudeDelta: 360), width: 256, height: 256)).zoom, 0, accuracy: 1e-9)
    }

    func testFittingKeepsEveryMarkerWholeInsideThePadding() {
        let markers = [
            MapMarker(coordinate: GeoCoordinate(latitude: 59.9, longitude: 30.3), size: .large),
            MapMarker(coordinate: GeoCoordinate(latitude: 55.75, longitude: 37.62)),
            MapMarker(coordinate: GeoCoordinate(latitude: 56.3, longitude: 44.0), size: .small),
        ]
        let options = MapSnapshotOptions(camera: .fit(center: nil, padding: 16), width: 400, height: 300, scale: 2, markers: markers)
        let viewport = MapViewport(options: options)
        for marker in markers {
            let p = viewport.pixel(for: marker.coordinate)
            XCTAssertGreaterThanOrEqual(p.x - 20 * 2, 16 * 2 - 1e-6)
            XCTAssertLessThanOrEqual(p.x + 20 * 2, 400 * 2 - 16 * 2 + 1e-6)
            XCTAssertGreaterThanOrEqual(p.y - 40 * 2, 16 * 2 - 1e-6, "pin top clipped")
            XCTAssertLessThanOrEqual(p.y, 300 * 2 - 16 * 2 + 1e-6)
        }
        let one = MapSnapshotOptions(camera: .fit(center: nil, padding: 16), markers: [markers[0]])
        XCTAssertEqual(MapViewport(options: one).zoom, MapSnapshotOptions.maximumFitZoom)
    }

    func testFittingAcrossTheAntimeridianTakesTheShortWay() {
        let markers = [GeoCoordinate(latitude: -17, longitude: 178), GeoCoordinate(latitude: -18, longitude: -179)].map { MapMarker(coordinate: $0) }
        let viewport = MapViewport(options: MapSnapshotOptions(camera: .fit(center: nil, padding: 10), markers: markers))
        XCTAssertGreaterThan(viewport.zoom, 4, "fitted the long way round the globe")
        let a = viewport.pixel(for: markers[0].coordinate), b = viewport.pixel(for: markers[1].coordinate)
        XCTAssertLessThan(a.x, b.x, "178°E should be left of 179°W")
        XCTAssertTrue((0...600).contains(a.x) && (0...600).contains(b.x))
    }

    func testTheWorldRepeatsAcrossTheAntimeridianAndWhenWiderThanItself() {
        let viewport = MapViewport(options: MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 179.9), zoom: 3), width: 600, height: 400))
        let west = viewport.pixel(for: GeoCoordinate(latitude: 0, longitude: -179.9))
        XCTAssertEqual(west.x, 300 + 0.2 / 360 * viewport.worldPixelWidth, accuracy: 1e-6)

        let wide = MapViewport(options: MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 0), width: 1000, height: 300))
        XCTAssertEqual(wide.worldPixelWidth, 256)
        // A shape covering the whole world shows 5 times across 1000 pixels (partly at the edges).
        let left = wide.unwrappedPixel(for: GeoCoordinate(latitude: 0, longitude: -180)).x
        let right = wide.unwrappedPixel(for: GeoCoordinate(latitude: 0, longitude: 180)).x
        XCTAssertEqual(wide.copyOffsets(minX: left, maxX: right).count, 5)
        XCTAssertEqual(wide.copyOffsets(minX: .nan, maxX: right), [])
    }

    func testValidationNamesTheOption() {
        func error(_ options: MapSnapshotOptions) -> String? {
            do { try options.validate(); return nil } catch { return "\(error)" }
        }
        let c = petersburg
        XCTAssertNil(error(MapSnapshotOptions(camera: .zoom(center: c, zoom: 3))))
        XCTAssertEqual(error(MapSnapshotOptions(camera: .zoom(center: c, zoom: 21))), "'zoom' must be from 0 to 20, got 21.0")
        XCTAssertEqual(error(MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 91, longitude: 0), zoom: 1))), "'latitude' must be from -90 to 90, got 91.0")
        XCTAssertEqual(error(MapSnapshotOptions(camera: .zoom(center: c, zoom: 1), width: 4000, height: 4000, scale: 2)),
                       "'width' × height × scale² must be at most 16777216 pixels (4096×4096), got 64000000")
        XCTAssertEqual(error(MapSnapshotOptions(camera: .zoom(center: c, zoom: 1), width: 8000, height: 10)), "'width' must be from 1 to 4096, got 8000")
        XCTAssertEqual(error(MapSnapshotOptions(camera: .zoom(center: c, zoom: 1), height: 0)), "'height' must be from 1 to 4096, got 0")
        XCTAssertEqual(error(MapSnapshotOptions(camera: .fit(center: nil, padding: 10))), "'latitude' is required (with 'longitude') unless there are markers or paths to fit")
        XCTAssertEqual(error(MapSnapshotOptions(camera: .zoom(center: c, zoom: 1), paths: [MapPath(points: [c])])), "'path' needs at least 2 points, got 1")
    }
}
