/// A style that cannot be used: over a limit, not JSON, or a value of the wrong
/// shape. `layer`, `section` and `property` name where, when the problem is in
/// one; `file`, `line` and `column` where in the document (1-based, the column
/// counted in characters), when known.
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
    /// `paint` or `layout` when ``property`` is one of those sections' properties.
    public var section: String?
    /// The property (or `filter`, `source`, …) at fault, if any.
    public var property: String?
    /// What is wrong, in words.
    public var detail: String
    /// The style file's name, when the style was read from one.
    public var file: String?
    /// The line of the value at fault (from 1), when known.
    public var line: Int?
    /// The column of the value at fault (from 1), when known.
    public var column: Int?
    /// Where the value at fault lies in the document: the layer's index in
    /// `layers` (the reader knows it; ``line`` and ``column`` are found from it).
    var layerIndex: Int?

    /// An error of `kind` at `layer`/`section`/`property`.
    public init(_ kind: Kind, layer: String? = nil, section: String? = nil, property: String? = nil, detail: String) {
        self.kind = kind
        self.layer = layer
        self.section = section
        self.property = property
        self.detail = detail
    }

    /// `my.json:14:30: layer 'roads': paint 'line-width': <detail>`, as a
    /// compiler names a place (`line 14, column 30:` without a file name).
    public var description: String {
        var parts: [String] = []
        switch (file, line, column) {
        case let (file?, line?, column?): parts.append("\(file):\(line):\(column)")
        case let (file?, _, _): parts.append(file)
        case let (nil, line?, column?): parts.append("line \(line), column \(column)")
        default: break
        }
        if let layer { parts.append("layer '\(layer)'") }
        if let property { parts.append((section.map { $0 + " " } ?? "") + "'\(property)'") }
        parts.append(detail)
        return parts.joined(separator: ": ")
    }
}
