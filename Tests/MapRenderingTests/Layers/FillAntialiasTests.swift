import Foundation
import Raster
import XCTest
@testable import MapRendering

/// `fill-antialias`: MapLibre outlines a fill with one-pixel lines in
/// `fill-outline-color`, or without one in the fill's own colour, which
/// darkens the edge of a translucent fill.
final class FillAntialiasTests: XCTestCase {
    /// A 10° square at 0…10° E, 0…10° N filled black at half opacity, with `extra` paint; drawn 64 × 64 at zoom 2 around 5, 5.
    private func render(_ extra: String = "") throws -> Bitmap {
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]]}}},
         "layers": [{"id": "f", "type": "fill", "source": "g", "paint": {"fill-color": "#000000", "fill-opacity": 0.5\#(extra)}}]}
        """#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("no inline source") }
        return try VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
            .render(VectorMapCamera(center: GeoCoordinate(latitude: 5, longitude: 5), zoom: 2, width: 64, height: 64, scale: 1))
    }

    /// The most opaque pixel of row 32 (across the square's left and right edges).
    private func darkestAlongRow(_ bitmap: Bitmap) -> UInt8 {
        (0..<bitmap.width).map { bitmap[$0, 32].a }.max() ?? 0
    }

    func testATranslucentFillIsOutlinedInItsOwnColour() throws {
        let bitmap = try render()
        XCTAssertEqual(bitmap[32, 32].a, 128, "the inside: the fill alone")
        XCTAssertGreaterThan(darkestAlongRow(bitmap), 150, "an edge: the outline over the fill")
    }

    func testWithoutAntialiasThereIsNoOutline() throws {
        XCTAssertLessThanOrEqual(darkestAlongRow(try render(#", "fill-antialias": false"#)), 128)
    }
}
