import Foundation

/// Turns one tile's clipped features into the flat arrays of a
/// ``VectorTileLayer``: vertices kept at the tile's tolerance, rounded to
/// the tile's extent; rings stored and wound as MVT stores them (the first
/// point not repeated, exterior clockwise on screen, holes the other way);
/// lines shorter and rings smaller than the tolerance left out, as
/// geojson-vt leaves them.
struct GeoJSONTileLayerBuilder {
    let extent: Int
    let scale: Double
    let tileX: Double
    let tileY: Double
    /// In units of the world (0…1); 0 keeps every vertex.
    let tolerance: Double
    /// Whether each line piece is a feature of its own with where it lies on
    /// its whole line (``GeoJSONTiles/clipStartKey``, ``GeoJSONTiles/clipEndKey``).
    var lineMetrics = false

    private var keys: [String] = []
    private var keyIndex: [String: UInt32] = [:]
    private var values: [VectorTileValue] = []
    private var records: [VectorTileLayer.FeatureRecord] = []
    private var tags: [UInt32] = []
    private var points: [VectorTilePoint] = []
    private var partStarts: [UInt32] = [0]
    private var partIsExterior: [Bool] = []

    init(extent: Int, scale: Double, tileX: Double, tileY: Double, tolerance: Double) {
        self.extent = extent
        self.scale = scale
        self.tileX = tileX
        self.tileY = tileY
        self.tolerance = tolerance
    }

    mutating func add(_ feature: GeoJSONProjectedFeature) {
        let squaredTolerance = tolerance * tolerance
        if lineMetrics, feature.shape == .lines {
            // geojson-vt makes each line of the feature and each piece of it a feature of its own.
            for ring in feature.groups.flatMap({ $0 }) where tolerance == 0 || ring.size >= tolerance {
                let partStart = partStarts.count - 1
                appendKept(ring, squaredTolerance)
                endPart(exterior: false)
                let metrics: [(String, VectorTileValue)] = ring.size > 0
                    ? [(GeoJSONTiles.clipStartKey, .double(ring.start / ring.size)), (GeoJSONTiles.clipEndKey, .double(ring.end / ring.size))]
                    : []
                appendRecord(feature, partStart: partStart, extra: metrics)
            }
            return
        }
        let partStart = partStarts.count - 1
        switch feature.shape {
        case .points:
            for ring in feature.groups.flatMap({ $0 }) { points += ring.vertices.map(point) }
            if points.count > Int(partStarts[partStarts.count - 1]) { endPart(exterior: false) }
        case .lines:
            for ring in feature.groups.flatMap({ $0 }) where tolerance == 0 || ring.size >= tolerance {
                appendKept(ring, squaredTolerance)
                endPart(exterior: false)
            }
        case .polygons:
            for group in feature.groups {
                for (index, ring) in group.enumerated() where tolerance == 0 || ring.size >= squaredTolerance {
                    let start = points.count
                    appendKept(ring, squaredTolerance)
                    // Stored as MVT stores rings: without repeating the first point.
                    if points.count - start > 1, points[start] == points[points.count - 1] { points.removeLast() }
                    wind(from: start, exterior: index == 0)
                    endPart(exterior: index == 0)
                }
            }
        }
        appendRecord(feature, partStart: partStart, extra: [])
    }

    /// The record of `feature` whose parts begin at `partStart` (none made: no record), its
    /// properties and `extra` ones after them.
    private mutating func appendRecord(_ feature: GeoJSONProjectedFeature, partStart: Int, extra: [(String, VectorTileValue)]) {
        let partCount = partStarts.count - 1 - partStart
        guard partCount > 0 else { return }
        let type: VectorTileGeometryType = switch feature.shape {
        case .points: .point
        case .lines: .lineString
        case .polygons: .polygon
        }
        let tagStart = tags.count
        for (key, value) in feature.properties.sorted(by: { $0.key < $1.key }) + extra {
            let index: UInt32
            if let known = keyIndex[key] {
                index = known
            } else {
                index = UInt32(keys.count)
                keys.append(key)
                keyIndex[key] = index
            }
            tags.append(index)
            tags.append(UInt32(values.count))
            values.append(value)
        }
        records.append(VectorTileLayer.FeatureRecord(id: feature.id ?? 0, hasID: feature.id != nil, type: type,
                                                     tagStart: UInt32(tagStart), tagCount: UInt32(tags.count - tagStart),
                                                     partStart: UInt32(partStart), partCount: UInt32(partCount)))
    }

    func layer(named name: String) -> VectorTileLayer? {
        guard !records.isEmpty else { return nil }
        return VectorTileLayer(name: name, version: 2, extent: UInt32(extent), keys: keys, values: values, records: records,
                               tags: tags, points: points, partStarts: partStarts, partIsExterior: partIsExterior)
    }

    private func point(_ vertex: GeoJSONProjectedFeature.Vertex) -> VectorTilePoint {
        let e = Double(extent)
        return VectorTilePoint(x: Int32((e * (vertex.x * scale - tileX)).rounded()), y: Int32((e * (vertex.y * scale - tileY)).rounded()))
    }

    private mutating func appendKept(_ ring: GeoJSONProjectedFeature.Ring, _ squaredTolerance: Double) {
        for vertex in ring.vertices where tolerance == 0 || vertex.importance > squaredTolerance { points.append(point(vertex)) }
    }

    private mutating func endPart(exterior: Bool) {
        partStarts.append(UInt32(points.count))
        partIsExterior.append(exterior)
    }

    /// Reverses the ring from `start` when its winding is not its role's:
    /// positive area (y down) for an exterior ring, negative for a hole. The
    /// first point stays first, as geojson-vt reverses the closed ring (a
    /// circle or heatmap layer weighs that point twice).
    private mutating func wind(from start: Int, exterior: Bool) {
        var area = 0.0
        var previous = points.count - 1
        for i in start..<points.count {
            area += Double(points[previous].x) * Double(points[i].y) - Double(points[i].x) * Double(points[previous].y)
            previous = i
        }
        if (area < 0) == exterior, start + 1 < points.count { points[(start + 1)...].reverse() }
    }
}
