/// Decodes the protobuf of an MVT 2.1 tile into ``VectorTile``: layers, their
/// key and value tables, features' ids, types and tags. Geometry goes to
/// ``VectorTileGeometryDecoder``.
///
/// A layer is read in two passes because protobuf does not order fields:
/// the first collects the name, version, extent, keys, values and where each
/// feature lies (so a tag can be checked against the tables, and the feature
/// count against the limit, before any feature is decoded); the second
/// decodes the features into the layer's flat arrays.
///
/// A feature without a type is of type UNKNOWN (the proto2 default), kept
/// and never drawn.
///
/// Fatal faults (the tile is refused): a wrong wire type for a known field, a
/// layer without name or version or with a version other than 1 or 2, a
/// value of an unknown or missing type, a tag index out of range, a malformed
/// geometry. Recoverable faults (the feature or layer is dropped and
/// counted): a feature without geometry, with a type above 3, with
/// two geometries or an odd number of tags; a second layer of the same name.
/// This follows the `error` each mvt-fixtures case recommends.
struct VectorTileDecoder {
    let limits: VectorTileLimits

    /// What is left of the tile's feature and vertex allowances.
    struct Budget {
        var features: Int
        var vertices: Int
    }

    func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> VectorTile {
        var reader = ProtobufReader(bytes)
        var layers = [VectorTileLayer]()
        var names = Set<String>()
        var skipped = 0
        var budget = Budget(features: limits.featuresPerTile, vertices: limits.verticesPerTile)
        var number = 0
        while let field = try reader.nextField() {
            guard field.number == 3 else {
                try reader.skip(field.type)  // tile extensions (fields 16…8191) carry nothing drawn
                continue
            }
            try expect(field.type, .lengthDelimited, "tile field 3 (layer)")
            let layer = try decodeLayer(try reader.lengthDelimited(), number: number, budget: &budget, skipped: &skipped)
            number += 1
            if names.insert(layer.name).inserted {
                layers.append(layer)
            } else {
                skipped += 1
            }
        }
        return VectorTile(layers: layers, skippedCount: skipped)
    }

    private func decodeLayer(_ message: ProtobufReader, number: Int, budget: inout Budget, skipped: inout Int) throws -> VectorTileLayer {
        var reader = message
        var name: String?
        var version: UInt32?
        var extent: UInt32 = 4096
        var keys = [String]()
        var values = [VectorTileValue]()
        var features = [ProtobufReader]()
        while let field = try reader.nextField() {
            switch field.number {
            case 1:
                try expect(field.type, .lengthDelimited, "layer \(number) name")
                name = try reader.string()
            case 2:
                try expect(field.type, .lengthDelimited, "layer \(number) feature")
                guard budget.features > 0 else {
                    throw VectorTileError(.limitExceeded, "the tile holds more than \(limits.featuresPerTile) features (the limit)")
                }
                budget.features -= 1
                features.append(try reader.lengthDelimited())
            case 3:
                try expect(field.type, .lengthDelimited, "layer \(number) key \(keys.count)")
                keys.append(try reader.string())
            case 4:
                try expect(field.type, .lengthDelimited, "layer \(number) value \(values.count)")
                values.append(try decodeValue(try reader.lengthDelimited(), layer: number, index: values.count))
            case 5:
                try expect(field.type, .varint, "layer \(number) extent")
                extent = try reader.uint32("layer \(number) extent")
            case 15:
                try expect(field.type, .varint, "layer \(number) version")
                version = try reader.uint32("layer \(number) version")
            default:
                try reader.skip(field.type)
            }
        }
        guard let name else { throw VectorTileError(.corrupt, "layer \(number) has no name") }
        guard let version else { throw VectorTileError(.corrupt, "layer '\(name)' has no version") }
        guard version == 1 || version == 2 else {
            throw VectorTileError(.unsupported, "layer '\(name)' has version \(version); MVT versions 1 and 2 are read")
        }
        guard extent > 0 else { throw VectorTileError(.corrupt, "layer '\(name)' has extent 0") }

        // Real tiles spend about 3 bytes of layer per vertex.
        var builder = VectorTileGeometryDecoder(limits: limits, vertices: min(message.remaining / 3, budget.vertices), parts: features.count + 1)
        var records = [VectorTileLayer.FeatureRecord]()
        records.reserveCapacity(features.count)
        var tags = [UInt32]()
        for (index, feature) in features.enumerated() {
            do {
                if let record = try decodeFeature(feature, keyCount: keys.count, valueCount: values.count, tags: &tags, geometry: &builder, budget: &budget) {
                    records.append(record)
                } else {
                    skipped += 1
                }
            } catch let error as VectorTileError {
                throw error.prefixed("layer '\(name)' feature \(index)")
            }
        }
        return VectorTileLayer(name: name, version: version, extent: extent, keys: keys, values: values, records: records,
                               tags: tags, points: builder.points, partStarts: builder.partStarts, partIsExterior: builder.partIsExterior)
    }

