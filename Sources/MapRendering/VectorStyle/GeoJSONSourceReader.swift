/// Reads a style's `geojson` source: `data` (an inline document or a URL),
/// `promoteId`, `maxzoom`, `buffer`, `tolerance`, `lineMetrics`, `cluster` and its options;
/// the options not drawn yet (`filter`…) are warned about, not errors.
struct GeoJSONSourceReader {
    let name: String
    let members: [String: StyleJSON]
    private(set) var warnings: [String] = []

    init(name: String, members: [String: StyleJSON]) {
        self.name = name
        self.members = members
    }

    static let readKeys: Set<String> = ["type", "data", "promoteId", "maxzoom", "buffer", "tolerance", "lineMetrics", "attribution",
                                          "cluster", "clusterRadius", "clusterMaxZoom", "clusterMinPoints", "clusterProperties"]

    mutating func read() throws -> GeoJSONStyleSource {
        for key in members.keys.sorted() where !Self.readKeys.contains(key) {
            warnings.append("source '\(name)': geojson option '\(key)' is not supported")
        }
        var promoteId: String?
        switch members["promoteId"] {
        case nil: break
        case .string(let key)?: promoteId = key
        case let other?:
            // MapLibre also takes an object of ids per source layer; a GeoJSON source has one layer.
            guard case .object(let perLayer) = other, case .string(let key)? = perLayer[GeoJSONTiles.layerName] ?? perLayer.values.first else {
                throw invalid("'promoteId' is a property name, not \(other.summary)")
            }
            promoteId = key
        }
        var options = GeoJSONTileOptions()
        options.maximumZoom = Int(try number("maxzoom", in: 0...24, whole: true) ?? 18)
        options.buffer = try number("buffer", in: 0...512, whole: false) ?? 128
        options.tolerance = try number("tolerance", in: 0...1_000_000, whole: false) ?? 0.375
        switch members["lineMetrics"] {
        case nil: break
        case .bool(let on)?: options.lineMetrics = on
        case let other?: throw invalid("'lineMetrics' is true or false, not \(other.summary)")
        }
        let data: GeoJSONStyleSource.Data
        switch members["data"] {
        case nil: throw invalid("a geojson source needs 'data' (a GeoJSON object or a URL)")
        case .string(let url)?: data = .url(url)
        case let json?:
            do {
                data = .inline(try GeoJSON(json: json, limits: .default, promoteId: promoteId))
            } catch let error as GeoJSONError {
                throw VectorStyleError(error.kind == .limitExceeded ? .limitExceeded : .invalidValue, property: "sources",
                                       detail: "source '\(name)': 'data': \(error.message)")
            }
        }
        var source = GeoJSONStyleSource(data: data, promoteId: promoteId, options: options)
        source.cluster = try clusterOptions()
        return source
    }

    /// `cluster` and its options, nil when `cluster` is not true.
    private func clusterOptions() throws -> GeoJSONClusterOptions? {
        switch members["cluster"] {
        case nil, .bool(false)?: return nil
        case .bool(true)?: break
        case let other?: throw invalid("'cluster' is true or false, not \(other.summary)")
        }
        var cluster = GeoJSONClusterOptions()
        cluster.radius = try number("clusterRadius", in: 0...512, whole: false) ?? 50
        cluster.maximumZoom = try number("clusterMaxZoom", in: 0...24, whole: false).map { Int($0) }
        cluster.minimumPoints = Int(try number("clusterMinPoints", in: 0...1_000_000_000, whole: false) ?? 2)
        switch members["clusterProperties"] {
        case nil: break
        case .object(let properties)?:
            let compiler = StyleExpressionCompiler(maximumDepth: StyleLimits.default.maximumExpressionDepth)
            for (name, value) in properties.sorted(by: { $0.key < $1.key }) {
                guard case .array(let pair) = value, pair.count == 2 else {
                    throw invalid("'clusterProperties.\(name)' is [reduce, map], not \(value.summary)")
                }
                // An operator name reduces as [operator, ["accumulated"], ["get", name]], as MapLibre builds it.
                let reduce: StyleJSON = if case .string(let op) = pair[0] {
                    .array([.string(op), .array([.string("accumulated")]), .array([.string("get"), .string(name)])])
                } else {
                    pair[0]
                }
                do {
                    cluster.properties.append(GeoJSONClusterProperty(name: name, json: value, map: try compiler.compile(pair[1], expecting: .any),
                                                                     reduce: try compiler.compile(reduce, expecting: .any)))
                } catch StyleCompileError.unsupported(let what) {
                    throw invalid("'clusterProperties.\(name)': \(what) is not supported")
                } catch StyleCompileError.invalid(let detail) {
                    throw invalid("'clusterProperties.\(name)': \(detail)")
                } catch StyleCompileError.tooDeep(let limit) {
                    throw invalid("'clusterProperties.\(name)' nests deeper than \(limit) levels")
                }
            }
        case let other?:
            throw invalid("'clusterProperties' is an object of [reduce, map] pairs, not \(other.summary)")
        }
        return cluster
    }

    private func number(_ key: String, in range: ClosedRange<Double>, whole: Bool) throws -> Double? {
        guard let value = members[key] else { return nil }
        guard case .number(let n) = value, range.contains(n), !whole || n == n.rounded() else {
            throw invalid("'\(key)' is a \(whole ? "whole " : "")number \(StyleNumberFormat.string(range.lowerBound))–\(StyleNumberFormat.string(range.upperBound)), not \(value.summary)")
        }
        return n
    }

    private func invalid(_ detail: String) -> VectorStyleError {
        VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)': \(detail)")
    }
}
