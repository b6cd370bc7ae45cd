/// A `text-field` given as MapLibre's `format` expression: sections of text
/// (or inline sprite images), each with its own `font-scale`, `text-font`
/// and `text-color` overriding the layer's (MapLibre's `format.ts`). Only a
/// `format` at the top of `text-field` is read; inside another expression it
/// is not supported.
public struct StyleFormattedText: Sendable {
    /// One section and its overrides (nil or empty: the layer's own).
    public struct Section: Sendable {
        /// The section's text (empty for an image section).
        public var text: StyleProperty<String>
        /// `["image", name]`: the sprite image drawn in the text; nil for text.
        public var image: StyleProperty<String>?
        /// `font-scale`: the section's size as a share of `text-size`.
        public var fontScale: StyleProperty<Double?>
        /// `text-font`: the section's font stack.
        public var font: StyleProperty<[String]?>
        /// `text-color`: the section's colour.
        public var color: StyleProperty<StyleColor?>
    }

    /// The sections in order.
    public var sections: [Section]

    /// The most sections read: a label of more is no name a map shows.
    static let maximumSections = 256

    /// The sections of `json` when it is a `format` expression; nil otherwise.
    /// Throws when the expression is malformed (an options entry that is no
    /// object, too many sections).
    static func read(_ json: StyleJSON, reader: inout StyleLayerReader) throws -> StyleFormattedText? {
        guard case .array(let elements) = json, elements.first == .string("format") else { return nil }
        typealias R = StyleLayerReader
        var sections: [Section] = []
        var index = 1
        while index < elements.count {
            let content = elements[index]
            index += 1
            var options: [String: StyleJSON] = [:]
            if index < elements.count, case .object(let members) = elements[index] {
                options = members
                index += 1
            }
            guard sections.count < maximumSections else {
                throw reader.invalid("text-field", "'format' has more than \(maximumSections) sections", section: "layout")
            }
            var image: StyleProperty<String>?
            var text = StyleProperty(constant: "", convert: R.text)
            if case .array(let parts) = content, parts.first == .string("image"), parts.count == 2 {
                image = try reader.property("text-field", in: ["text-field": parts[1]], "layout", type: .string, default: "", convert: R.text)
            } else {
                text = try reader.property("text-field", in: ["text-field": content], "layout", type: .string, default: "", convert: R.text)
            }
            sections.append(Section(
                text: text, image: image,
                fontScale: try reader.property("font-scale", in: options, "layout", type: .number, default: nil, convert: R.optionalNumber),
                font: try reader.property("text-font", in: options, "layout", type: .any, default: nil,
                                          convert: { R.fontStack($0).map { .some($0) } }),
                color: try reader.property("text-color", in: options, "layout", type: .color, default: nil, convert: R.optionalColor)))
        }
        return StyleFormattedText(sections: sections)
    }

    /// The plain text of a `format` expression `json` as an expression: its
    /// sections' text joined, each image as ``imagePlaceholder`` (what the layer's
    /// `text-field` reads as, for its emptiness, spacing and `icon-text-fit`).
    static func plainTextExpression(_ json: StyleJSON) -> StyleJSON {
        guard case .array(let elements) = json else { return json }
        var parts: [StyleJSON] = [.string("concat")]
        for element in elements.dropFirst() {
            if case .object = element { continue }
            if case .array(let inner) = element, inner.first == .string("image") {
                parts.append(.string(String(Character(imagePlaceholder))))
            } else {
                parts.append(element)
            }
        }
        return .array(parts)
    }

    /// The sections with zoom-only properties evaluated at `zoom`.
    func atZoom(_ zoom: Double) -> StyleFormattedText {
        StyleFormattedText(sections: sections.map { s in
            Section(text: s.text.atZoom(zoom), image: s.image?.atZoom(zoom), fontScale: s.fontScale.atZoom(zoom),
                    font: s.font.atZoom(zoom), color: s.color.atZoom(zoom))
        })
    }

    /// The character an inline image stands as in the text (the first of Unicode's private use area).
    static let imagePlaceholder: Unicode.Scalar = "\u{E000}"
}
