/// One MapLibre Tile feature table read into a ``VectorTileLayer``: its
/// metadata (name, extent, columns), then each column's streams in order,
/// then the columns decoded (geometry first, since it gives the feature
/// count) and turned into the layer's keys, values and per-feature tags.
///
/// Column type codes (MLT v1): 0–3 id (bit 0 nullable, bit 1 64-bit), 4
/// geometry, 10–29 scalars (`10 + 2 × type + nullable`: boolean, int8,
/// uint8, int32, uint32, int64, uint64, float, double, string), 30 a
/// shared-dictionary struct of string children. A nullable column's values
/// are stored for present features only, after a presence bit stream.
struct MLTFeatureTable {
    let layer: VectorTileLayer
    /// Features dropped because their geometry holds no vertex.
    let skippedCount: Int

    private struct Column {
        var code: UInt64
        var name: String
        var children: [(code: UInt64, name: String)] = []
        var nullable: Bool { code & 1 == 1 }
    }

    /// A column's streams as read, before decoding.
    private enum Streams {
        case id(present: MLTStream?, data: MLTStream, wide: Bool)
        case geometry([MLTStream])
        case scalar(code: UInt64, name: String, present: MLTStream?, data: MLTStream)
        case strings(name: String, present: MLTStream?, streams: [MLTStream])
        case shared(name: String, dictionary: [MLTStream], children: [(name: String, present: MLTStream?, data: MLTStream)])
    }

    init(_ reader: inout ProtobufReader, budget: inout MLTBudget) throws {
        let name = try reader.string()
        guard !name.isEmpty else { throw VectorTileError(.corrupt, "a feature table has an empty name") }
        let extent = try reader.varint()
        guard extent > 0, extent <= UInt64(UInt32.max) else { throw VectorTileError(.corrupt, "layer '\(name)' has extent \(extent)") }
        do {
            let columns = try Self.columns(&reader)
            var streams: [Streams] = []
            for column in columns { streams.append(try Self.streams(of: column, &reader)) }
            guard reader.isAtEnd else { throw VectorTileError(.corrupt, "\(reader.remaining) bytes follow the last column") }
            (layer, skippedCount) = try Self.layer(name: name, extent: UInt32(extent), streams, budget: &budget)
        } catch let error as VectorTileError {
            throw error.prefixed("layer '\(name)'")
        }
    }

    // MARK: Reading

    private static func columns(_ reader: inout ProtobufReader) throws -> [Column] {
        let count = try reader.varint()
        // Every column takes at least a byte of metadata.
        guard count <= UInt64(reader.remaining) else { throw VectorTileError(.corrupt, "\(count) columns in \(reader.remaining) bytes") }
        var columns: [Column] = []
        var ids = 0, geometries = 0
        for _ in 0..<count {
            let code = try reader.varint()
            var column = Column(code: code, name: code < 4 ? "id" : "geometry")
            switch code {
            case 0...3: ids += 1
            case 4: geometries += 1
            case 10...29: column.name = try reader.string()
            case 30:
                column.name = try reader.string()
                let children = try reader.varint()
                guard children <= UInt64(reader.remaining) else { throw VectorTileError(.corrupt, "column '\(column.name)' has \(children) children in \(reader.remaining) bytes") }
                for _ in 0..<children {
                    let childCode = try reader.varint()
                    guard childCode == 28 || childCode == 29 else {
                        throw VectorTileError(.unsupported, "column '\(column.name)': a shared-dictionary child of type \(childCode) (only strings, 28 and 29, are supported)")
                    }
                    column.children.append((childCode, try reader.string()))
                }
            case 31: throw VectorTileError(.unsupported, "map columns (type 31, nested properties) are not supported")
            default: throw VectorTileError(.corrupt, "column type \(code) is not one of MLT's (0–4, 10–31)")
            }
            columns.append(column)
        }
        guard ids <= 1, geometries == 1 else { throw VectorTileError(.corrupt, "the table has \(ids) id and \(geometries) geometry columns (at most 1 and exactly 1)") }
        return columns
    }

