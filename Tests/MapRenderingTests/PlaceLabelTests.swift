import XCTest
import Raster
@testable import MapRendering

/// Places, lakes, rivers and region borders on the basemap, and the labels chosen for them.
final class PlaceLabelTests: XCTestCase {
    private let renderer = BasemapRenderer()
    private let petersburg = GeoCoordinate(latitude: 59.935634, longitude: 30.325935)

    func testTheEmbeddedPlacesAreRankedAndKnowTheirCapitals() throws {
        let places = try Place.all
        XCTAssertGreaterThan(places.count, 20_000)
        XCTAssertTrue(zip(places, places.dropFirst()).allSatisfy { !$1.outranks($0) }, "by prominence")
        let byName = Dictionary(places.map { ($0.name, $0) }, uniquingKeysWith: { a, b in a.outranks(b) ? a : b })
        for capital in ["Moscow", "Berlin", "Paris", "Tokyo", "Canberra"] {
            XCTAssertEqual(byName[capital]?.isCapital, true, capital)
        }
        let spb = try XCTUnwrap(byName["Saint Petersburg"])
        XCTAssertFalse(spb.isCapital)
        XCTAssertGreaterThan(spb.population, 4_000_000)
        XCTAssertEqual(spb.coordinate.latitude, 59.94, accuracy: 0.01)
        XCTAssertEqual(spb.coordinate.longitude, 30.31, accuracy: 0.01)
    }

    func testTheSeedsViewLabelsSaintPetersburgBesideItsPoint() throws {
        let options = MapSnapshotOptions(camera: .zoom(center: petersburg, zoom: 10), width: 300, height: 200)
        let viewport = MapViewport(options: options)
        let labels = try PlaceLabel.layout(options, in: viewport)
        let spb = try XCTUnwrap(labels.first { $0.place.name == "Saint Petersburg" })
        let p = viewport.pixel(for: spb.place.coordinate)
        XCTAssertEqual(spb.point, Point(p.x, p.y))
        let nearest = max(0, Double(spb.frame.x) - p.x, p.x - Double(spb.frame.x + spb.frame.width),
                          Double(spb.frame.y) - p.y, p.y - Double(spb.frame.y + spb.frame.height))
        XCTAssertLessThan(nearest, 12, "the label sits beside its dot")
        XCTAssertTrue(labels.allSatisfy { $0.frame.x >= 0 && $0.frame.y >= 0 && $0.frame.x + $0.frame.width <= 300 && $0.frame.y + $0.frame.height <= 200 })
    }

