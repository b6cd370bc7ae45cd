/// Reads one layer's JSON into a ``StyleLayer``: its properties compiled, what is
/// outside the subset collected as warnings, a malformed value thrown as a
/// ``VectorStyleError`` naming the layer and property.
struct StyleLayerReader {
    let id: String
    let expressions: StyleExpressionCompiler
    /// `StyleLimits.maximumExpressionNodes`.
    let maximumNodes: Int
    var warnings: [String] = []

    init(id: String, limits: StyleLimits) {
        self.id = id
        expressions = StyleExpressionCompiler(maximumDepth: limits.maximumExpressionDepth)
        maximumNodes = limits.maximumExpressionNodes
    }

    mutating func warn(_ message: String) {
        warnings.append("layer '\(id)': \(message)")
    }

    func invalid(_ property: String, _ detail: String, section: String? = nil) -> VectorStyleError {
        VectorStyleError(.invalidValue, layer: id, section: section, property: property, detail: detail)
    }

    func tooDeep(_ property: String, _ limit: Int, section: String? = nil) -> VectorStyleError {
        VectorStyleError(.limitExceeded, layer: id, section: section, property: property, detail: "the expression nests deeper than \(limit) levels")
    }

    /// `expression`, the value of `property`, unless it has more nodes than
    /// `maximumNodes`: then a `VectorStyleError` naming the property and the limit.
    func counted(_ expression: StyleExpression, _ property: String) throws -> StyleExpression {
        guard expression.nodeCount(upTo: maximumNodes) <= maximumNodes else {
            throw VectorStyleError(.limitExceeded, layer: id, property: property,
                                   detail: "the expression has more than \(maximumNodes) nodes, the limit (StyleLimits.maximumExpressionNodes)")
        }
        return expression
    }

    /// The layer's `filter` (true when absent); nil if it uses something outside
    /// the subset (warned: the layer then draws nothing rather than everything).
    mutating func filter(_ json: StyleJSON?) throws -> StyleProperty<Bool>? {
        let pass = StyleProperty<Bool>(constant: true, convert: Self.boolean)
        guard let json else { return pass }
        do {
            let expression = try counted(StyleFilterCompiler(expressions: expressions).compile(json), "filter")
            // A filter's default on an evaluation error is false (MapLibre's).
            guard let property = StyleProperty(expression: expression, defaultValue: false, convert: Self.boolean) else {
                throw invalid("filter", "the filter is not a boolean")
            }
            return property
        } catch StyleCompileError.unsupported(let what) {
            warn("filter: \(what) is not supported; the layer is not drawn")
            return nil
        } catch StyleCompileError.invalid(let detail) {
            throw invalid("filter", detail)
        } catch StyleCompileError.tooDeep(let limit) {
            throw tooDeep("filter", limit)
        }
    }

    /// Properties the spec marks "data-constant": their value may depend on the
    /// zoom but not on the feature.
    static let dataConstant: Set<String> = ["background-color", "background-opacity", "fill-antialias", "fill-translate", "circle-translate",
                                              "circle-translate-anchor", "circle-pitch-scale", "circle-pitch-alignment", "symbol-placement",
                                              "symbol-spacing", "text-max-angle", "text-allow-overlap", "text-ignore-placement",
                                              "icon-allow-overlap", "icon-ignore-placement", "icon-optional",
                                              "raster-opacity", "raster-hue-rotate", "raster-brightness-min", "raster-brightness-max",
                                              "raster-saturation", "raster-contrast", "raster-resampling", "hillshade-illumination-direction",
                                              "hillshade-illumination-anchor", "hillshade-exaggeration", "hillshade-shadow-color",
                                              "hillshade-highlight-color", "hillshade-accent-color",
                                              "fill-extrusion-opacity", "fill-extrusion-translate", "fill-extrusion-translate-anchor",
                                              "fill-extrusion-vertical-gradient"]

