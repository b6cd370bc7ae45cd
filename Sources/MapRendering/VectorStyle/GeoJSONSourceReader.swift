/// Reads a style's `geojson` source: `data` (an inline document or a URL),
/// `promoteId`, `maxzoom`, `buffer`, `tolerance`, `lineMetrics`; the options not drawn yet
/// (`cluster`, `filter`…) are warned about, not errors.
struct GeoJSONSourceReader {
    let name: String
    let members: [String: StyleJSON]
    private(set) var warnings: [String] = []

    init(name: String, members: [String: StyleJSON]) {
        self.name = name
        self.members = members
    }

    static let readKeys: Set<String> = ["type", "data", "promoteId", "maxzoom", "buffer", "tolerance", "lineMetrics", "attribution"]

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
        return GeoJSONStyleSource(data: data, promoteId: promoteId, options: options)
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
