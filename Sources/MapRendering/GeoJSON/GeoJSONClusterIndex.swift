import Foundation

/// Points clustered zoom by zoom as supercluster clusters them: from the
/// deepest clustering zoom up to 0, each point or cluster not yet taken
/// gathers every other within the radius (in the unit square, the radius in
/// pixels over 512 · 2^zoom) into a cluster at their count-weighted centre,
/// when they make at least the minimum number of points; what is left stays
/// as it was. Each zoom's points and clusters are kept in a KD-tree
/// (``GeoJSONPointTree``) for the next zoom's neighbour search and for tiles.
///
/// Cluster ids are supercluster's: `(index << 5) + (zoom + 1) + featureCount`,
/// where `index` is the place of the point that started the cluster among
/// the items of the zoom below, so ids never collide with feature indices.
struct GeoJSONClusterIndex: Sendable {
    /// A point or cluster at one zoom.
    struct Item: Sendable {
        var x: Double
        var y: Double
        /// A point: the index of its feature. A cluster: its id.
        var id: Int
        /// The last zoom the item was visited at (`Int32.max`: not yet).
        var zoom: Int32
        /// How many points it holds (1 for a point).
        var count: Int32
        /// A cluster's place in ``clusterProperties``, -1 without them.
        var propertyIndex: Int32
    }

    /// One zoom's items and their tree.
    struct Level: Sendable {
        var items: [Item]
        var tree: GeoJSONPointTree

        init(_ items: [Item]) {
            self.items = items
            tree = GeoJSONPointTree(xs: items.map { Float($0.x) }, ys: items.map { Float($0.y) })
        }
    }

    /// Levels 0…maximumZoom + 1; the last holds the points unclustered.
    private(set) var levels: [Level] = []
    /// The aggregated properties of clusters that have any.
    private(set) var clusterProperties: [[String: StyleValue]] = []
    let maximumZoom: Int

    /// Clusters `points` (the unit-square positions of features, with their
    /// index among `featureCount` features and their properties).
    init(points: [(x: Double, y: Double, feature: Int)], featureCount: Int, properties: (Int) -> [String: VectorTileValue],
         options: GeoJSONClusterOptions, maximumZoom: Int) {
        self.maximumZoom = maximumZoom
        var items = points.map { point in
            // Positions as the index holds them (Float), as supercluster rounds them with fround.
            Item(x: Double(Float(point.x)), y: Double(Float(point.y)), id: point.feature, zoom: .max, count: 1, propertyIndex: -1)
        }
        var levels = [Level](repeating: Level([]), count: maximumZoom + 2)
        levels[maximumZoom + 1] = Level(items)
        for zoom in stride(from: maximumZoom, through: 0, by: -1) {
            items = cluster(&levels[zoom + 1], zoom: zoom, featureCount: featureCount, properties: properties, options: options)
            levels[zoom] = Level(items)
        }
        self.levels = levels
    }

    /// The items of `level` clustered at `zoom`: the next level's items.
    private mutating func cluster(_ level: inout Level, zoom wholeZoom: Int, featureCount: Int, properties: (Int) -> [String: VectorTileValue],
                                  options: GeoJSONClusterOptions) -> [Item] {
        let radius = Float(options.radius / (512 * pow(2, Double(wholeZoom))))
        let zoom = Int32(wholeZoom)
        var next: [Item] = []
        for i in level.items.indices {
            guard level.items[i].zoom > zoom else { continue }
            level.items[i].zoom = zoom
            let origin = level.items[i]
            let neighbours = level.tree.within(Float(origin.x), Float(origin.y), radius: radius)
            var count = origin.count
            for n in neighbours where level.items[Int(n)].zoom > zoom { count += level.items[Int(n)].count }
            if count > origin.count, count >= options.minimumPoints {
                let id = (i << 5) + (wholeZoom + 1) + featureCount
                var wx = origin.x * Double(origin.count), wy = origin.y * Double(origin.count)
                var accumulated: [String: StyleValue]?
                for n in neighbours where level.items[Int(n)].zoom > zoom {
                    level.items[Int(n)].zoom = zoom
                    let neighbour = level.items[Int(n)]
                    wx += neighbour.x * Double(neighbour.count)
                    wy += neighbour.y * Double(neighbour.count)
                    if !options.properties.isEmpty {
                        var sum = accumulated ?? mapped(origin, properties, options)
                        Self.reduce(&sum, mapped(neighbour, properties, options), options)
                        accumulated = sum
                    }
                }
                var propertyIndex: Int32 = -1
                if let accumulated {
                    propertyIndex = Int32(clusterProperties.count)
                    clusterProperties.append(accumulated)
                }
                next.append(Item(x: wx / Double(count), y: wy / Double(count), id: id, zoom: .max, count: count, propertyIndex: propertyIndex))
            } else {
                next.append(level.items[i])
                guard count > 1 else { continue }
                // Too few to cluster: the neighbours stay as they are, visited.
                for n in neighbours where level.items[Int(n)].zoom > zoom {
                    level.items[Int(n)].zoom = zoom
                    next.append(level.items[Int(n)])
                }
            }
        }
        return next
    }

    /// An item's properties as reduce reads them: a cluster's aggregate, or
    /// each cluster property's map expression over the point's own properties.
    private func mapped(_ item: Item, _ properties: (Int) -> [String: VectorTileValue], _ options: GeoJSONClusterOptions) -> [String: StyleValue] {
        if item.count > 1 { return item.propertyIndex >= 0 ? clusterProperties[Int(item.propertyIndex)] : [:] }
        let feature = GeoJSONClusterPropertyFeature(values: properties(item.id).mapValues(\.styleValue))
        var result: [String: StyleValue] = [:]
        for property in options.properties {
            result[property.name] = (try? property.map.evaluate(zoom: 0, feature: feature)) ?? .null
        }
        return result
    }

    /// Folds `other` into `accumulated`, each property by its reduce expression.
    private static func reduce(_ accumulated: inout [String: StyleValue], _ other: [String: StyleValue], _ options: GeoJSONClusterOptions) {
        var feature = GeoJSONClusterPropertyFeature(values: other)
        for property in options.properties {
            feature.values[StyleExpression.accumulatedKey] = accumulated[property.name] ?? .null
            accumulated[property.name] = (try? property.reduce.evaluate(zoom: 0, feature: feature)) ?? .null
        }
    }

    /// The level tiles at `zoom` draw: zooms past the clustering ones show the points.
    func level(atZoom zoom: Int) -> Level {
        levels[max(0, min(zoom, maximumZoom + 1))]
    }
}

/// The properties a cluster property's expressions read: a point's own, or
/// a cluster's aggregate with the value accumulated so far.
private struct GeoJSONClusterPropertyFeature: StyleFeature {
    var values: [String: StyleValue]
    var styleGeometryType: StyleGeometryType { .point }
    var featureID: UInt64? { nil }
    func styleValue(forKey key: String) -> StyleValue? { values[key] }
}
