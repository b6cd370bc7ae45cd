/// Decodes a MapLibre Tile geometry column (its geometry-type stream, length
/// streams and vertex buffer) into a layer's flat arrays, as MVT geometry is:
/// points as one part, a part per line, a part per ring (rings without their
/// closing point, which MLT omits too; exterior when their signed area is
/// positive, as ``VectorTileGeometryDecoder`` classifies them).
///
/// The length streams become offsets as the specification's "length stream
/// encoding rules" say: a simple type counts 1, a multi type (or one above
/// the stream's threshold) reads its count; with a `Rings` stream present,
/// lines' vertex counts are in it. Every offset is checked against the array
/// it indexes before it is used.
struct MLTGeometryDecoder {
    /// Per feature: its type in the MVT model and its parts (indices into `partIsExterior`).
    private(set) var types: [VectorTileGeometryType] = []
    private(set) var featureParts: [Range<Int>] = []
    private(set) var points: [VectorTilePoint] = []
    private(set) var partStarts: [UInt32] = [0]
    private(set) var partIsExterior: [Bool] = []

    /// MLT geometry types.
    private enum Kind: Int64 {
        case point = 0, lineString, polygon, multiPoint, multiLineString, multiPolygon
        var isLine: Bool { self == .lineString || self == .multiLineString }
        var isPolygon: Bool { self == .polygon || self == .multiPolygon }
        var isPoint: Bool { self == .point || self == .multiPoint }
    }

    /// Decodes `streams` (the geometry column's, types first) of a layer of `featureCount` features.
    init(streams: [MLTStream], featureCount: Int, budget: inout MLTBudget) throws {
        guard let typeStream = streams.first else { throw VectorTileError(.corrupt, "the geometry column has no streams") }
        let kinds = try typeStream.integers(signed: false, budget: &budget).map { value -> Kind in
            guard let kind = Kind(rawValue: value) else { throw VectorTileError(.corrupt, "geometry type \(value) is not 0…5") }
            return kind
        }
        guard kinds.count == featureCount else {
            throw VectorTileError(.corrupt, "the geometry column holds \(kinds.count) types for \(featureCount) features")
        }
        var geometries: [Int64]?, parts: [Int64]?, rings: [Int64]?, vertexOffsets: [Int64]?, vertices: [Int64]?, indexBuffer = false
        func once(_ slot: inout [Int64]?, _ stream: MLTStream, signed: Bool, _ what: String) throws {
            guard slot == nil else { throw VectorTileError(.corrupt, "the geometry column has two \(what) streams") }
            slot = try stream.integers(signed: signed, budget: &budget)
        }
        for stream in streams.dropFirst() {
            switch stream.kind {
            case .present: continue
            case .data(3), .data(4): try once(&vertices, stream, signed: true, "vertex")
            case .offset(0): try once(&vertexOffsets, stream, signed: false, "vertex offset")
            case .offset(1), .length(4): indexBuffer = true  // a tessellation: drawing triangulates itself
            case .length(1): try once(&geometries, stream, signed: false, "geometry count")
            case .length(2): try once(&parts, stream, signed: false, "part count")
            case .length(3): try once(&rings, stream, signed: false, "ring count")
            default: throw VectorTileError(.corrupt, "the geometry column has a stream of kind \(stream.kind)")
            }
        }
        if indexBuffer && parts == nil {
            throw VectorTileError(.unsupported, "pre-tessellated polygons without their outlines are not supported")
        }
        // Lengths to offsets.
        var geometryOffsets: [Int]?, partOffsets: [Int]?, ringOffsets: [Int]?
        if let geometries {
            let roots = try Self.root(kinds, geometries, above: .polygon)
            geometryOffsets = roots
            if let parts {
                if let rings {
                    let level1 = try Self.level1(kinds, roots, parts, linesCounted: false, budget: &budget)
                    partOffsets = level1
                    ringOffsets = try Self.level2(kinds, roots, level1, rings, budget: &budget)
                } else {
                    partOffsets = try Self.level1(kinds, roots, parts, linesCounted: true, polygonsCounted: false, budget: &budget)
                }
            }
        } else if let parts {
            if let rings {
                let roots = try Self.root(kinds, parts, above: .lineString)
                partOffsets = roots
                ringOffsets = try Self.level1(kinds, roots, rings, linesCounted: kinds.contains { $0.isLine }, budget: &budget)
            } else {
                partOffsets = try Self.root(kinds, parts, above: .point)
            }
        }
        try build(kinds, geometryOffsets, partOffsets, ringOffsets, vertices: vertices ?? [], dictionary: vertexOffsets, budget: &budget)
    }