    private static func streams(of column: Column, _ reader: inout ProtobufReader) throws -> Streams {
        do {
            switch column.code {
            case 0...3:
                let present = column.nullable ? try MLTStream(&reader, boolean: true) : nil
                return .id(present: present, data: try MLTStream(&reader), wide: column.code >= 2)
            case 4:
                let count = try reader.varint()
                guard count >= 1, count <= UInt64(reader.remaining) else { throw VectorTileError(.corrupt, "\(count) streams in \(reader.remaining) bytes") }
                return .geometry(try (0..<count).map { _ in try MLTStream(&reader) })
            case 28, 29:
                var count = try reader.varint()
                guard count > 0 else { return .strings(name: column.name, present: nil, streams: []) }
                guard count <= UInt64(reader.remaining) else { throw VectorTileError(.corrupt, "\(count) streams in \(reader.remaining) bytes") }
                var present: MLTStream?
                if column.nullable {
                    present = try MLTStream(&reader, boolean: true)
                    count -= 1
                }
                return .strings(name: column.name, present: present, streams: try (0..<count).map { _ in try MLTStream(&reader) })
            case 30:
                let count = try reader.varint()
                var dictionary: [MLTStream] = []
                while UInt64(dictionary.count) < count {
                    let stream = try MLTStream(&reader)
                    dictionary.append(stream)
                    if stream.kind == .data(1) || stream.kind == .data(2) { break }
                    guard dictionary.count < 4 else { throw VectorTileError(.corrupt, "the shared dictionary has more than 4 streams") }
                }
                var children: [(String, MLTStream?, MLTStream)] = []
                for child in column.children {
                    _ = try reader.varint()  // the child's stream count: presence (when nullable) and data
                    let present = child.code & 1 == 1 ? try MLTStream(&reader, boolean: true) : nil
                    children.append((column.name + child.name, present, try MLTStream(&reader)))
                }
                return .shared(name: column.name, dictionary: dictionary, children: children)
            default:
                let present = column.nullable ? try MLTStream(&reader, boolean: true) : nil
                return .scalar(code: column.code, name: column.name, present: present, data: try MLTStream(&reader, boolean: column.code <= 11))
            }
        } catch let error as VectorTileError {
            throw error.prefixed("column '\(column.name)'")
        }
    }

    // MARK: Decoding

    /// The columns' values, as the layer's tables and each feature's value index per key.
    private struct Properties {
        var keys: [String] = []
        var values: [VectorTileValue] = []
        /// Per key, per feature: an index into `values`, or -1 (null).
        var columns: [[Int32]] = []
    }

    private static func layer(name: String, extent: UInt32, _ streams: [Streams], budget: inout MLTBudget) throws -> (VectorTileLayer, Int) {
        guard case .geometry(let geometryStreams)? = streams.first(where: { if case .geometry = $0 { return true } else { return false } }),
              let types = geometryStreams.first else { throw VectorTileError(.corrupt, "no geometry column") }
        let featureCount = types.decodedCount
        try budget.chargeFeatures(featureCount)
        let geometry: MLTGeometryDecoder
        do {
            geometry = try MLTGeometryDecoder(streams: geometryStreams, featureCount: featureCount, budget: &budget)
        } catch let error as VectorTileError {
            throw error.prefixed("column 'geometry'")
        }
        var ids: [Int64?]?
        var properties = Properties()
        for column in streams {
            switch column {
            case .geometry: continue
            case let .id(present, data, wide):
                do {
                    let mask = try presence(present, featureCount, budget: &budget)
                    ids = try spread(try data.integers(signed: false, wide: wide, budget: &budget), over: mask, featureCount)
                } catch let error as VectorTileError {
                    throw error.prefixed("column 'id'")
                }
            case let .scalar(code, name, present, data):
                do {
                    let mask = try presence(present, featureCount, budget: &budget)
                    let values = try scalarValues(code: code, data, budget: &budget)
                    try add(name, values, indices: spread(Array(0..<Int64(values.count)), over: mask, featureCount), to: &properties, budget: &budget)
                } catch let error as VectorTileError {
                    throw error.prefixed("column '\(name)'")
                }
            case let .strings(name, present, strings):
                do {
                    guard !strings.isEmpty else { continue }  // absent from this tile
                    let mask = try presence(present, featureCount, budget: &budget)
                    let entries = try MLTStrings(strings, budget: &budget)
                    let indices = try entries.featureIndices(count: mask?.filter { $0 }.count ?? featureCount, budget: &budget)
                    try add(name, entries.values, indices: spread(indices, over: mask, featureCount), to: &properties, budget: &budget)
                } catch let error as VectorTileError {
                    throw error.prefixed("column '\(name)'")
                }
            case let .shared(name, dictionary, children):
                do {
                    let entries = try MLTStrings(dictionary, budget: &budget)
                    let first = properties.values.count
                    properties.values += entries.values.map { .string($0) }
                    for child in children {
                        let mask = try presence(child.present, featureCount, budget: &budget)
                        let indices = try child.data.integers(signed: false, budget: &budget)
                        guard indices.allSatisfy({ $0 >= 0 && $0 < Int64(entries.values.count) }) else {
                            throw VectorTileError(.corrupt, "child '\(child.name)' points past the \(entries.values.count) dictionary entries")
                        }
                        try addColumn(child.name, try spread(indices.map { $0 + Int64(first) }, over: mask, featureCount), to: &properties, budget: &budget)
                    }
                } catch let error as VectorTileError {
                    throw error.prefixed("column '\(name)'")
                }
            }
        }
        return try build(name: name, extent: extent, geometry: geometry, ids: ids, properties: properties, budget: &budget)
    }

