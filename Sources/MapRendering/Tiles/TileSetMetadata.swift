import Foundation

/// What a folder or server of `{z}/{x}/{y}` vector tiles says about itself,
/// read from a TileJSON document or an MBTiles-style `metadata.json` (as
/// tilemaker and mb-util write beside their tiles, where `minzoom` and
/// `maxzoom` are strings and `vector_layers` sits inside a `json` string).
///
/// The document is a stranger's: its size is checked before it is parsed,
/// zooms outside 0–30 or the wrong way round and fields of the wrong type are
/// errors naming the field, and only the fields below are kept.
public struct TileSetMetadata: Sendable, Equatable {
    /// The lowest zoom with tiles, when stated.
    public var minimumZoom: Int?
    /// The highest zoom with tiles, when stated.
    public var maximumZoom: Int?
    /// The credit, as written (may hold HTML).
    public var attribution: String?
    /// The ids of the layers the tiles hold (`vector_layers`), in order.
    public var layerIDs: [String]
    /// The area with data (`bounds`: `[west, south, east, north]`, or MBTiles'
    /// `"west,south,east,north"`), when stated; a malformed box is ignored.
    public var bounds: GeoBounds?
    /// TileJSON's `tiles`: the URL templates of the tiles, as written (a
    /// relative one is relative to the document's URL).
    public var tiles: [String] = []
    /// TileJSON's `scheme`, when stated.
    public var scheme: TileScheme?

    /// Metadata stating nothing.
    public init(minimumZoom: Int? = nil, maximumZoom: Int? = nil, attribution: String? = nil, layerIDs: [String] = []) {
        self.minimumZoom = minimumZoom
        self.maximumZoom = maximumZoom
        self.attribution = attribution
        self.layerIDs = layerIDs
    }

    /// Reads a TileJSON or `metadata.json` document of at most `limit` bytes;
    /// `what` names it in errors. Throws ``VectorTileError`` (`corrupt`,
    /// `limitExceeded`).
    public init(json data: Data, limit: Int, what: String) throws {
        guard data.count <= limit else {
            throw VectorTileError(.limitExceeded, "\(what) is \(data.count) bytes, over the limit of \(limit)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw VectorTileError(.corrupt, "\(what) is not a JSON object")
        }
        self.init()
        minimumZoom = try Self.zoom(object["minzoom"], field: "minzoom", what: what)
        maximumZoom = try Self.zoom(object["maxzoom"], field: "maxzoom", what: what)
        if let minimumZoom, let maximumZoom, minimumZoom > maximumZoom {
            throw VectorTileError(.corrupt, "\(what): minzoom \(minimumZoom) is above maxzoom \(maximumZoom)")
        }
        switch object["attribution"] {
        case nil, is NSNull: break
        case let text as String: attribution = text
        default: throw VectorTileError(.corrupt, "\(what): attribution is not a string")
        }
        bounds = Self.bounds(object["bounds"])
        if let list = object["tiles"] {
            guard let templates = list as? [Any], templates.allSatisfy({ $0 is String }) else {
                throw VectorTileError(.corrupt, "\(what): tiles is not a list of URL templates")
            }
            tiles = templates.compactMap { $0 as? String }
        }
        switch object["scheme"] {
        case nil, is NSNull: break
        case let text as String:
            guard let known = TileScheme(rawValue: text) else { throw VectorTileError(.corrupt, "\(what): scheme is \"xyz\" or \"tms\", not \"\(text.prefix(40))\"") }
            scheme = known
        default: throw VectorTileError(.corrupt, "\(what): scheme is not a string")
        }
        var layers = object["vector_layers"]
        // MBTiles metadata: the TileJSON part is a JSON string under "json".
        if layers == nil, let inner = object["json"] as? String {
            let nested = try? JSONSerialization.jsonObject(with: Data(inner.utf8)) as? [String: Any]
            guard let nested else { throw VectorTileError(.corrupt, "\(what): its json field is not a JSON object") }
            layers = nested["vector_layers"]
        }
        if let layers {
            guard let list = layers as? [Any] else { throw VectorTileError(.corrupt, "\(what): vector_layers is not a list") }
            layerIDs = try list.map { entry in
                guard let id = (entry as? [String: Any])?["id"] as? String else {
                    throw VectorTileError(.corrupt, "\(what): a vector_layers entry has no string id")
                }
                return id
            }
        }
    }

    /// The metadata as a PMTiles archive's metadata object would give it
    /// (`attribution`, `vector_layers` with their ids).
    public var object: [String: Any] {
        var object: [String: Any] = ["vector_layers": layerIDs.map { ["id": $0] }]
        if let attribution { object["attribution"] = attribution }
        return object
    }

    /// `[west, south, east, north]` or `"west,south,east,north"`, when a box of the world.
    private static func bounds(_ value: Any?) -> GeoBounds? {
        let numbers: [Double]
        switch value {
        case let list as [Any]: numbers = list.compactMap { ($0 as? NSNumber)?.doubleValue }
        case let text as String: numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        default: return nil
        }
        guard numbers.count == 4 else { return nil }
        return GeoBounds.checked(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
    }

    /// A zoom given as a number or a string of digits, in 0–30.
    private static func zoom(_ value: Any?, field: String, what: String) throws -> Int? {
        let zoom: Int?
        switch value {
        case nil, is NSNull: return nil
        case let text as String: zoom = Int(text.trimmingCharacters(in: .whitespaces))
        case let number as NSNumber:
            let double = number.doubleValue
            zoom = double.rounded() == double && abs(double) <= 1000 ? Int(double) : nil
        default: zoom = nil
        }
        guard let zoom, (0...30).contains(zoom) else {
            throw VectorTileError(.corrupt, "\(what): \(field) is \(value.map { "\($0)" }?.prefix(40) ?? "nil"), not a zoom from 0 to 30")
        }
        return zoom
    }
}
