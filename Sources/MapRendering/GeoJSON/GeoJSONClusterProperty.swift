/// One of a clustered source's `clusterProperties`: a value `map` reads from
/// each point's properties and `reduce` folds, cluster by cluster, into the
/// cluster's property of the same ``name``, as MapLibre hands supercluster
/// its `map` and `reduce` functions. Made by the style reader from
/// `"name": [reduce, map]`, where `reduce` is an operator (`"+"`, `"max"`…,
/// applied as `[operator, ["accumulated"], ["get", name]]`) or an expression
/// reading `["accumulated"]` and `["get", name]`.
public struct GeoJSONClusterProperty: Equatable, Sendable {
    /// The cluster property's name.
    public let name: String
    /// The `[reduce, map]` pair as the style wrote it (what equality compares).
    let json: StyleJSON
    /// Evaluated on a point's own properties, at zoom 0.
    let map: StyleExpression
    /// Evaluated with ``StyleExpression/accumulatedKey`` holding the value so
    /// far and ``name`` holding the value of the cluster or point being added.
    let reduce: StyleExpression

    init(name: String, json: StyleJSON, map: StyleExpression, reduce: StyleExpression) {
        self.name = name
        self.json = json
        self.map = map
        self.reduce = reduce
    }

    /// Compares what the style wrote.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.json == rhs.json
    }
}
