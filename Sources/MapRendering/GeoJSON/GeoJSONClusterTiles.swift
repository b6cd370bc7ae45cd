import Foundation

/// A GeoJSON document's points clustered into vector tiles, as MapLibre's
/// `geojson` source with `cluster: true` makes them through supercluster:
/// each tile up to the clustering zoom holds clusters (point features with
/// `cluster: true`, `cluster_id`, `point_count`, `point_count_abbreviated`
/// and the ``GeoJSONClusterOptions/properties`` aggregated, the feature id
/// being the cluster id) and the points no cluster took, which keep their
/// own properties and ids; deeper tiles hold every point. A tile holds what
/// lies within the cluster radius past its edges, wrapped across the
/// antimeridian. Only Point features are clustered; other geometries are
/// left out, as supercluster reads only points.
///
///     let tiles = try GeoJSONClusterTiles(document, cluster: GeoJSONClusterOptions(radius: 25))
public struct GeoJSONClusterTiles: VectorTileProviding {
    /// Tiles exist from zoom 0 to the tile options' maximum zoom.
    public var zoomRange: ClosedRange<Int> { 0...tileOptions.maximumZoom }
    /// How points are clustered; ``GeoJSONClusterOptions/maximumZoom`` resolved.
    public let cluster: GeoJSONClusterOptions
    /// The source's tile options (`maxzoom`, `extent`; buffer and tolerance are not used).
    public let tileOptions: GeoJSONTileOptions
    private let index: GeoJSONClusterIndex
    private let features: [GeoJSONFeature]
    /// Each point's exact position by feature index (a tile draws it there,
    /// not at the index's rounded position); 0 for features that are not points.
    private let positions: [(x: Double, y: Double)]

    /// The clusters of `document`'s points.
    /// - Throws: ``GeoJSONError`` (`limitExceeded`) when the document has more
    ///   points than `limits.maximumClusterPointCount`, before any is indexed.
    public init(_ document: GeoJSON, cluster: GeoJSONClusterOptions = GeoJSONClusterOptions(),
                tileOptions: GeoJSONTileOptions = GeoJSONTileOptions(), limits: GeoJSONLimits = .default) throws {
        var tileOptions = tileOptions
        tileOptions.maximumZoom = min(max(tileOptions.maximumZoom, 0), 24)
        tileOptions.extent = min(max(tileOptions.extent, 1), 1 << 16)
        var cluster = cluster
        cluster.maximumZoom = min(max(cluster.maximumZoom ?? tileOptions.maximumZoom - 1, 0), 24)
        cluster.minimumPoints = max(cluster.minimumPoints, 2)
        cluster.radius = cluster.radius.isFinite ? min(max(cluster.radius, 0), 512) : 50
        self.cluster = cluster
        self.tileOptions = tileOptions
        var points: [(x: Double, y: Double, feature: Int)] = []
        var positions = [(x: Double, y: Double)](repeating: (0, 0), count: document.features.count)
        for (index, feature) in document.features.enumerated() {
            guard case .point(let coordinate)? = feature.geometry else { continue }
            guard points.count < limits.maximumClusterPointCount else {
                throw GeoJSONError(.limitExceeded, "the clustered source has more than \(limits.maximumClusterPointCount) points, "
                                   + "the limit (GeoJSONLimits.maximumClusterPointCount)")
            }
            let x = coordinate.longitude / 360 + 0.5
            let sine = sin(coordinate.latitude * .pi / 180)
            let y = min(max(0.5 - 0.25 * log((1 + sine) / (1 - sine)) / .pi, 0), 1)
            guard x.isFinite, y.isFinite else { continue }
            points.append((x, y, index))
            positions[index] = (x, y)
        }
        features = document.features
        self.positions = positions
        let features = document.features
        index = GeoJSONClusterIndex(points: points, featureCount: features.count, properties: { features[$0].properties },
                                    options: cluster, maximumZoom: cluster.maximumZoom ?? 0)
    }

    /// No metadata: the one layer is ``GeoJSONTiles/layerName``.
    public func metadata() throws -> [String: Any] { [:] }

