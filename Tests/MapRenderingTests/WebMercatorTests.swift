import XCTest
@testable import MapRendering

final class WebMercatorTests: XCTestCase {
    func testOriginIsTheCentreOfTheWorld() {
        let p = WebMercator.project(latitude: 0, longitude: 0, zoom: 0)
        XCTAssertEqual(p.x, 128, accuracy: 1e-9)
        XCTAssertEqual(p.y, 128, accuracy: 1e-9)
    }

    func testLatitudeIsClampedToTheSquareWorld() {
        let top = WebMercator.project(latitude: 89.9, longitude: -180, zoom: 1)
        XCTAssertEqual(top.x, 0, accuracy: 1e-9)
        XCTAssertEqual(top.y, 0, accuracy: 1e-6)
        let bottom = WebMercator.project(latitude: -90, longitude: 180, zoom: 1)
        XCTAssertEqual(bottom.x, 512, accuracy: 1e-9)
        XCTAssertEqual(bottom.y, 512, accuracy: 1e-6)
    }

    func testUnprojectInvertsProjectAtFractionalZoom() {
        let zoom = 7.3
        let p = WebMercator.project(latitude: 59.935634, longitude: 30.325935, zoom: zoom)
        let c = WebMercator.unproject(x: p.x, y: p.y, zoom: zoom)
        XCTAssertEqual(c.latitude, 59.935634, accuracy: 1e-9)
        XCTAssertEqual(c.longitude, 30.325935, accuracy: 1e-9)
    }
}