    /// The property `name` of `section` (`paint` or `layout`): its default when
    /// absent or outside the subset (with a warning), compiled otherwise.
    mutating func property<Value: Sendable>(
        _ name: String, in section: [String: StyleJSON], _ sectionName: String, type: StyleOutputType,
        default defaultValue: Value, convert: @escaping @Sendable (StyleValue) -> Value?
    ) throws -> StyleProperty<Value> {
        let fallback = StyleProperty(constant: defaultValue, convert: convert)
        guard let json = section[name] else { return fallback }
        do {
            let expression: StyleExpression
            switch json {
            case .object(let members):
                // The specification's one array that does not interpolate: its functions step.
                expression = try StyleFunctionCompiler(expressions: expressions, interpolated: name == "line-dasharray" ? false : nil)
                    .compile(members, expecting: type)
            case .string(let text) where name == "text-field" || name == "icon-image":
                expression = Self.tokens(text)
            case .array(let names) where (name == "text-font" || name == "text-variable-anchor" || name == "text-writing-mode") && Self.fontNames(names) != nil:
                // A font stack (or anchor list) written bare, as every style writes it (MapLibre's spec allows it).
                expression = .literal(.array(Self.fontNames(names)!.map { .string($0) }))
            case .array(let pairs) where name == "text-variable-anchor-offset" && Self.anchorOffsetPairs(pairs) != nil:
                // Anchor and offset pairs written bare, as the spec writes them.
                expression = .literal(Self.anchorOffsetPairs(pairs)!)
            default:
                expression = try expressions.compile(json, expecting: type)
            }
            _ = try counted(expression, name)
            guard !(Self.dataConstant.contains(name) && expression.dependsOnFeature) else {
                throw StyleCompileError.invalid("the value may not depend on the feature (the property is data-constant)")
            }
            guard expression.zoomIsOnlyCurveInput else {
                throw StyleCompileError.invalid("\"zoom\" may only be the input of a top-level \"step\" or \"interpolate\"")
            }
            guard let property = StyleProperty(expression: expression, defaultValue: defaultValue, convert: convert) else {
                throw StyleCompileError.invalid("\(json.summary) is not a valid value")
            }
            return property
        } catch StyleCompileError.unsupported(let what) {
            warn("\(sectionName) property '\(name)': \(what) is not supported")
            return fallback
        } catch StyleCompileError.invalid(let detail) {
            throw invalid(name, detail, section: sectionName)
        } catch StyleCompileError.tooDeep(let limit) {
            throw tooDeep(name, limit, section: sectionName)
        }
    }