    /// The tile at `tile`: nil outside the zoom range or the world, or when nothing lies in it.
    public func vectorTile(at tile: TileCoordinate, cancellation: RenderCancellation) throws -> VectorTile? {
        guard zoomRange.contains(tile.z), tile.x >= 0, tile.y >= 0, tile.x < 1 << tile.z, tile.y < 1 << tile.z else { return nil }
        let level = index.level(atZoom: tile.z)
        let scale = Double(1 << tile.z)
        let p = cluster.radius / 512
        let top = Float((Double(tile.y) - p) / scale), bottom = Float((Double(tile.y) + 1 + p) / scale)
        var builder = GeoJSONTileLayerBuilder(extent: tileOptions.extent, scale: scale, tileX: Double(tile.x), tileY: Double(tile.y), tolerance: 0)
        func add(_ found: [Int32], shift: Double) {
            for i in found { builder.add(feature(level.items[Int(i)], shift: shift)) }
        }
        add(level.tree.range(minX: Float((Double(tile.x) - p) / scale), minY: top, maxX: Float((Double(tile.x) + 1 + p) / scale), maxY: bottom), shift: 0)
        // What lies within the radius across the antimeridian, moved a world over.
        if tile.x == 0 { add(level.tree.range(minX: Float(1 - p / scale), minY: top, maxX: 1, maxY: bottom), shift: -1) }
        if tile.x == (1 << tile.z) - 1 { add(level.tree.range(minX: 0, minY: top, maxX: Float(p / scale), maxY: bottom), shift: 1) }
        guard let layer = builder.layer(named: GeoJSONTiles.layerName) else { return nil }
        return VectorTile(layers: [layer], skippedCount: 0)
    }

    /// The tile feature of `item`: a cluster with its properties, or the point's own feature.
    private func feature(_ item: GeoJSONClusterIndex.Item, shift: Double) -> GeoJSONProjectedFeature {
        var x = item.x, y = item.y
        let properties: [String: VectorTileValue]
        let id: UInt64?
        if item.count > 1 {
            var values: [String: VectorTileValue] = [:]
            if item.propertyIndex >= 0 {
                for (key, value) in index.clusterProperties[Int(item.propertyIndex)] {
                    if let tileValue = Self.tileValue(value) { values[key] = tileValue }
                }
            }
            values["cluster"] = .bool(true)
            values["cluster_id"] = .int(Int64(item.id))
            values["point_count"] = .int(Int64(item.count))
            values["point_count_abbreviated"] = Self.abbreviated(Int(item.count))
            properties = values
            id = UInt64(item.id)
        } else {
            let feature = features[item.id]
            properties = feature.properties
            id = feature.id?.tileID
            (x, y) = positions[item.id]
        }
        let vertex = GeoJSONProjectedFeature.Vertex(x: x + shift, y: y, importance: 1)
        return GeoJSONProjectedFeature(shape: .points, groups: [[GeoJSONProjectedFeature.Ring(vertices: [vertex], size: 0)]], id: id, properties: properties)
    }

    /// supercluster's `point_count_abbreviated`: the count itself under 1000,
    /// then thousands to one decimal ("1.2k") under 10 000, then whole ("15k").
    static func abbreviated(_ count: Int) -> VectorTileValue {
        if count >= 10_000 { return .string("\(Int((Double(count) / 1000).rounded(.toNearestOrAwayFromZero)))k") }
        if count >= 1000 { return .string("\(StyleNumberFormat.string((Double(count) / 100).rounded(.toNearestOrAwayFromZero) / 10))k") }
        return .int(Int64(count))
    }

    /// An aggregated value as a tile stores it; nil (left out) for null.
    private static func tileValue(_ value: StyleValue) -> VectorTileValue? {
        switch value {
        case .null: return nil
        case .bool(let bool): return .bool(bool)
        case .number(let number): return .double(number)
        case .string(let string): return .string(string)
        case .array, .color: return .string(StyleExpression.string(value))
        }
    }
}