    /// One feature into the layer's arrays; nil when a recoverable fault drops it.
    private func decodeFeature(_ message: ProtobufReader, keyCount: Int, valueCount: Int, tags: inout [UInt32],
                               geometry builder: inout VectorTileGeometryDecoder, budget: inout Budget) throws -> VectorTileLayer.FeatureRecord? {
        var reader = message
        var id: UInt64?
        var type: UInt64 = 0  // proto2's default: UNKNOWN
        var tagReader: ProtobufReader?
        var geometry: ProtobufReader?
        var geometryCount = 0
        while let field = try reader.nextField() {
            switch field.number {
            case 1:
                try expect(field.type, .varint, "id")
                id = try reader.varint()
            case 2:
                try expect(field.type, .lengthDelimited, "tags (packed)")
                tagReader = try reader.lengthDelimited()
            case 3:
                try expect(field.type, .varint, "type")
                type = try reader.varint()
            case 4:
                try expect(field.type, .lengthDelimited, "geometry (packed)")
                geometry = try reader.lengthDelimited()
                geometryCount += 1
            default:
                try reader.skip(field.type)
            }
        }
        // Recoverable: the feature cannot be drawn as the tile meant it.
        guard type <= 3, let geometryType = VectorTileGeometryType(rawValue: UInt8(type)),
              let geometry, geometryCount == 1 else { return nil }

        let tagStart = tags.count
        if var tagReader {
            while !tagReader.isAtEnd {
                let key = try tagReader.uint32("a tag")
                guard Int(key) < keyCount else {
                    throw VectorTileError(.corrupt, "tag key index \(key) is out of range (the layer has \(keyCount) keys)")
                }
                guard !tagReader.isAtEnd else {
                    tags.removeSubrange(tagStart...)
                    return nil  // an odd number of tags: recoverable
                }
                let value = try tagReader.uint32("a tag")
                guard Int(value) < valueCount else {
                    throw VectorTileError(.corrupt, "tag value index \(value) is out of range (the layer has \(valueCount) values)")
                }
                tags.append(key)
                tags.append(value)
            }
        }
        let partStart = builder.partCount
        try builder.decode(geometry, type: geometryType, budget: &budget)
        return VectorTileLayer.FeatureRecord(
            id: id ?? 0, hasID: id != nil, type: geometryType,
            tagStart: UInt32(tagStart), tagCount: UInt32(tags.count - tagStart),
            partStart: UInt32(partStart), partCount: UInt32(builder.partCount - partStart))
    }

    private func decodeValue(_ message: ProtobufReader, layer: Int, index: Int) throws -> VectorTileValue {
        var reader = message
        var value: VectorTileValue?
        // Only an error spells this out: built per value, it would cost more than the value.
        func what() -> String { "layer \(layer) value \(index)" }
        while let field = try reader.nextField() {
            guard value == nil else { throw VectorTileError(.corrupt, "\(what()) holds more than one value") }
            switch field.number {
            case 1:
                try expect(field.type, .lengthDelimited, "\(what()) (string)")
                value = .string(try reader.string())
            case 2:
                try expect(field.type, .fixed32, "\(what()) (float)")
                value = .float(Float(bitPattern: try reader.fixed32()))
            case 3:
                try expect(field.type, .fixed64, "\(what()) (double)")
                value = .double(Double(bitPattern: try reader.fixed64()))
            case 4:
                try expect(field.type, .varint, "\(what()) (int)")
                value = .int(Int64(bitPattern: try reader.varint()))
            case 5:
                try expect(field.type, .varint, "\(what()) (uint)")
                value = .uint(try reader.varint())
            case 6:
                try expect(field.type, .varint, "\(what()) (sint)")
                value = .sint(try reader.sint64())
            case 7:
                try expect(field.type, .varint, "\(what()) (bool)")
                value = .bool(try reader.varint() != 0)
            default:
                throw VectorTileError(.corrupt, "\(what()) has field \(field.number), not a value type of MVT 2.1")
            }
        }
        guard let value else { throw VectorTileError(.corrupt, "\(what()) is empty") }
        return value
    }

    @inline(__always)
    private func expect(_ type: ProtobufReader.WireType, _ expected: ProtobufReader.WireType, _ field: @autoclosure () -> String) throws {
        guard type == expected else {
            throw VectorTileError(.corrupt, "\(field()) has wire type \(type.rawValue), expected \(expected.rawValue)")
        }
    }
}