    /// A `text-field` string: `{key}` tokens become the property's value as a
    /// string (empty when missing), as MapLibre's `convertTokenString`.
    static func tokens(_ text: String) -> StyleExpression {
        guard text.contains("{") else { return .literal(.string(text)) }
        var parts: [StyleExpression] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"),
              let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.literal(.string(String(rest[..<open])))) }
            let key = String(rest[rest.index(after: open)..<close])
            parts.append(.toString(.get(key)))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(.string(String(rest)))) }
        return parts.count == 1 ? parts[0] : .concat(parts)
    }

    // Conversions from an evaluated value to a property's type; nil is a wrong type.

    static let boolean: @Sendable (StyleValue) -> Bool? = { if case .bool(let b) = $0 { return b } else { return nil } }
    static let color: @Sendable (StyleValue) -> StyleColor? = { StyleExpression.color($0) }
    static let optionalColor: @Sendable (StyleValue) -> StyleColor?? = { StyleExpression.color($0).map { .some($0) } }
    static let number: @Sendable (StyleValue) -> Double? = { if case .number(let n) = $0, n.isFinite { return n } else { return nil } }
    static let optionalNumber: @Sendable (StyleValue) -> Double?? = { number($0).map { .some($0) } }
    static let length: @Sendable (StyleValue) -> Double? = { if case .number(let n) = $0, n.isFinite, n >= 0 { return n } else { return nil } }
    /// `symbol-spacing`: at least one pixel (the spec's minimum).
    static let atLeastOne: @Sendable (StyleValue) -> Double? = { if case .number(let n) = $0, n.isFinite, n >= 1 { return n } else { return nil } }
    /// `raster-saturation`, `raster-contrast`: -1…1.
    static let signedUnit: @Sendable (StyleValue) -> Double? = { if case .number(let n) = $0, n >= -1, n <= 1 { return n } else { return nil } }
    /// `icon-padding`: a number, or [all], [vertical, horizontal] … as CSS (the largest is kept).
    static let padding: @Sendable (StyleValue) -> Double? = { value in
        if case .array(let sides) = value {
            let numbers = sides.compactMap(length)
            return numbers.count == sides.count && (1...4).contains(numbers.count) ? numbers.max() : nil
        }
        return length(value)
    }
    static let opacity: @Sendable (StyleValue) -> Double? = { if case .number(let n) = $0, n >= 0, n <= 1 { return n } else { return nil } }
    /// The names of a bare `text-font` array: strings, the first not an operator.
    static func fontNames(_ elements: [StyleJSON]) -> [String]? {
        let names = elements.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        guard names.count == elements.count, let first = names.first, !["literal", "step", "match", "case", "coalesce", "get"].contains(first) else { return nil }
        return names
    }
    /// `text-variable-anchor-offset` written bare (`["top", [0, 1], …]`) as a
    /// value; nil when it is not anchor and two-number offset pairs (an expression).
    static func anchorOffsetPairs(_ elements: [StyleJSON]) -> StyleValue? {
        func value(_ json: StyleJSON) -> StyleValue? {
            switch json {
            case .string(let text): return .string(text)
            case .number(let number): return .number(number)
            case .array(let items):
                let values = items.compactMap(value)
                return values.count == items.count ? .array(values) : nil
            default: return nil
            }
        }
        guard let pairs = value(.array(elements)), anchorOffsets(pairs) != nil else { return nil }
        return pairs
    }
    /// `text-variable-anchor-offset` as anchors with their offsets in ems.
    static let anchorOffsets: @Sendable (StyleValue) -> [StyleAnchorOffset]? = { value in
        guard case .array(let elements) = value, elements.count % 2 == 0 else { return nil }
        var pairs: [StyleAnchorOffset] = []
        for i in stride(from: 0, to: elements.count, by: 2) {
            guard case .string(let name) = elements[i], let anchor = StyleTextAnchor(rawValue: name),
                  case .array(let offset) = elements[i + 1], offset.count == 2,
                  case .number(let x) = offset[0], case .number(let y) = offset[1], x.isFinite, y.isFinite else { return nil }
            pairs.append(StyleAnchorOffset(anchor: anchor, x: x, y: y))
        }
        return pairs
    }
    static let fontStack: @Sendable (StyleValue) -> [String]? = { value in
        guard case .array(let elements) = value else { return nil }
        let names = elements.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        return names.count == elements.count && !names.isEmpty ? names : nil
    }
    static let anchors: @Sendable (StyleValue) -> [StyleTextAnchor]? = { value in
        guard case .array(let elements) = value else { return nil }
        let anchors = elements.compactMap { if case .string(let s) = $0 { return StyleTextAnchor(rawValue: s) } else { return nil } }
        return anchors.count == elements.count ? anchors : nil
    }
    static let writingModes: @Sendable (StyleValue) -> [StyleWritingMode]? = { value in
        guard case .array(let elements) = value else { return nil }
        let modes = elements.compactMap { if case .string(let s) = $0 { return StyleWritingMode(rawValue: s) } else { return nil } }
        return modes.count == elements.count ? modes : nil
    }
    static let text: @Sendable (StyleValue) -> String? = { $0 == .null ? nil : StyleExpression.string($0) }
    static let offset: @Sendable (StyleValue) -> [Double]? = { value in
        guard case .array(let elements) = value, elements.count == 2 else { return nil }
        let numbers = elements.compactMap(number)
        return numbers.count == 2 ? numbers : nil
    }
    static let dashes: @Sendable (StyleValue) -> [Double]? = { value in
        guard case .array(let elements) = value else { return nil }
        let numbers = elements.compactMap(length)
        return numbers.count == elements.count ? numbers : nil
    }
    static func enumeration<E: RawRepresentable & Sendable>(_: E.Type) -> @Sendable (StyleValue) -> E? where E.RawValue == String {
        { if case .string(let s) = $0 { return E(rawValue: s) } else { return nil } }
    }
}
