/// Reads a legacy function (`{"stops": [[in, out], …], "base": b, "type": …,
/// "property": …, "default": …}`) into the expression nodes MapLibre's
/// `convertFunction` would give: zoom functions, property functions and
/// zoom-and-property functions (`[{"zoom": z, "value": v}, out]` stops).
struct StyleFunctionCompiler {
    var expressions: StyleExpressionCompiler
    /// Whether the property's values interpolate (the specification's
    /// `interpolated`); nil: as its type does. `line-dasharray` is an array
    /// that does not: its functions step.
    var interpolated: Bool? = nil

    static let keys: Set<String> = ["stops", "base", "type", "property", "default", "colorSpace"]

    func compile(_ members: [String: StyleJSON], expecting type: StyleOutputType) throws -> StyleExpression {
        if let unknown = members.keys.first(where: { !Self.keys.contains($0) }) {
            throw StyleCompileError.invalid("a function has no key '\(unknown)'")
        }
        var base = 1.0
        if let json = members["base"] {
            guard case .number(let b) = json, b.isFinite, b > 0 else { throw StyleCompileError.invalid("a function's 'base' is a positive number") }
            base = b
        }
        var space = StyleColorSpace.rgb
        if let json = members["colorSpace"] {
            guard case .string(let name) = json, let named = StyleColorSpace(rawValue: name) else {
                throw StyleCompileError.invalid("a function's 'colorSpace' is rgb, lab or hcl, not \(json.summary)")
            }
            space = named
        }
        let interpolatable = interpolated ?? type.isInterpolatable
        let kind: String
        switch members["type"] {
        case nil: kind = interpolatable ? "exponential" : "interval"
        case .string(let name)? where ["exponential", "interval", "categorical", "identity"].contains(name):
            kind = name
        case let other?: throw StyleCompileError.invalid("function type \(other.summary) is not exponential, interval, categorical or identity")
        }
        var property: String?
        if let json = members["property"] {
            guard case .string(let name) = json else { throw StyleCompileError.invalid("a function's 'property' is a string") }
            property = name
        }
        let fallback = try members["default"].map { try expressions.literal($0, expecting: type) }

        if kind == "identity" {
            guard let property else { throw StyleCompileError.invalid("an identity function needs a 'property'") }
            // The property must have the output's type, else the default applies.
            let value: StyleExpression
            switch type {
            case .number: value = .assert(.number, [.get(property)])
            case .string: value = .assert(.string, [.get(property)])
            case .boolean: value = .assert(.boolean, [.get(property)])
            case .color: value = .toColor([.get(property)])
            case .numberArray: value = .assert(.array, [.get(property)])
            default: value = .get(property)
            }
            return withDefault(value, fallback)
        }
        guard case .array(let stopList)? = members["stops"], !stopList.isEmpty else {
            throw StyleCompileError.invalid("a function needs a non-empty 'stops' array")
        }
        var pairs: [(input: StyleJSON, output: StyleJSON)] = []
        for stop in stopList {
            guard case .array(let pair) = stop, pair.count == 2 else { throw StyleCompileError.invalid("a function stop is an [input, output] pair") }
            pairs.append((pair[0], pair[1]))
        }
        if case .object = pairs[0].input {
            guard let property else { throw StyleCompileError.invalid("a zoom-and-property function needs a 'property'") }
            return try zoomAndProperty(pairs, property: property, kind: kind, base: base, space: space, fallback: fallback, expecting: type,
                                       interpolatable: interpolatable)
        }
        let input: StyleExpression = property.map { .get($0) } ?? .zoom
        let curve = try self.curve(pairs.map { ($0.input, try expressions.literal($0.output, expecting: type)) },
                                   input: input, kind: kind, base: base, space: space)
        return property == nil ? curve : withDefault(curve, fallback)
    }

    /// One function's curve: interpolate, step or match over `input`.
    private func curve(_ stops: [(StyleJSON, StyleValue)], input: StyleExpression, kind: String, base: Double,
                       space: StyleColorSpace) throws -> StyleExpression {
        if kind == "categorical" {
            var branches: [StyleValue: Int] = [:]
            var outputs: [StyleExpression] = []
            for (label, output) in stops {
                let key = try expressions.literal(label, expecting: .any)
                if branches[key] == nil {
                    branches[key] = outputs.count
                    outputs.append(.literal(output))
                }
            }
            return .match(input: input, branches: branches, outputs: outputs, fallback: .literal(.null))
        }
        var numeric: [StyleStop] = []
        for (label, output) in stops {
            guard case .number(let value) = label, value.isFinite else {
                throw StyleCompileError.invalid("\(kind) function stop inputs are numbers, not \(label.summary)")
            }
            if let last = numeric.last, value < last.input {
                throw StyleCompileError.invalid("function stop inputs must be ascending")
            }
            // Equal inputs: the first stop wins, as in MapLibre's conversion.
            if let last = numeric.last, value == last.input { continue }
            numeric.append(StyleStop(input: value, output: .literal(output)))
        }
        if kind == "interval" {
            // Below the first stop a legacy interval function gives the first output.
            return .step(input: input, first: numeric[0].output, stops: numeric)
        }
        return .interpolate(base: base, input: input, stops: numeric, space: space)
    }

    /// Stops grouped by zoom: an interpolate (or step) over zoom whose outputs are
    /// property curves, as MapLibre's `convertZoomAndPropertyFunction` builds it:
    /// linear over zoom for a property that interpolates, whatever the
    /// function's type (which shapes the property curves), else a step.
    private func zoomAndProperty(_ pairs: [(input: StyleJSON, output: StyleJSON)], property: String, kind: String,
                                 base: Double, space: StyleColorSpace, fallback: StyleValue?, expecting type: StyleOutputType,
                                 interpolatable: Bool) throws -> StyleExpression {
        var zooms: [Double] = []
        var groups: [Double: [(StyleJSON, StyleValue)]] = [:]
        for (input, output) in pairs {
            guard case .object(let key) = input, case .number(let zoom)? = key["zoom"], zoom.isFinite, let value = key["value"] else {
                throw StyleCompileError.invalid("a zoom-and-property stop's input is {\"zoom\": number, \"value\": …}")
            }
            if groups[zoom] == nil { zooms.append(zoom) }
            groups[zoom, default: []].append((value, try expressions.literal(output, expecting: type)))
        }
        guard zooms == zooms.sorted() else { throw StyleCompileError.invalid("zoom-and-property stops must ascend by zoom") }
        var stops: [StyleStop] = []
        for zoom in zooms {
            let inner = try curve(groups[zoom]!, input: .get(property), kind: kind, base: base, space: space)
            stops.append(StyleStop(input: zoom, output: withDefault(inner, fallback)))
        }
        if interpolatable {
            return .interpolate(base: 1, input: .zoom, stops: stops)
        }
        return .step(input: .zoom, first: stops[0].output, stops: stops)
    }

    private func withDefault(_ expression: StyleExpression, _ fallback: StyleValue?) -> StyleExpression {
        fallback.map { .fallback(expression, $0) } ?? expression
    }
}