    // MARK: Offsets

    /// Offsets from lengths where a type above `threshold` reads its length and the others count 1.
    private static func root(_ kinds: [Kind], _ lengths: [Int64], above threshold: Kind) throws -> [Int] {
        var offsets = [0], next = 0
        offsets.reserveCapacity(kinds.count + 1)
        for kind in kinds {
            var increment = 1
            if kind.rawValue > threshold.rawValue {
                increment = Int(try value(lengths, next, "length"))
                next += 1
            }
            offsets.append(offsets[offsets.count - 1] + increment)
        }
        return offsets
    }

    /// Offsets one level down from `roots`: polygons (and lines, when
    /// `linesCounted`) read a length per sub-geometry; the rest count 1.
    private static func level1(_ kinds: [Kind], _ roots: [Int], _ lengths: [Int64], linesCounted: Bool, polygonsCounted: Bool = true,
                                budget: inout MLTBudget) throws -> [Int] {
        var offsets = [0], next = 0
        for (i, kind) in kinds.enumerated() {
            let count = roots[i + 1] - roots[i]
            let counted = (polygonsCounted && kind.isPolygon) || (linesCounted && kind.isLine)
            try reserve(&offsets, count, budget: &budget)
            for _ in 0..<count {
                var increment = 1
                if counted {
                    increment = Int(try value(lengths, next, "part length"))
                    next += 1
                }
                offsets.append(offsets[offsets.count - 1] + increment)
            }
        }
        return offsets
    }

    /// Ring offsets under `roots` and `level1`: every type but points reads a length per ring.
    private static func level2(_ kinds: [Kind], _ roots: [Int], _ level1: [Int], _ lengths: [Int64], budget: inout MLTBudget) throws -> [Int] {
        var offsets = [0], next = 0, part = 0
        for (i, kind) in kinds.enumerated() {
            let count = roots[i + 1] - roots[i]
            guard part + count < level1.count else { throw VectorTileError(.corrupt, "the geometry's part counts run past its parts") }
            for _ in 0..<count {
                let rings = kind.isPoint ? 1 : level1[part + 1] - level1[part]
                try reserve(&offsets, rings, budget: &budget)
                for _ in 0..<rings {
                    var increment = 1
                    if !kind.isPoint {
                        increment = Int(try value(lengths, next, "ring length"))
                        next += 1
                    }
                    offsets.append(offsets[offsets.count - 1] + increment)
                }
                part += 1
            }
        }
        return offsets
    }

    /// Offsets grow by counts the streams give (a count of sub-geometries
    /// each counting 1 reads nothing more): each is charged before it is made.
    private static func reserve(_ offsets: inout [Int], _ count: Int, budget: inout MLTBudget) throws {
        guard count >= 0 else { throw VectorTileError(.corrupt, "a geometry's offsets go backwards") }
        try budget.charge(count, "geometry offsets")
        offsets.reserveCapacity(offsets.count + count)
    }

    private static func value(_ values: [Int64], _ index: Int, _ what: String) throws -> Int64 {
        guard index < values.count else { throw VectorTileError(.corrupt, "the geometry needs \(what) \(index), but its stream holds \(values.count)") }
        guard values[index] >= 0, values[index] <= Int64(Int32.max) else { throw VectorTileError(.corrupt, "a geometry \(what) is \(values[index])") }
        return values[index]
    }

    // MARK: Features

