import Foundation
@testable import MapRendering

// libFuzzer entry for the MapLibre Tiles decoder. The input is decoded as an
// MLT tile under small limits (so a large allocation is a finding, not a slow
// run); only VectorTileError may be thrown. A decoded tile must hold the
// model's invariants the renderer relies on: features within the limit, each
// feature's parts inside its layer's part table and following the previous
// feature's, every part's points inside the layer's points, every tag's key
// and value inside the layer's tables.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMLT(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
    let limits = VectorTileLimits(inflatedTileBytes: 1 << 20, featuresPerTile: 20_000, verticesPerTile: 200_000)
    let tile: VectorTile
    do {
        tile = try VectorTile(bytes: bytes, encoding: .mlt, limits: limits)
    } catch is VectorTileError {
        return 0
    } catch {
        fatalError("VectorTile(encoding: .mlt) threw \(error), not a VectorTileError")
    }
    precondition(tile.featureCount <= limits.featuresPerTile)
    precondition(tile.layers.reduce(0) { $0 + $1.points.count } <= limits.verticesPerTile)
    for layer in tile.layers {
        precondition(!layer.name.isEmpty && layer.extent > 0)
        precondition(layer.partStarts.first == 0 && layer.partStarts.count == layer.partIsExterior.count + 1)
        precondition(Int(layer.partStarts.last ?? 0) == layer.points.count)
        var previousEnd = 0
        for index in 0..<layer.featureCount {
            let feature = layer.feature(at: index)
            precondition(feature.parts.lowerBound >= previousEnd && !feature.parts.isEmpty)
            previousEnd = feature.parts.upperBound
            for part in feature.parts {
                precondition(layer.partStarts[part] <= layer.partStarts[part + 1])
            }
            for position in 0..<feature.propertyCount {
                let (key, value) = feature.property(at: position)
                precondition(layer.index(ofKey: key) != nil)
                _ = value.description
            }
        }
    }
    return 0
}
