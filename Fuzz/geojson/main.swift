import Foundation
@testable import MapRendering

// libFuzzer entry for the GeoJSON reader and tiler. The input is read as a
// GeoJSON document under lowered limits (so a large allocation is a finding,
// not a slow run); only GeoJSONError may be thrown. A document that reads is
// cut into the tiles of zooms 0–2 and of one deep tile under each feature's
// first position: every tile's part offsets must be ordered and end at its
// point count, and every point must lie within the tile and its buffer (with
// lineMetrics, every piece's clip fractions are finite).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let limits = GeoJSONLimits(maximumByteCount: 1 << 20, maximumDepth: 24, maximumFeatureCount: 2_000, maximumVertexCount: 20_000)
    let document: GeoJSON
    do {
        document = try GeoJSON(data: data, limits: limits, promoteId: count % 2 == 0 ? "id" : nil)
    } catch is GeoJSONError {
        return 0
    } catch {
        fatalError("GeoJSON threw \(error), not a GeoJSONError")
    }
    precondition(document.features.count <= limits.maximumFeatureCount)
    // Every third input with lineMetrics: each line piece then becomes a feature of its own.
    let options = GeoJSONTileOptions(maximumZoom: 14, lineMetrics: count % 3 == 0)
    let tiles = GeoJSONTiles(document, options: options)
    var coordinates: [TileCoordinate] = []
    for z in 0...2 {
        for x in 0..<(1 << z) {
            for y in 0..<(1 << z) { coordinates.append(TileCoordinate(z: z, x: x, y: y)) }
        }
    }
    if case .point(let point)? = document.features.first?.geometry, GeoCoordinate.latitudeRange.contains(point.latitude),
       GeoCoordinate.longitudeRange.contains(point.longitude) {
        let x = Int(min(max((point.longitude / 360 + 0.5) * 16384, 0), 16383))
        coordinates.append(TileCoordinate(z: 14, x: x, y: 8192))
    }
    let reach = Int32(options.extent) + Int32(options.buffer / 512 * Double(options.extent)) + 1
    for coordinate in coordinates {
        guard let tile = try? tiles.vectorTile(at: coordinate, cancellation: RenderCancellation()) else { continue }
        for layer in tile.layers {
            precondition(layer.partStarts.count == layer.partIsExterior.count + 1)
            precondition(zip(layer.partStarts, layer.partStarts.dropFirst()).allSatisfy { $0 <= $1 })
            precondition(Int(layer.partStarts.last ?? 0) == layer.points.count)
            for point in layer.points {
                precondition(point.x >= -reach && point.x <= reach && point.y >= -reach && point.y <= reach,
                             "point \(point) outside tile \(coordinate) and its buffer")
            }
            for feature in layer.features {
                _ = (feature.id, feature.properties)
                for key in [GeoJSONTiles.clipStartKey, GeoJSONTiles.clipEndKey] {
                    if case .number(let fraction)? = feature.styleValue(forKey: key) { precondition(fraction.isFinite, "\(key) \(fraction)") }
                }
            }
        }
    }
    return 0
}