    /// A presence stream's bits (nil: every feature has a value).
    private static func presence(_ stream: MLTStream?, _ featureCount: Int, budget: inout MLTBudget) throws -> [Bool]? {
        guard let stream else { return nil }
        guard stream.storedCount == featureCount else {
            throw VectorTileError(.corrupt, "the presence stream holds \(stream.storedCount) bits for \(featureCount) features")
        }
        return try stream.booleans(budget: &budget)
    }

    /// Values stored for present features only, spread over every feature (nil where absent).
    private static func spread(_ values: [Int64], over mask: [Bool]?, _ featureCount: Int) throws -> [Int64?] {
        guard let mask else {
            guard values.count == featureCount else { throw VectorTileError(.corrupt, "\(values.count) values for \(featureCount) features") }
            return values
        }
        var next = 0
        let spread = try mask.map { present -> Int64? in
            guard present else { return nil }
            guard next < values.count else { throw VectorTileError(.corrupt, "\(values.count) values for more present features") }
            next += 1
            return values[next - 1]
        }
        guard next == values.count else { throw VectorTileError(.corrupt, "\(values.count) values for \(next) present features") }
        return spread
    }

    private static func spread(_ values: [Int], over mask: [Bool]?, _ featureCount: Int) throws -> [Int64?] {
        try spread(values.map(Int64.init), over: mask, featureCount)
    }

    private static func scalarValues(code: UInt64, _ data: MLTStream, budget: inout MLTBudget) throws -> [VectorTileValue] {
        switch code / 2 {
        case 5: return try data.booleans(budget: &budget).map { .bool($0) }
        case 6, 8: return try data.integers(signed: true, budget: &budget).map { .int($0) }
        case 7, 9: return try data.integers(signed: false, budget: &budget).map { .uint(UInt64(truncatingIfNeeded: $0)) }
        case 10: return try data.integers(signed: true, wide: true, budget: &budget).map { .int($0) }
        case 11: return try data.integers(signed: false, wide: true, budget: &budget).map { .uint(UInt64(bitPattern: $0)) }
        case 12: return try data.floats(double: false, budget: &budget).map { .float(Float($0)) }
        default: return try data.floats(double: true, budget: &budget).map { .double($0) }
        }
    }

    /// A column whose values are `values` (each feature's index into them in `indices`).
    private static func add(_ name: String, _ values: [VectorTileValue], indices: [Int64?], to properties: inout Properties,
                            budget: inout MLTBudget) throws {
        let first = Int64(properties.values.count)
        properties.values += values
        try addColumn(name, indices.map { $0.map { $0 + first } }, to: &properties, budget: &budget)
    }

    private static func add(_ name: String, _ strings: [String], indices: [Int64?], to properties: inout Properties,
                            budget: inout MLTBudget) throws {
        try add(name, strings.map { VectorTileValue.string($0) }, indices: indices, to: &properties, budget: &budget)
    }

    private static func addColumn(_ name: String, _ indices: [Int64?], to properties: inout Properties, budget: inout MLTBudget) throws {
        try budget.charge(indices.count, "property cells")
        properties.keys.append(name)
        properties.columns.append(indices.map { $0.map { Int32(truncatingIfNeeded: $0) } ?? -1 })
    }

    private static func build(name: String, extent: UInt32, geometry: MLTGeometryDecoder, ids: [Int64?]?,
                              properties: Properties, budget: inout MLTBudget) throws -> (VectorTileLayer, Int) {
        guard properties.values.count <= Int(Int32.max) else { throw VectorTileError(.limitExceeded, "the layer holds more than 2³¹ values") }
        var records: [VectorTileLayer.FeatureRecord] = []
        var tags: [UInt32] = []
        var skipped = 0
        for feature in geometry.types.indices {
            let parts = geometry.featureParts[feature]
            guard !parts.isEmpty else {
                skipped += 1  // no vertex to draw, as an MVT feature without geometry
                continue
            }
            let tagStart = tags.count
            for (key, column) in properties.columns.enumerated() where column[feature] >= 0 {
                tags.append(UInt32(key))
                tags.append(UInt32(column[feature]))
            }
            let id = ids?[feature] ?? nil
            records.append(VectorTileLayer.FeatureRecord(
                id: UInt64(bitPattern: id ?? 0), hasID: id != nil, type: geometry.types[feature],
                tagStart: UInt32(tagStart), tagCount: UInt32(tags.count - tagStart),
                partStart: UInt32(parts.lowerBound), partCount: UInt32(parts.count)))
        }
        let layer = VectorTileLayer(name: name, version: 2, extent: extent, keys: properties.keys, values: properties.values,
                                    records: records, tags: tags, points: geometry.points, partStarts: geometry.partStarts,
                                    partIsExterior: geometry.partIsExterior)
        return (layer, skipped)
    }
}
