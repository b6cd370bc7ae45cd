/// Decodes a MapLibre Tile (MLT v1, maplibre-tile-spec) into the same
/// ``VectorTile`` the MVT decoder makes, so every layer type draws from it
/// unchanged: a feature table becomes a layer, its columns the layer's keys,
/// their values the layer's values (a dictionary column's entries once, its
/// features pointing at them), its geometry column the layer's points and parts.
///
/// A tile is a sequence of blocks, each a varint length, a varint tag and
/// (tag 1) one feature table: its name, extent and column metadata, then
/// each column's streams (``MLTStream``) in that order. Blocks of other tags
/// are skipped and counted, as a second table of a name already read is.
///
/// What is read: id columns (32 and 64 bit, nullable), the geometry column
/// (``MLTGeometryDecoder``: plain, vertex-dictionary and Morton vertices),
/// boolean, integer, float and double columns, strings plain, dictionary,
/// FSST and shared-dictionary encoded; integer streams varint or plain with
/// delta, RLE, delta-RLE, componentwise delta and Morton. What is not (FastPFOR,
/// map and nested struct columns, pseudodecimal floats) is refused with an
/// ``VectorTileError/Kind/unsupported`` error naming it.
struct MLTDecoder {
    let limits: VectorTileLimits

    func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> VectorTile {
        var reader = ProtobufReader(bytes)
        var budget = MLTBudget(limits: limits)
        var layers: [VectorTileLayer] = []
        var names = Set<String>()
        var skipped = 0
        var number = 0
        while !reader.isAtEnd {
            var block: ProtobufReader, tag: UInt64
            do {
                block = try reader.lengthDelimited()
                tag = try block.varint()
            } catch let error as VectorTileError {
                throw error.prefixed("MLT block after feature table \(number)")
            }
            guard tag == 1 else {
                skipped += 1
                continue
            }
            let table: MLTFeatureTable
            do {
                table = try MLTFeatureTable(&block, budget: &budget)
            } catch let error as VectorTileError {
                throw error.prefixed("MLT feature table \(number)")
            }
            number += 1
            skipped += table.skippedCount
            guard names.insert(table.layer.name).inserted else {
                skipped += 1
                continue
            }
            layers.append(table.layer)
        }
        return VectorTile(layers: layers, skippedCount: skipped)
    }
}
