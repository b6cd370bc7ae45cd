import Foundation
@testable import MapRendering

// libFuzzer entry for the MVT decoder. The input is decoded as a tile under
// small limits (so a large allocation is a finding, not a slow run), then
// every feature is walked: its parts must lie inside the layer's points in
// order, its tags inside the key and value tables, and a lookup by each of
// its keys must find a value. Only VectorTileError may be thrown.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMVT(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
    let limits = VectorTileLimits(featuresPerTile: 20_000, verticesPerTile: 200_000)
    let tile: VectorTile
    do {
        tile = try VectorTile(bytes: bytes, limits: limits)
    } catch is VectorTileError {
        return 0
    } catch {
        fatalError("VectorTile threw \(error), not a VectorTileError")
    }
    precondition(tile.featureCount <= limits.featuresPerTile)
    for layer in tile.layers {
        precondition(layer.partStarts.count == layer.partIsExterior.count + 1)
        precondition(zip(layer.partStarts, layer.partStarts.dropFirst()).allSatisfy { $0 <= $1 })
        precondition(Int(layer.partStarts.last ?? 0) == layer.points.count)
        var nextPart = 0
        for feature in layer.features {
            precondition(feature.parts.lowerBound == nextPart)
            nextPart = feature.parts.upperBound
            for position in 0..<feature.propertyCount {
                let (key, _) = feature.property(at: position)
                precondition(feature.value(forKey: key) != nil)
            }
            _ = feature.id
            _ = feature.geometryType
        }
        precondition(nextPart == layer.partIsExterior.count)
    }
    return 0
}
