import XCTest
@testable import MapRendering

final class BasemapTests: XCTestCase {
    func testBothLevelsDecodeWithTheSourceFeatureCounts() throws {
        let low = try Basemap.load(.low)
        XCTAssertEqual(low.countries.count, 177)
        XCTAssertEqual(low.coastlines.count, 134)
        let high = try Basemap.load(.high)
        XCTAssertEqual(high.countries.count, 241)
        XCTAssertGreaterThanOrEqual(high.coastlines.count, 1_429)
        let vertices = high.countries.reduce(0) { $0 + $1.polygons.joined().reduce(0) { $0 + $1.count } }
        XCTAssertGreaterThan(vertices, 90_000)  // 99,566 in the source, less repeated points
        XCTAssertEqual(Basemap.Detail.forZoom(2.5), .low)
        XCTAssertEqual(Basemap.Detail.forZoom(6), .high)
    }

    func testGeographyIsWhereItBelongs() throws {
        for detail in Basemap.Detail.allCases {
            let basemap = try Basemap.load(detail)
            XCTAssertEqual(country(at: GeoCoordinate(latitude: 59.935634, longitude: 30.325935), in: basemap), "RUS", "\(detail)")
            XCTAssertEqual(country(at: GeoCoordinate(latitude: 28, longitude: 3), in: basemap), "DZA", "Sahara, \(detail)")
            XCTAssertEqual(country(at: GeoCoordinate(latitude: -25, longitude: 134), in: basemap), "AUS", "\(detail)")
            XCTAssertNil(country(at: GeoCoordinate(latitude: 0, longitude: -150), in: basemap), "mid-Pacific, \(detail)")
            XCTAssertNil(country(at: GeoCoordinate(latitude: 45, longitude: -30), in: basemap), "mid-Atlantic, \(detail)")
            // Fiji straddles the antimeridian: land on both sides.
            XCTAssertTrue(basemap.countries.contains { $0.code == "FJI" })
        }
    }

    func testDamagedDataThrowsInsteadOfTrapping() throws {
        let data = try XCTUnwrap(Data(base64Encoded: BasemapData.scale110m, options: .ignoreUnknownCharacters))
        let bytes = Array(data)
        for cut in [0, 3, 5, 9, 100, bytes.count / 2, bytes.count - 1] {
            XCTAssertThrowsError(try BasemapData.decode(Array(bytes.prefix(cut)), detail: .low), "cut at \(cut)")
        }
        var huge = bytes
        huge[5] = 0xFF; huge[6] = 0xFF; huge[7] = 0xFF; huge[8] = 0x7F  // absurd country count
        XCTAssertThrowsError(try BasemapData.decode(huge, detail: .low))
        XCTAssertThrowsError(try BasemapData.decode(bytes + [0], detail: .low))
    }

    /// The code of the country whose polygon holds `point` (even-odd over its rings).
    private func country(at point: GeoCoordinate, in basemap: Basemap) -> String? {
        for country in basemap.countries where country.bounds?.contains(point) ?? false {
            for polygon in country.polygons {
                var inside = false
                for ring in polygon {
                    var j = ring.count - 1
                    for i in ring.indices {
                        let a = ring[i], b = ring[j]
                        if (a.latitude > point.latitude) != (b.latitude > point.latitude),
                           point.longitude < (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude {
                            inside.toggle()
                        }
                        j = i
                    }
                }
                if inside { return country.code }
            }
        }
        return nil
    }
}
