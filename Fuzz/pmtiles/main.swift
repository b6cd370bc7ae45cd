import Foundation
@testable import MapRendering

// libFuzzer entry for the PMTiles reader. The input is opened as a whole
// archive under small limits; when it opens, the metadata is read and the
// tiles its root directory names (and a few it does not) are looked up
// through leaf directories, inflated and decoded. The raw input also goes to
// the directory decoder. Only VectorTileError may be thrown; a loop, a deep
// leaf chain or a bomb must end as one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTiles(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let limits = VectorTileLimits(compressedTileBytes: 1 << 20, inflatedTileBytes: 4 << 20,
                                  featuresPerTile: 20_000, verticesPerTile: 200_000, metadataBytes: 64 << 10)
    expectOnlyVectorTileErrors { _ = try PMTilesDirectory([UInt8](data), what: "input") }
    expectOnlyVectorTileErrors {
        let archive = try PMTilesArchive(source: PMTilesDataSource(data), limits: limits)
        expectOnlyVectorTileErrors { _ = try archive.metadata() }
        var tiles = [TileCoordinate(z: 0, x: 0, y: 0), TileCoordinate(z: 14, x: 9327, y: 4742)]
        for entry in archive.root.entries.prefix(8) {
            if let tile = try? PMTilesTileID.tile(of: entry.tileID) { tiles.append(tile) }
        }
        for tile in tiles {
            expectOnlyVectorTileErrors { _ = try archive.vectorTile(at: tile) }
        }
    }
    return 0
}

func expectOnlyVectorTileErrors(_ body: () throws -> Void) {
    do {
        try body()
    } catch is VectorTileError {
    } catch {
        fatalError("threw \(error), not a VectorTileError")
    }
}
