import Foundation
import XCTest
@testable import MapRendering

final class VectorTileDecoderTests: XCTestCase {
    private func helsinkiTile() throws -> [UInt8] {
        try XCTUnwrap(PMTilesArchive(url: PMTilesArchiveTests.archiveURL).tileData(at: PMTilesArchiveTests.central))
    }

    func testFeatureAndVertexLimitsAreCheckedBeforeTheWork() throws {
        let bytes = try helsinkiTile()
        let full = try bytes.withUnsafeBufferPointer { try VectorTile(bytes: $0) }
        let points = full.layers.reduce(0) { $0 + $1.points.count }
        XCTAssertGreaterThan(full.featureCount, 1_000)
        for (limits, text) in [(VectorTileLimits(featuresPerTile: full.featureCount - 1), "features"),
                               (VectorTileLimits(verticesPerTile: points - 1), "vertices")] {
            XCTAssertThrowsError(try bytes.withUnsafeBufferPointer { try VectorTile(bytes: $0, limits: limits) }) { error in
                let error = error as? VectorTileError
                XCTAssertEqual(error?.kind, .limitExceeded)
                XCTAssertTrue(error?.message.contains(text) == true, error?.message ?? "")
            }
        }
        // Exactly at the limits, the tile decodes.
        let exact = VectorTileLimits(featuresPerTile: full.featureCount, verticesPerTile: points)
        XCTAssertEqual(try bytes.withUnsafeBufferPointer { try VectorTile(bytes: $0, limits: exact) }.featureCount, full.featureCount)
    }

    /// Cut anywhere, a real tile is an error (or, cut between layers, fewer
    /// layers), never a crash.
    func testATruncatedTileIsAnErrorOrFewerLayers() throws {
        let bytes = try helsinkiTile()
        let layerCount = try bytes.withUnsafeBufferPointer { try VectorTile(bytes: $0) }.layers.count
        for cut in stride(from: 0, to: bytes.count, by: 1_999) {
            do {
                let tile = try Array(bytes.prefix(cut)).withUnsafeBufferPointer { try VectorTile(bytes: $0) }
                XCTAssertLessThan(tile.layers.count, layerCount, "cut at \(cut)")
            } catch let error as VectorTileError {
                XCTAssertTrue(error.kind == .truncated || error.kind == .corrupt, "cut at \(cut): \(error)")
            }
        }
    }

    func testVarintsAndZigZag() throws {
        func read(_ bytes: [UInt8]) throws -> UInt64 {
            try bytes.withUnsafeBufferPointer { buffer in
                var reader = ProtobufReader(buffer)
                return try reader.varint()
            }
        }
        XCTAssertEqual(try read([0x96, 0x01]), 150)  // the protobuf guide's example
        XCTAssertEqual(try read([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]), UInt64.max)
        XCTAssertThrowsError(try read([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02]))
        XCTAssertThrowsError(try read([0x80, 0x80])) { XCTAssertEqual(($0 as? VectorTileError)?.kind, .truncated) }
        XCTAssertEqual([0, 1, 2, 3, 4294967294, 4294967295].map { ProtobufReader.zigZag32($0) }, [0, -1, 1, -2, Int32.max, Int32.min])
        XCTAssertEqual(ProtobufReader.zigZag(UInt64.max), Int64.min)
    }
}