    private mutating func build(_ kinds: [Kind], _ geometries: [Int]?, _ parts: [Int]?, _ rings: [Int]?,
                                vertices: [Int64], dictionary: [Int64]?, budget: inout MLTBudget) throws {
        let vertexCount = dictionary?.count ?? vertices.count / 2
        func at(_ offsets: [Int], _ index: Int, _ what: String) throws -> Int {
            guard index >= 0, index < offsets.count else { throw VectorTileError(.corrupt, "a feature's \(what) index \(index) is past the \(offsets.count) \(what) offsets") }
            return offsets[index]
        }
        func span(_ offsets: [Int], _ index: Int, _ what: String) throws -> Range<Int> {
            let start = try at(offsets, index, what), end = try at(offsets, index + 1, what)
            guard start <= end else { throw VectorTileError(.corrupt, "\(what) offsets go backwards") }
            return start..<end
        }
        func append(_ range: Range<Int>) throws {
            guard range.upperBound <= vertexCount else {
                throw VectorTileError(.corrupt, "a feature's vertices \(range) run past the \(vertexCount) vertices of the column")
            }
            try budget.chargeVertices(range.count)
            for index in range {
                var vertex = index
                if let dictionary {
                    vertex = Int(dictionary[index])
                    guard vertex >= 0, vertex < vertices.count / 2 else {
                        throw VectorTileError(.corrupt, "vertex offset \(dictionary[index]) is past the \(vertices.count / 2) vertices of the dictionary")
                    }
                }
                points.append(VectorTilePoint(x: Int32(truncatingIfNeeded: vertices[2 * vertex]), y: Int32(truncatingIfNeeded: vertices[2 * vertex + 1])))
            }
        }
        /// The sub-geometries of feature `index` (one unless `multi`), as indices one level down.
        func members(of index: Int, multi: Bool) throws -> Range<Int> {
            guard let geometries else {
                guard !multi else { throw VectorTileError(.corrupt, "a multi-geometry without a geometry count stream") }
                return index..<index + 1
            }
            if multi { return try span(geometries, index, "geometry") }
            let start = try at(geometries, index, "geometry")
            return start..<start + 1
        }
        func endPart(polygon: Bool, from start: Int) {
            partStarts.append(UInt32(points.count))
            partIsExterior.append(polygon && signedDoubleArea(from: start) > 0)
        }
        for (index, kind) in kinds.enumerated() {
            let firstPart = partIsExterior.count
            let pointCount = points.count
            switch kind {
            case .point, .multiPoint:
                for var vertex in try members(of: index, multi: kind == .multiPoint) {
                    if let parts { vertex = try at(parts, vertex, "part") }
                    if let rings { vertex = try at(rings, vertex, "ring") }
                    try append(vertex..<vertex + 1)
                }
                if points.count > pointCount { endPart(polygon: false, from: pointCount) }
            case .lineString, .multiLineString:
                guard let parts else { throw VectorTileError(.corrupt, "a line without a part count stream") }
                for line in try members(of: index, multi: kind == .multiLineString) {
                    let start = points.count
                    try append(try rings.map { try span($0, try at(parts, line, "part"), "ring") } ?? span(parts, line, "part"))
                    if points.count > start { endPart(polygon: false, from: start) }
                }
            case .polygon, .multiPolygon:
                guard let parts, let rings else { throw VectorTileError(.corrupt, "a polygon without part and ring count streams") }
                for polygon in try members(of: index, multi: kind == .multiPolygon) {
                    for ring in try span(parts, polygon, "part") {
                        let start = points.count
                        try append(try span(rings, ring, "ring"))
                        if points.count > start { endPart(polygon: true, from: start) }
                    }
                }
            }
            types.append(kind.isPoint ? .point : kind.isLine ? .lineString : .polygon)
            featureParts.append(firstPart..<partIsExterior.count)
        }
    }

    /// Twice the ring's signed area from `start` to the last point (positive
    /// when clockwise with y down), as ``VectorTileGeometryDecoder`` computes it.
    private func signedDoubleArea(from start: Int) -> Double {
        var sum = 0.0
        var previous = points[points.count - 1]
        for point in points[start...] {
            // In doubles: two products of ±2³¹ coordinates differ by up to 2⁶³, past Int64.
            sum += Double(previous.x) * Double(point.y) - Double(point.x) * Double(previous.y)
            previous = point
        }
        return sum
    }
}
