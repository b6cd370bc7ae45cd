import XCTest
import Foundation
import ImageCodecs
import Raster
@testable import MapRendering

/// Rendered snapshots put geography where it belongs. Images are kept small:
/// these run in debug builds.
final class BasemapRendererTests: XCTestCase {
    private let renderer = BasemapRenderer()
    private let palette = MapStyle.light.palette

    private func isLand(_ pixel: RGBA?) -> Bool { pixel.map(palette.land.contains) ?? false }

    /// The pixel at `coordinate`, or nil (a test failure) when it falls outside the image.
    private func pixel(_ bitmap: Bitmap, _ viewport: MapViewport, _ coordinate: GeoCoordinate, file: StaticString = #filePath, line: UInt = #line) -> RGBA? {
        let p = viewport.pixel(for: coordinate)
        guard p.x >= 0, p.y >= 0, Int(p.x) < bitmap.width, Int(p.y) < bitmap.height else {
            XCTFail("\(coordinate) lies outside the image at \(p)", file: file, line: line)
            return nil
        }
        return bitmap[Int(p.x), Int(p.y)]
    }

    func testTheSaharaIsLandAndTheMidPacificIsWater() throws {
        // The whole world at zoom 1 (512 points wide).
        // Without labels: this test reads the geography under them.
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 10, longitude: 0), zoom: 1), width: 512, height: 240, labels: .none)
        let bitmap = try renderer.render(options)
        let viewport = MapViewport(options: options)
        let sahara = pixel(bitmap, viewport, GeoCoordinate(latitude: 26, longitude: 3))
        XCTAssertTrue(isLand(sahara), "Sahara pixel is \(String(describing: sahara))")
        XCTAssertEqual(pixel(bitmap, viewport, GeoCoordinate(latitude: 0, longitude: -150)), palette.water, "mid-Pacific")
        XCTAssertEqual(bitmap.width, 512)
        XCTAssertEqual(bitmap.height, 240)
    }

    func testAMarkerIsDrawnWhereTheProjectionPutsIt() throws {
        let spot = GeoCoordinate(latitude: 59.935634, longitude: 30.325935)
        let color = RGBA(10, 200, 30)
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 58, longitude: 25), zoom: 4), width: 200, height: 150,
                                         scale: 2, markers: [MapMarker(coordinate: spot, color: color, size: .large)])
        let bitmap = try renderer.render(options)
        XCTAssertEqual(bitmap.width, 400)
        let tip = MapViewport(options: options).pixel(for: spot)
        // Between the white centre and the tip, the pin is solid marker colour.
        let body = bitmap[Int(tip.x), Int(tip.y - 40 * 2 * 0.3)]
        XCTAssertEqual(body, color)
        // And the pixel just off to the side of the tip is not.
        XCTAssertNotEqual(bitmap[Int(tip.x) + 20, Int(tip.y) - 2], color)
    }

    func testTheAntimeridianShowsLandOnBothSides() throws {
        // Chukotka (Russia) west of 180°, Alaska east of it.
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 64, longitude: 180), zoom: 3), width: 240, height: 200, labels: .none)
        let bitmap = try renderer.render(options)
        let viewport = MapViewport(options: options)
        let chukotka = GeoCoordinate(latitude: 67, longitude: 172), alaska = GeoCoordinate(latitude: 65.5, longitude: -163)
        XCTAssertLessThan(viewport.pixel(for: chukotka).x, 120)
        XCTAssertGreaterThan(viewport.pixel(for: alaska).x, 120)
        XCTAssertTrue(isLand(pixel(bitmap, viewport, chukotka)), "Chukotka: \(String(describing: pixel(bitmap, viewport, chukotka)))")
        XCTAssertTrue(isLand(pixel(bitmap, viewport, alaska)), "Alaska: \(String(describing: pixel(bitmap, viewport, alaska)))")
        XCTAssertEqual(pixel(bitmap, viewport, GeoCoordinate(latitude: 58, longitude: -178)), palette.water, "Bering Sea")
    }

    func testTheWorldRepeatsWhenTheViewIsWiderThanIt() throws {
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 0), width: 600, height: 120, labels: .none)
        let bitmap = try renderer.render(options)
        let viewport = MapViewport(options: options)
        let brazil = viewport.unwrappedPixel(for: GeoCoordinate(latitude: -10, longitude: -55))
        for copy in [-256.0, 0, 256] {
            XCTAssertTrue(isLand(bitmap[Int(brazil.x + copy), Int(brazil.y)]), "Brazil at offset \(copy)")
        }
    }

    func testATenThousandPointPathRenders() throws {
        let points = (0..<10_000).map { GeoCoordinate(latitude: 50 + 5 * sin(Double($0) / 200), longitude: -10 + Double($0) / 200) }
        let color = RGBA(255, 0, 128)
        let options = MapSnapshotOptions(camera: .fit(center: nil, padding: 5), width: 160, height: 100,
                                         paths: [MapPath(points: points, color: color, width: 3)])
        let bitmap = try renderer.render(options)
        XCTAssertGreaterThan(stride(from: 0, to: bitmap.pixels.count, by: 4).filter { RGBA(bitmap.pixels[$0], bitmap.pixels[$0 + 1], bitmap.pixels[$0 + 2]) == color }.count, 500)
    }

    /// The README's zoom-5 Europe view (cut to 400×240 to stay quick in debug
    /// builds) looks as it did before the speed work on strokes and culling:
    /// every channel of every pixel within 2 levels of the stored picture.
    func testTheZoom5EuropeMapMatchesItsStoredPicture() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Pictures/europe-zoom5-400x240.png")
        let expected = try PNGDecoder().decode(Data(contentsOf: fixture))
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 52, longitude: 20), zoom: 5), width: 400, height: 240, scale: 1)
        let bitmap = try renderer.render(options)
        XCTAssertEqual(bitmap.width, expected.width)
        XCTAssertEqual(bitmap.height, expected.height)
        var worst = 0, differing = 0
        for y in 0..<min(bitmap.height, expected.height) {
            for x in 0..<min(bitmap.width, expected.width) {
                let p = bitmap[x, y], q = expected[x, y]
                let red = abs(Int(p.r) - Int(q.r)), green = abs(Int(p.g) - Int(q.g))
                let blue = abs(Int(p.b) - Int(q.b)), alpha = abs(Int(p.a) - Int(q.a))
                let difference = max(red, green, blue, alpha)
                worst = max(worst, difference)
                if difference > 0 { differing += 1 }
            }
        }
        XCTAssertLessThanOrEqual(worst, 2, "\(differing) pixels differ")
    }

    func testInvalidOptionsAndCancellationAreErrors() {
        XCTAssertThrowsError(try renderer.render(MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 30))))
        struct Stop: Error {}
        XCTAssertThrowsError(try renderer.render(MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 2), width: 50, height: 50),
                                                 checkCancellation: { throw Stop() })) { XCTAssertTrue($0 is Stop) }
    }
}
