import XCTest
@testable import MapRendering

/// The one rule for which tiles cover a view, as both tile renderers use it.
final class TileCoverTests: XCTestCase {
    private func columnsAndRows(_ cover: TileCover) -> (columns: Set<Int>, rows: Set<Int>) {
        (Set(cover.map(\.tile.x)), Set(cover.map(\.tile.y)))
    }

    /// A view whose right and bottom edges fall exactly on tile edges needs
    /// no tile beyond them (the vector renderer's own rule fetched one more
    /// column and row here).
    func testAViewEndingOnATileEdgeTakesNoTileBeyondIt() {
        let cover = TileCover(zoom: 3, tileSide: 256, left: 256, top: 512, pixelWidth: 512, pixelHeight: 256)
        XCTAssertEqual(cover.count, 2)
        XCTAssertEqual(columnsAndRows(cover).columns, [1, 2])
        XCTAssertEqual(columnsAndRows(cover).rows, [2])
        XCTAssertEqual(cover.map(\.x), [0, 256])
        XCTAssertEqual(cover.map(\.y), [0, 0])
    }

    /// One pixel further and the next column is needed.
    func testAViewReachingOnePixelIntoATileTakesIt() {
        let cover = TileCover(zoom: 3, tileSide: 256, left: 255, top: 512, pixelWidth: 512, pixelHeight: 256)
        XCTAssertEqual(columnsAndRows(cover).columns, [0, 1, 2])
        XCTAssertEqual(cover.map(\.x).first, -255)
    }

    /// Across the antimeridian the columns wrap; past the poles there are no rows.
    func testColumnsWrapAndRowsStopAtThePoles() {
        let cover = TileCover(zoom: 1, tileSide: 100, left: -50, top: -300, pixelWidth: 100, pixelHeight: 700)
        XCTAssertEqual(columnsAndRows(cover).columns, [1, 0])
        XCTAssertEqual(columnsAndRows(cover).rows, [0, 1])
        XCTAssertEqual(cover.count, 4)
        XCTAssertEqual(TileCover(zoom: 1, tileSide: 100, left: 0, top: 400, pixelWidth: 100, pixelHeight: 100).count, 0)
    }
}
