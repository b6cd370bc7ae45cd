import Foundation

/// A JSON value as the style reader walks it: read once by `StyleJSONParser`,
/// then compiled into typed layers and `StyleExpression`s. (`Decodable` too, for
/// tests that read fixtures with `JSONDecoder`.)
enum StyleJSON: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([StyleJSON])
    case object([String: StyleJSON])

    init(from decoder: Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [StyleJSON] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd { elements.append(try array.decode(StyleJSON.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [String: StyleJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(StyleJSON.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let value = try? single.decode(Bool.self) { self = .bool(value) }
        else if let value = try? single.decode(Double.self) { self = .number(value) }
        else { self = .string(try single.decode(String.self)) }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes `data` after checking its size, nesting and layer count against the
    /// limits, so a hostile document is refused before the decoder recurses into it
    /// or builds a value per layer.
    static func decode(_ data: Data, limits: StyleLimits) throws -> StyleJSON {
        guard data.count <= limits.maximumByteCount else {
            throw VectorStyleError(.limitExceeded, detail: "the style is \(data.count) bytes, over the limit of \(limits.maximumByteCount)")
        }
        let maximumNesting = limits.maximumExpressionDepth + documentNesting
        let scan = StyleDocumentScan(data, maximumNesting: maximumNesting, maximumLayerCount: limits.maximumLayerCount)
        guard scan.deepest <= maximumNesting else {
            throw VectorStyleError(.limitExceeded, detail: "the style nests arrays and objects deeper than \(maximumNesting) levels (an expression may nest \(limits.maximumExpressionDepth))")
        }
        guard scan.layerCount <= limits.maximumLayerCount else {
            throw VectorStyleError(.limitExceeded, property: "layers", detail: "the style has over \(limits.maximumLayerCount) layers, the limit")
        }
        return try StyleJSONParser.parse(data, maximumDepth: maximumNesting)
    }

    /// How deep the document itself nests around a property value: the root,
    /// `layers`, a layer, `paint`, and a little room (sources' `tiles`, `metadata`).
    static let documentNesting = 8

    /// A short description for error messages: the type and, for scalars, the value.
    var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .number(let n): return StyleNumberFormat.string(n)
        case .string(let s): return s.count > 40 ? "'\(s.prefix(40))…'" : "'\(s)'"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
