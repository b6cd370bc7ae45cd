import XCTest
@testable import MapRendering

final class LabelCollisionIndexTests: XCTestCase {
    /// Overlaps are found across cells and against boxes larger than a cell;
    /// touching edges do not collide.
    func testFindsOverlapsAcrossCells() {
        var index = LabelCollisionIndex(width: 1024, height: 512)
        index.insert([LabelBox(minX: 60, minY: 60, maxX: 70, maxY: 70)])
        index.insert([LabelBox(minX: 300, minY: 0, maxX: 900, maxY: 40)])   // spans ten 64-px cells
        XCTAssertTrue(index.collides([LabelBox(minX: 65, minY: 62, maxX: 200, maxY: 64)]))
        XCTAssertTrue(index.collides([LabelBox(minX: 880, minY: 30, maxX: 890, maxY: 50)]))
        XCTAssertFalse(index.collides([LabelBox(minX: 70, minY: 60, maxX: 80, maxY: 70)]))   // touches
        XCTAssertFalse(index.collides([LabelBox(minX: 100, minY: 100, maxX: 1000, maxY: 500)]))
        // Boxes partly or wholly off the grid are clamped to its edge cells.
        XCTAssertTrue(index.collides([LabelBox(minX: 850, minY: -100, maxX: 5000, maxY: 10)]))
        XCTAssertFalse(index.collides([LabelBox(minX: -500, minY: 600, maxX: -10, maxY: 700)]))
    }
}
