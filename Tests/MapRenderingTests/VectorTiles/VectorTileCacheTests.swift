import Dispatch
import Foundation
import XCTest
@testable import MapRendering

final class VectorTileCacheTests: XCTestCase {
    private func fixtureTile(_ name: String) throws -> VectorTile {
        try VectorTile(Data(contentsOf: VectorTileFixtureTests.fixtures.appendingPathComponent("\(name)/tile.mvt")))
    }

    private func key(_ x: Int) -> VectorTileCache.Key { Self.key(x) }
    private static func key(_ x: Int) -> VectorTileCache.Key { .init(source: "test", tile: TileCoordinate(z: 14, x: x, y: 0)) }

    func testTheLeastRecentlyUsedTileGoesFirst() throws {
        let tile = try fixtureTile("038")
        let cache = VectorTileCache(capacity: tile.decodedByteCount * 3)
        for x in 0..<3 { cache.insert(tile, for: key(x)) }
        XCTAssertEqual(cache.count, 3)
        XCTAssertNotNil(cache.tile(for: key(0)))  // 0 is now the most recent; 1 the least
        cache.insert(tile, for: key(3))
        XCTAssertNil(cache.tile(for: key(1)))
        XCTAssertNotNil(cache.tile(for: key(0)))
        XCTAssertNotNil(cache.tile(for: key(2)))
        XCTAssertNotNil(cache.tile(for: key(3)))
        XCTAssertEqual(cache.totalCost, tile.decodedByteCount * 3)
        XCTAssertNil(cache.tile(for: VectorTileCache.Key(source: "other", tile: key(0).tile)))
    }

    func testCostIsTheDecodedSizeAndOversizedTilesAreNotKept() throws {
        let small = try fixtureTile("017")
        let large = try XCTUnwrap(PMTilesArchive(url: PMTilesArchiveTests.archiveURL).vectorTile(at: PMTilesArchiveTests.central))
        // The central tile holds ~6000 features and ~40 000 points.
        XCTAssertGreaterThan(large.decodedByteCount, 300_000)
        XCTAssertGreaterThan(large.decodedByteCount, 100 * small.decodedByteCount)
        let cache = VectorTileCache(capacity: large.decodedByteCount - 1)
        cache.insert(small, for: key(0))
        cache.insert(large, for: key(1))
        XCTAssertNil(cache.tile(for: key(1)))
        XCTAssertEqual(cache.count, 1)
        // Replacing a key replaces its cost.
        cache.insert(small, for: key(0))
        XCTAssertEqual(cache.totalCost, small.decodedByteCount)
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.totalCost, 0)
    }

    func testDecodesOnceAndSurvivesConcurrentUse() throws {
        let tile = try fixtureTile("043")
        let cache = VectorTileCache(capacity: tile.decodedByteCount * 20)
        var decodes = 0
        _ = cache.tile(for: key(0)) { decodes += 1; return tile }
        _ = cache.tile(for: key(0)) { decodes += 1; return tile }
        XCTAssertEqual(decodes, 1)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<500 {
                let k = Self.key((thread * 7 + i) % 40)
                if cache.tile(for: k) == nil { cache.insert(tile, for: k) }
            }
        }
        XCTAssertLessThanOrEqual(cache.count, 20)
        XCTAssertEqual(cache.totalCost, cache.count * tile.decodedByteCount)
    }
}
