/// A style that cannot be used: over a limit, not JSON, or a value of the wrong
/// shape. `layer` and `property` name where, when the problem is in one.
/// (What the style asks for outside the supported subset is not an error but a
/// warning: see ``VectorStyle/warnings``.)
public struct VectorStyleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The broad kind of problem.
    public enum Kind: String, Sendable {
        /// Larger, deeper or with more layers than ``StyleLimits`` allow.
        case limitExceeded
        /// Not a JSON object.
        case malformedJSON
        /// A value of the wrong type or shape (a colour that does not parse, an
        /// expression with the wrong number of arguments, a layer without an id).
        case invalidValue
    }

    /// The broad kind of problem.
    public var kind: Kind
    /// The id of the layer at fault, if the problem is in one.
    public var layer: String?
    /// The property (or `filter`, `source`, …) at fault, if any.
    public var property: String?
    /// What is wrong, in words.
    public var detail: String

    /// An error of `kind` at `layer`/`property`.
    public init(_ kind: Kind, layer: String? = nil, property: String? = nil, detail: String) {
        self.kind = kind
        self.layer = layer
        self.property = property
        self.detail = detail
    }

    /// `layer 'roads': paint property 'line-width': <detail>`.
    public var description: String {
        var parts: [String] = []
        if let layer { parts.append("layer '\(layer)'") }
        if let property { parts.append("'\(property)'") }
        parts.append(detail)
        return parts.joined(separator: ": ")
    }
}
