/// One GeoJSON feature: a geometry, its id and properties. A bare geometry
/// in a document reads as a feature without id or properties.
public struct GeoJSONFeature: Equatable, Sendable {
    /// A feature id: GeoJSON allows a number or a string.
    public enum ID: Equatable, Sendable {
        /// A numeric id.
        case number(Double)
        /// A string id.
        case string(String)

        /// The id as a vector tile carries it, as MapLibre turns GeoJSON ids
        /// into tile ids: a whole number 0…2⁶⁴, or a string spelling one
        /// (`"42"`); nil for any other id.
        public var tileID: UInt64? {
            switch self {
            case .number(let value):
                guard value >= 0, value < 18_446_744_073_709_551_616, value == value.rounded(.towardZero) else { return nil }
                return UInt64(value)
            case .string(let text):
                return UInt64(text)
            }
        }
    }

    /// The feature's `id` (or, with `promoteId`, the property it names).
    public var id: ID?
    /// The geometry; nil for a feature whose `geometry` is `null` (drawn as nothing).
    public var geometry: GeoJSONGeometry?
    /// The properties with a string, number or boolean value; `null`, array
    /// and object values are left out (styles compare scalars).
    public var properties: [String: VectorTileValue]

    /// A feature of `geometry` with `id` and `properties`.
    public init(id: ID? = nil, geometry: GeoJSONGeometry?, properties: [String: VectorTileValue] = [:]) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
    }
}
