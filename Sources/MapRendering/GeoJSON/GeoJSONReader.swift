/// Walks a parsed JSON document as GeoJSON, counting features and positions
/// against the limits as it goes, and naming the path of anything wrong.
struct GeoJSONReader {
    let limits: GeoJSONLimits
    let promoteId: String?
    private var featureCount = 0
    private var vertexCount = 0

    init(limits: GeoJSONLimits, promoteId: String?) {
        self.limits = limits
        self.promoteId = promoteId
    }

    static let geometryTypes: Set<String> = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"]

    mutating func read(_ json: StyleJSON) throws -> [GeoJSONFeature] {
        let members = try object(json, "the document")
        let type = try typeName(members, "the document")
        switch type {
        case "FeatureCollection":
            guard case .array(let list)? = members["features"] else {
                throw invalid("the FeatureCollection", "needs a 'features' array")
            }
            var features: [GeoJSONFeature] = []
            features.reserveCapacity(min(list.count, limits.maximumFeatureCount))
            for (index, element) in list.enumerated() {
                features.append(try feature(element, "features[\(index)]"))
            }
            return features
        case "Feature":
            return [try feature(json, "the Feature")]
        default:
            try countFeature("the document")
            return [GeoJSONFeature(geometry: try geometry(json, "the document"))]
        }
    }

    private mutating func feature(_ json: StyleJSON, _ path: String) throws -> GeoJSONFeature {
        let members = try object(json, path)
        guard try typeName(members, path) == "Feature" else { throw invalid(path, "is a \(members["type"]!.summary), not a 'Feature'") }
        try countFeature(path)
        var properties: [String: VectorTileValue] = [:]
        switch members["properties"] {
        case nil, .null?: break
        case .object(let values)?:
            for (key, value) in values {
                switch value {
                case .string(let text): properties[key] = .string(text)
                case .number(let number): properties[key] = .double(number)
                case .bool(let flag): properties[key] = .bool(flag)
                case .null, .array, .object: continue
                }
            }
        case let other?: throw invalid("\(path).properties", "is an object or null, not \(other.summary)")
        }
        var id: GeoJSONFeature.ID?
        if let promoteId {
            switch properties[promoteId] {
            case .string(let text)?: id = .string(text)
            case .double(let number)?: id = .number(number)
            default: id = nil
            }
        } else {
            switch members["id"] {
            case nil, .null?: break
            case .number(let number)?: id = .number(number)
            case .string(let text)?: id = .string(text)
            case let other?: throw invalid("\(path).id", "is a number or a string, not \(other.summary)")
            }
        }
        let geometry: GeoJSONGeometry?
        switch members["geometry"] {
        case nil: throw invalid(path, "needs a 'geometry' (an object, or null)")
        case .null?: geometry = nil
        case let value?: geometry = try self.geometry(value, "\(path).geometry")
        }
        return GeoJSONFeature(id: id, geometry: geometry, properties: properties)
    }

    private mutating func geometry(_ json: StyleJSON, _ path: String) throws -> GeoJSONGeometry {
        let members = try object(json, path)
        let type = try typeName(members, path)
        guard Self.geometryTypes.contains(type) else {
            throw invalid("\(path).type", "'\(type)' is not a GeoJSON geometry type (\(Self.geometryTypes.sorted().joined(separator: ", ")))")
        }
        if type == "GeometryCollection" {
            guard case .array(let list)? = members["geometries"] else { throw invalid(path, "a GeometryCollection needs a 'geometries' array") }
            var members: [GeoJSONGeometry] = []
            for (index, element) in list.enumerated() { members.append(try geometry(element, "\(path).geometries[\(index)]")) }
            return .geometryCollection(members)
        }
        guard let coordinates = members["coordinates"] else { throw invalid(path, "a \(type) needs 'coordinates'") }
        let at = "\(path).coordinates"
        switch type {
        case "Point": return .point(try position(coordinates, at))
        case "MultiPoint": return .multiPoint(try positions(coordinates, at))
        case "LineString": return .lineString(try positions(coordinates, at))
        case "MultiLineString": return .multiLineString(try Self.list(coordinates, at) { try positions($0, $1) })
        case "Polygon": return .polygon(try Self.list(coordinates, at) { try ring($0, $1) })
        default: return .multiPolygon(try Self.list(coordinates, at) { polygon, polygonPath in try Self.list(polygon, polygonPath) { try ring($0, $1) } })
        }
    }

    private static func list<T>(_ json: StyleJSON, _ path: String, _ element: (StyleJSON, String) throws -> T) throws -> [T] {
        guard case .array(let elements) = json else { throw GeoJSONError(.invalid, "\(path): " + "is an array, not \(json.summary)") }
        return try elements.enumerated().map { try element($1, "\(path)[\($0)]") }
    }

    private mutating func positions(_ json: StyleJSON, _ path: String) throws -> [GeoCoordinate] {
        guard case .array(let elements) = json else { throw invalid(path, "is an array of positions, not \(json.summary)") }
        var result: [GeoCoordinate] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() { result.append(try position(element, "\(path)[\(index)]")) }
        return result
    }

    /// A polygon ring: closed when the document leaves it open, as MapLibre draws it.
    private mutating func ring(_ json: StyleJSON, _ path: String) throws -> [GeoCoordinate] {
        var points = try positions(json, path)
        if let first = points.first, points.count > 1, first != points.last { points.append(first) }
        return points
    }

    private mutating func position(_ json: StyleJSON, _ path: String) throws -> GeoCoordinate {
        vertexCount += 1
        guard vertexCount <= limits.maximumVertexCount else {
            throw GeoJSONError(.limitExceeded, "\(path): the GeoJSON has over \(limits.maximumVertexCount) positions, the limit")
        }
        guard case .array(let numbers) = json, numbers.count >= 2,
              case .number(let longitude) = numbers[0], case .number(let latitude) = numbers[1],
              numbers.dropFirst(2).allSatisfy({ if case .number = $0 { return true } else { return false } }) else {
            throw invalid(path, "a position is an array of two or three numbers [longitude, latitude], not \(json.summary)")
        }
        guard longitude.isFinite, latitude.isFinite else { throw invalid(path, "a coordinate is not finite") }
        return GeoCoordinate(latitude: latitude, longitude: longitude)
    }

    private mutating func countFeature(_ path: String) throws {
        featureCount += 1
        guard featureCount <= limits.maximumFeatureCount else {
            throw GeoJSONError(.limitExceeded, "\(path): the GeoJSON has over \(limits.maximumFeatureCount) features, the limit")
        }
    }

    private func object(_ json: StyleJSON, _ path: String) throws -> [String: StyleJSON] {
        guard case .object(let members) = json else { throw invalid(path, "is an object with a 'type', not \(json.summary)") }
        return members
    }

    private func typeName(_ members: [String: StyleJSON], _ path: String) throws -> String {
        guard case .string(let type)? = members["type"] else {
            throw invalid(path, "needs a string 'type' (FeatureCollection, Feature or a geometry type)")
        }
        guard type == "FeatureCollection" || type == "Feature" || Self.geometryTypes.contains(type) else {
            throw invalid("\(path).type", "'\(type)' is not a GeoJSON type")
        }
        return type
    }

    private func invalid(_ path: String, _ detail: String) -> GeoJSONError {
        GeoJSONError(.invalid, "\(path): \(detail)")
    }
}
