/// Why an expression could not be compiled: outside the supported subset (a
/// warning for the caller; the property keeps its default), malformed, or nested
/// deeper than the limit (errors).
enum StyleCompileError: Error {
    case unsupported(String)
    case invalid(String)
    case tooDeep(Int)
}

/// What a property's value must become; decides how string literals are read
/// (a colour property's `"#fff"` is a colour at compile time) and whether a
/// legacy function interpolates.
enum StyleOutputType: Sendable {
    case any, number, string, boolean, color, numberArray, enumeration

    var isInterpolatable: Bool { self == .number || self == .color || self == .numberArray }
}

/// Reads expression JSON (MapLibre's `[operator, arguments…]` arrays) into
/// `StyleExpression` nodes, checking arity and literal types as it goes.
struct StyleExpressionCompiler {
    /// The deepest nesting accepted, counted from the property value.
    var maximumDepth: Int

    func compile(_ json: StyleJSON, expecting type: StyleOutputType, depth: Int = 0) throws -> StyleExpression {
        guard depth <= maximumDepth else {
            throw StyleCompileError.tooDeep(maximumDepth)
        }
        switch json {
        case .array(let elements):
            guard case .string(let op)? = elements.first else {
                // A bare array of values (MapLibre wants ["literal", …]; real styles
                // write dash arrays and offsets bare in places, so accept it).
                return .literal(try literal(json, expecting: type))
            }
            return try compile(op, Array(elements.dropFirst()), expecting: type, depth: depth + 1)
        case .object:
            throw StyleCompileError.invalid("an object is not an expression")
        default:
            return .literal(try literal(json, expecting: type))
        }
    }

