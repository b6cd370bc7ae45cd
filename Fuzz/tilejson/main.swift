import Foundation
import MapRendering

// libFuzzer entry for TileSetMetadata, the reader of a tile folder's
// metadata.json (MBTiles style) or TileJSON. Only VectorTileError may be
// thrown; metadata that reads has zooms in 0…30, the minimum not above the
// maximum, and an `object` that JSONSerialization can write.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTileSetMetadata(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let metadata: TileSetMetadata
    do {
        metadata = try TileSetMetadata(json: data, limit: 1 << 16, what: "metadata.json")
    } catch is VectorTileError {
        return 0
    } catch {
        preconditionFailure("TileSetMetadata threw \(error)")
    }
    for zoom in [metadata.minimumZoom, metadata.maximumZoom].compactMap({ $0 }) {
        precondition((0...30).contains(zoom), "zoom \(zoom)")
    }
    if let low = metadata.minimumZoom, let high = metadata.maximumZoom { precondition(low <= high, "\(low) > \(high)") }
    precondition(JSONSerialization.isValidJSONObject(metadata.object), "object is not JSON")
    return 0
}