    func testEuropeAtZoom5ShowsTheCapitalsAndNoLabelsOverlap() throws {
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 52, longitude: 20), zoom: 5), width: 1000, height: 600)
        let labels = try PlaceLabel.layout(options, in: MapViewport(options: options))
        let names = Set(labels.map(\.place.name))
        for capital in ["Moscow", "Berlin", "Paris", "Warsaw"] { XCTAssertTrue(names.contains(capital), capital) }
        XCTAssertTrue(labels.filter { $0.place.name == "Moscow" }.allSatisfy(\.place.isCapital))
        XCTAssertGreaterThan(labels.count, 30)
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] {
                XCTAssertFalse(a.frame.intersects(b.frame), "\(a.place.name) overlaps \(b.place.name)")
            }
        }
        XCTAssertFalse(names.contains("Kolpino"), "small places wait for deeper zooms")
    }

    func testLabelsKeepClearOfMarkersAndCanBeTurnedOff() throws {
        let marker = MapMarker(coordinate: petersburg, size: .large)
        var options = MapSnapshotOptions(camera: .zoom(center: petersburg, zoom: 8), width: 300, height: 200, markers: [marker])
        let viewport = MapViewport(options: options)
        let tip = viewport.pixel(for: petersburg)
        let pin = PixelRect(x: Int(tip.x) - 13, y: Int(tip.y) - 40, width: 26, height: 40)
        let labels = try PlaceLabel.layout(options, in: viewport)
        XCTAssertFalse(labels.isEmpty)
        XCTAssertTrue(labels.allSatisfy { !$0.frame.intersects(pin) }, "no label under the pin")
        XCTAssertFalse(labels.contains { $0.place.name == "Saint Petersburg" }, "its dot would be under the pin")

        let labelled = try renderer.render(options)
        options.labels = .none
        XCTAssertTrue(try PlaceLabel.layout(options, in: viewport).isEmpty)
        XCTAssertNotEqual(try renderer.render(options), labelled)
    }

    func testTheAttributionCreditsEverySourceInUse() {
        var options = MapSnapshotOptions(camera: .zoom(center: petersburg, zoom: 3))
        XCTAssertEqual(BasemapRenderer.attribution(for: options), "Natural Earth · GeoNames (CC BY 4.0)")
        options.labels = .none
        XCTAssertEqual(BasemapRenderer.attribution(for: options), "Natural Earth")
    }

    func testLakeLadogaIsWaterAtZoom6InBothStyles() throws {
        for style in MapStyle.allCases {
            let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 60.5, longitude: 31), zoom: 6), width: 300, height: 240,
                                             style: style, labels: .none)
            let bitmap = try renderer.render(options)
            let viewport = MapViewport(options: options)
            let ladoga = viewport.pixel(for: GeoCoordinate(latitude: 61.0, longitude: 31.5))  // north-east of the city, mid-lake
            XCTAssertEqual(bitmap[Int(ladoga.x), Int(ladoga.y)], style.palette.water, "\(style)")
            let land = viewport.pixel(for: GeoCoordinate(latitude: 59.6, longitude: 32.8))  // Leningrad oblast, south-east of the lake
            XCTAssertTrue(style.palette.land.contains(bitmap[Int(land.x), Int(land.y)]), "\(style)")
        }
    }

    func testLayersDecodeAtBothDetails() throws {
        let low = try Basemap.load(.low), high = try Basemap.load(.high)
        XCTAssertGreaterThan(low.lakes.count, 10)
        XCTAssertGreaterThan(high.lakes.count, low.lakes.count)
        XCTAssertTrue(low.regionBorders.isEmpty)
        XCTAssertGreaterThan(high.regionBorders.count, 1000)
        let ladoga = GeoCoordinate(latitude: 61.0, longitude: 31.5)
        XCTAssertTrue(high.lakes.contains { $0.bounds?.contains(ladoga) == true })
        // Natural Earth 1:50m rivers: every one zoomed in, only the longest at continent scale.
        XCTAssertGreaterThan(high.rivers.count, 300)
        XCTAssertGreaterThan(low.rivers.count, 20)
        XCTAssertLessThan(low.rivers.count, high.rivers.count / 2)
    }

    /// The Volga between Nizhny Novgorod and Cheboksary, drawn in the water
    /// colour at zoom 7 in both styles: centred on the river line's vertex
    /// nearest that point, the most water-like pixel near the centre is closer
    /// to water than to land, and without the river layer it is not.
    func testRiversAreDrawnInTheWaterColour() throws {
        let basemap = try Basemap.load(.high)
        let volga = GeoCoordinate(latitude: 56.12, longitude: 44.9)
        let line = try XCTUnwrap(basemap.rivers.first { line in
            line.contains { abs($0.latitude - volga.latitude) < 0.3 && abs($0.longitude - volga.longitude) < 0.3 }
        }, "a river passes near \(volga)")
        let point = try XCTUnwrap(line.min { distance($0, volga) < distance($1, volga) })
        for style in MapStyle.allCases {
            let options = MapSnapshotOptions(camera: .zoom(center: point, zoom: 7), width: 120, height: 90, style: style, labels: .none)
            let bitmap = try renderer.render(options)
            let palette = style.palette
            let (x, y) = (-2...2).flatMap { dy in (-2...2).map { dx in (60 + dx, 45 + dy) } }
                .min { colourDistance(bitmap[$0.0, $0.1], palette.water) < colourDistance(bitmap[$1.0, $1.1], palette.water) }!
            let nearest = bitmap[x, y]
            XCTAssertLessThan(colourDistance(nearest, palette.water), colourDistance(nearest, palette.land(colorClass: 1)), "\(style): \(nearest)")
            var withoutRivers = try MapGeometry(viewport: MapViewport(options: options))
            XCTAssertFalse(withoutRivers.rivers.elements.isEmpty)
            withoutRivers.rivers = Path()
            var canvas = try Canvas(width: 120, height: 90, background: palette.water)
            try withoutRivers.draw(on: &canvas, palette: palette, scale: 1)
            XCTAssertGreaterThan(colourDistance(canvas.bitmap[x, y], palette.water), colourDistance(nearest, palette.water),
                                 "\(style): the river, not a lake, makes that pixel water-coloured")
        }
    }

    private func distance(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
        hypot(a.latitude - b.latitude, a.longitude - b.longitude)
    }

    private func colourDistance(_ a: RGBA, _ b: RGBA) -> Int {
        abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b))
    }

    func testRegionBordersShowFromZoom4() throws {
        // Between Moscow and Vladimir oblasts, away from any country border.
        let options = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 56, longitude: 39), zoom: 6), width: 200, height: 150, labels: .none)
        let geometry = try MapGeometry(viewport: MapViewport(options: options))
        XCTAssertFalse(geometry.regionBorders.elements.isEmpty)
        XCTAssertFalse(geometry.lakes.elements.isEmpty)
    }
}