    /// A JSON value as a literal of `type` (colour strings parsed for colours).
    func literal(_ json: StyleJSON, expecting type: StyleOutputType) throws -> StyleValue {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s):
            if type == .color {
                guard let color = StyleColor(css: s) else { throw StyleCompileError.invalid("'\(s)' is not a colour") }
                return .color(color)
            }
            return .string(s)
        case .array(let elements):
            return .array(try elements.map { try literal($0, expecting: .any) })
        case .object:
            throw StyleCompileError.unsupported("object literals")
        }
    }

    private func compile(_ op: String, _ args: [StyleJSON], expecting type: StyleOutputType, depth: Int) throws -> StyleExpression {
        func arity(_ range: ClosedRange<Int>) throws {
            guard range.contains(args.count) else {
                let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : range.upperBound == .max ? "at least \(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
                throw StyleCompileError.invalid("'\(op)' takes \(expected) argument\(range.upperBound == 1 ? "" : "s"), not \(args.count)")
            }
        }
        func sub(_ json: StyleJSON, _ type: StyleOutputType = .any) throws -> StyleExpression {
            try compile(json, expecting: type, depth: depth)
        }
        func key() throws -> String {
            guard case .string(let key) = args[0] else {
                throw StyleCompileError.unsupported("'\(op)' with a computed key")
            }
            return key
        }

        switch op {
        case "literal":
            try arity(1...1)
            return .literal(try literal(args[0], expecting: type))
        case "get":
            try arity(1...2)
            guard args.count == 1 else { throw StyleCompileError.unsupported("'get' from an object") }
            return .get(try key())
        case "has":
            try arity(1...2)
            guard args.count == 1 else { throw StyleCompileError.unsupported("'has' on an object") }
            return .has(try key())
        case "id":
            try arity(0...0)
            return .id
        case "geometry-type":
            try arity(0...0)
            return .geometryType
        case "zoom":
            try arity(0...0)
            return .zoom
        case "heatmap-density":
            // Only `heatmap-color` is evaluated with it: read as a property the
            // heatmap's ramp sets (no tile key starts with a NUL).
            try arity(0...0)
            return .get(StyleExpression.heatmapDensityKey)
        case "within":
            try arity(1...1)
            let region: StyleWithinRegion?
            do {
                region = StyleWithinRegion(try GeoJSON(json: args[0], limits: .default, promoteId: nil))
            } catch {
                throw StyleCompileError.invalid("'within' takes a GeoJSON object: \(error)")
            }
            guard let region else { throw StyleCompileError.invalid("'within' needs a GeoJSON Polygon or MultiPolygon") }
            return .within(region)
        case "accumulated":
            // Only a cluster property's reduce expression is evaluated with it.
            try arity(0...0)
            return .get(StyleExpression.accumulatedKey)
        case "line-progress":
            // Only `line-gradient` is evaluated with it, the same way.
            try arity(0...0)
            return .get(StyleExpression.lineProgressKey)
        case "!":
            try arity(1...1)
            return .not(try sub(args[0], .boolean))
        case "all":
            return .all(try args.map { try sub($0, .boolean) })
        case "any":
            return .any(try args.map { try sub($0, .boolean) })
        case "in":
            try arity(2...2)
            return .contains(needle: try sub(args[0]), haystack: try sub(args[1]))
        case "match":
            return try match(args, expecting: type, sub: sub)
        case "case":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw StyleCompileError.invalid("'case' takes condition/output pairs and a fallback, not \(args.count) arguments")
            }
            var branches: [StyleCaseBranch] = []
            for pair in stride(from: 0, to: args.count - 1, by: 2) {
                branches.append(StyleCaseBranch(condition: try sub(args[pair], .boolean), output: try sub(args[pair + 1], type)))
            }
            return .cases(branches, fallback: try sub(args[args.count - 1], type))
        case "coalesce":
            try arity(1...Int.max)
            return .coalesce(try args.map { try sub($0, type) })
        case "number", "string", "boolean":
            try arity(1...Int.max)
            let kind = StyleValueKind(rawValue: op)!
            let inner: StyleOutputType = kind == .number ? .number : kind == .string ? .string : .boolean
            return .assert(kind, try args.map { try sub($0, inner) })
        case "image":
            // The image's name: whether the sprite has it is the renderer's to tell.
            try arity(1...1)
            return .image(try sub(args[0], .string))
        case "to-string":
            try arity(1...1)
            return .toString(try sub(args[0]))
        case "to-number":
            try arity(1...Int.max)
            return .toNumber(try args.map { try sub($0) })
        case "to-boolean":
            try arity(1...1)
            return .toBoolean(try sub(args[0]))
        case "to-color":
            try arity(1...Int.max)
            return .toColor(try args.map { try sub($0) })
        case "concat":
            return .concat(try args.map { try sub($0) })
        case "downcase":
            try arity(1...1)
            return .downcase(try sub(args[0], .string))
        case "upcase":
            try arity(1...1)
            return .upcase(try sub(args[0], .string))
        case "step":
            guard args.count >= 2, args.count % 2 == 0 else {
                throw StyleCompileError.invalid("'step' takes an input, an output and stop/output pairs, not \(args.count) arguments")
            }
            let stops = try self.stops(Array(args.dropFirst(2)), op: op, expecting: type, sub: sub)
            return .step(input: try sub(args[0], .number), first: try sub(args[1], type), stops: stops)
        case "interpolate", "interpolate-hcl", "interpolate-lab":
            guard args.count >= 4, args.count % 2 == 0 else {
                throw StyleCompileError.invalid("'\(op)' takes a type, an input and stop/output pairs, not \(args.count) arguments")
            }
            let base = try interpolationBase(args[0])
            let stops = try self.stops(Array(args.dropFirst(2)), op: op, expecting: type, sub: sub)
            let space: StyleColorSpace = op == "interpolate-hcl" ? .hcl : op == "interpolate-lab" ? .lab : .rgb
            return .interpolate(base: base, input: try sub(args[1], .number), stops: stops, space: space)
        default:
            if let comparison = StyleComparison(rawValue: op) {
                try arity(2...3)
                guard args.count == 2 else { throw StyleCompileError.unsupported("'\(op)' with a collator") }
                return .compare(comparison, try sub(args[0]), try sub(args[1]))
            }
            if let arithmetic = StyleArithmetic(rawValue: op) {
                switch arithmetic {
                case .minus: try arity(1...2)
                case .divide, .remainder, .power: try arity(2...2)
                case .plus, .times, .min, .max: break
                }
                return .arithmetic(arithmetic, try args.map { try sub($0, .number) })
            }
            throw StyleCompileError.unsupported("expression operator '\(op)'")
        }
    }

    private func match(_ args: [StyleJSON], expecting type: StyleOutputType,
                       sub: (StyleJSON, StyleOutputType) throws -> StyleExpression) throws -> StyleExpression {
        guard args.count >= 4, args.count % 2 == 0 else {
            throw StyleCompileError.invalid("'match' takes an input, label/output pairs and a fallback, not \(args.count) arguments")
        }
        var branches: [StyleValue: Int] = [:]
        var outputs: [StyleExpression] = []
        for pair in stride(from: 1, to: args.count - 1, by: 2) {
            let labels: [StyleJSON]
            if case .array(let list) = args[pair] {
                guard !list.isEmpty else { throw StyleCompileError.invalid("a 'match' label list is empty") }
                labels = list
            } else {
                labels = [args[pair]]
            }
            for label in labels {
                let value: StyleValue
                switch label {
                case .number(let n): value = .number(n)
                case .string(let s): value = .string(s)
                default: throw StyleCompileError.invalid("'match' labels are numbers or strings, not \(label.summary)")
                }
                guard branches[value] == nil else { throw StyleCompileError.invalid("'match' label \(label.summary) appears twice") }
                branches[value] = outputs.count
            }
            outputs.append(try sub(args[pair + 1], type))
        }
        return .match(input: try sub(args[0], .any), branches: branches, outputs: outputs, fallback: try sub(args[args.count - 1], type))
    }

    /// `stop, output, …` pairs with literal, strictly ascending stops.
    private func stops(_ pairs: [StyleJSON], op: String, expecting type: StyleOutputType,
                       sub: (StyleJSON, StyleOutputType) throws -> StyleExpression) throws -> [StyleStop] {
        var stops: [StyleStop] = []
        stops.reserveCapacity(pairs.count / 2)
        for pair in stride(from: 0, to: pairs.count, by: 2) {
            guard case .number(let input) = pairs[pair], input.isFinite else {
                throw StyleCompileError.invalid("'\(op)' stop inputs are literal numbers, not \(pairs[pair].summary)")
            }
            if let last = stops.last, input <= last.input {
                throw StyleCompileError.invalid("'\(op)' stop inputs must be strictly ascending (\(StyleNumberFormat.string(input)) after \(StyleNumberFormat.string(last.input)))")
            }
            stops.append(StyleStop(input: input, output: try sub(pairs[pair + 1], type)))
        }
        return stops
    }

    private func interpolationBase(_ json: StyleJSON) throws -> Double {
        guard case .array(let parts) = json, case .string(let name)? = parts.first else {
            throw StyleCompileError.invalid("'interpolate' needs an interpolation type such as [\"linear\"]")
        }
        switch name {
        case "linear":
            return 1  // MapLibre ignores extra arguments here and below.
        case "exponential":
            guard parts.count >= 2, case .number(let base) = parts[1], base.isFinite, base > 0 else {
                throw StyleCompileError.invalid("[\"exponential\", base] needs one positive number")
            }
            return base
        default:
            throw StyleCompileError.unsupported("interpolation type '\(name)'")
        }
    }
}
