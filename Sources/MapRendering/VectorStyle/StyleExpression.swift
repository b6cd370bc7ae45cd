/// A compiled style expression: the JSON of a filter or a property value is read
/// once into this tree of small nodes (see `StyleExpressionCompiler`), then
/// evaluated per zoom or per feature without touching JSON again.
///
/// Legacy filters and legacy `{stops}` functions compile to the same nodes, the
/// way MapLibre converts them to expressions. An evaluation error (a failed type
/// assertion, a string compared with a number) is thrown as a
/// `StyleEvaluationError`: the property falls back to its default, as a null value
/// or a value of the wrong type does, and a filter rejects the feature.
indirect enum StyleExpression: Sendable {
    case literal(StyleValue)
    /// `["get", key]`: a feature property, null when missing.
    case get(String)
    /// `["has", key]`.
    case has(String)
    /// `["id"]`: the feature id as a number, null when the feature has none.
    case id
    /// `["geometry-type"]`: `Point`, `LineString` or `Polygon`.
    case geometryType
    /// `["zoom"]`.
    case zoom
    /// `["within", geojson]`: whether the feature's geometry lies inside the polygons.
    case within(StyleWithinRegion)
    case not(StyleExpression)
    case all([StyleExpression])
    case any([StyleExpression])
    case compare(StyleComparison, StyleExpression, StyleExpression)
    /// `["in", needle, haystack]`: an element of an array or a substring of a string.
    case contains(needle: StyleExpression, haystack: StyleExpression)
    /// `["match", input, labels, output, …, fallback]`: `branches` maps each label to
    /// the index of its output.
    case match(input: StyleExpression, branches: [StyleValue: Int], outputs: [StyleExpression], fallback: StyleExpression)
    case cases([StyleCaseBranch], fallback: StyleExpression)
    case coalesce([StyleExpression])
    /// `["image", name]`: the name, which a `coalesce` passes over when the
    /// feature's sprite lacks that image (``StyleFeature/styleHasImage(named:)``).
    case image(StyleExpression)
    /// A legacy function's `default`: taken when the function's value is null or
    /// an evaluation error (a property of the wrong type).
    case fallback(StyleExpression, StyleValue)
    /// `number`, `string`, `boolean`: the first argument of that type, else null.
    case assert(StyleValueKind, [StyleExpression])
    case toString(StyleExpression)
    case toNumber([StyleExpression])
    case toBoolean(StyleExpression)
    case toColor([StyleExpression])
    case concat([StyleExpression])
    case downcase(StyleExpression)
    case upcase(StyleExpression)
    case arithmetic(StyleArithmetic, [StyleExpression])
    /// `["step", input, output0, stop1, output1, …]`.
    case step(input: StyleExpression, first: StyleExpression, stops: [StyleStop])
    /// `["interpolate", ["linear"] or ["exponential", base], input, stop, output, …]`;
    /// linear is base 1.
    case interpolate(base: Double, input: StyleExpression, stops: [StyleStop], space: StyleColorSpace = .rgb)

    /// The property `["heatmap-density"]` reads: the heatmap's colour ramp
    /// evaluates `heatmap-color` with it set to each density.
    static let heatmapDensityKey = "\u{0}heatmap-density"
    /// The property `["line-progress"]` reads: a line's gradient ramp
    /// evaluates `line-gradient` with it set to each fraction of the line.
    static let lineProgressKey = "\u{0}line-progress"
    /// `["accumulated"]`, which only a cluster property's reduce expression
    /// reads: a property the clusterer sets, the same way.
    static let accumulatedKey = "\u{0}accumulated"

    /// The node's operands, for the dependency analysis below.
    var children: [StyleExpression] {
        switch self {
        case .literal, .get, .has, .id, .geometryType, .zoom, .within: return []
        case .not(let e), .fallback(let e, _), .image(let e), .toString(let e), .toBoolean(let e), .downcase(let e), .upcase(let e): return [e]
        case .all(let es), .any(let es), .coalesce(let es), .assert(_, let es), .toNumber(let es),
             .toColor(let es), .concat(let es), .arithmetic(_, let es): return es
        case .compare(_, let a, let b): return [a, b]
        case .contains(let a, let b): return [a, b]
        case .match(let input, _, let outputs, let fallback): return [input] + outputs + [fallback]
        case .cases(let branches, let fallback): return branches.flatMap { [$0.condition, $0.output] } + [fallback]
        case .step(let input, let first, let stops): return [input, first] + stops.map(\.output)
        case .interpolate(_, let input, let stops, _): return [input] + stops.map(\.output)
        }
    }

    /// The nodes of the tree (this one and every operand's, a literal counting
    /// as one), counted no further than just past `limit`.
    func nodeCount(upTo limit: Int) -> Int {
        var count = 1
        for child in children {
            guard count <= limit else { break }
            count += child.nodeCount(upTo: limit - count)
        }
        return count
    }

    /// True if the value can differ between features (reads a property, the id or
    /// the geometry type); false if the zoom alone decides it.
    var dependsOnFeature: Bool {
        switch self {
        case .get, .has, .id, .geometryType, .within: return true
        default: return children.contains { $0.dependsOnFeature }
        }
    }

    /// The feature properties the value reads (the keys of its `get` and
    /// `has`), or nil when it reads the feature's id as well. With the geometry
    /// type, these are all of a feature that the value depends on.
    var propertyKeys: Set<String>? {
        switch self {
        // The id, or the geometry (which features alike in their properties need not share).
        case .id, .within: return nil
        case .get(let key), .has(let key): return [key]
        default:
            var keys = Set<String>()
            for child in children {
                guard let more = child.propertyKeys else { return nil }
                keys.formUnion(more)
            }
            return keys
        }
    }

    /// MapLibre's rule for property values: `["zoom"]` appears only as the input of
    /// one `step` or `interpolate` at the top (or inside a top-level `coalesce`).
    var zoomIsOnlyCurveInput: Bool {
        switch self {
        case .step(.zoom, let first, let stops):
            return !first.dependsOnZoom && !stops.contains { $0.output.dependsOnZoom }
        case .interpolate(_, .zoom, let stops, _):
            return !stops.contains { $0.output.dependsOnZoom }
        case .coalesce(let operands):
            let curves = operands.filter(\.dependsOnZoom)
            return curves.count <= 1 && curves.allSatisfy(\.zoomIsOnlyCurveInput)
        case .fallback(let operand, _):
            return !operand.dependsOnZoom || operand.zoomIsOnlyCurveInput
        default:
            return !dependsOnZoom
        }
    }

    /// True if the value can differ between zooms.
    var dependsOnZoom: Bool {
        if case .zoom = self { return true }
        return children.contains { $0.dependsOnZoom }
    }
}

/// The six comparison operators of filters and expressions.
enum StyleComparison: String, Sendable, CaseIterable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// The arithmetic operators (cheap, and common in real styles' width functions).
enum StyleArithmetic: String, Sendable, CaseIterable {
    case plus = "+", minus = "-", times = "*", divide = "/", remainder = "%", power = "^", min, max
}

/// The value types `number`, `string` and `boolean` assert (and `array`, for
/// legacy identity functions).
enum StyleValueKind: String, Sendable {
    case number, string, boolean, array
}

/// One condition and its output in a `case` expression.
struct StyleCaseBranch: Sendable {
    var condition: StyleExpression
    var output: StyleExpression
}

/// One stop of a `step` or `interpolate` expression.
struct StyleStop: Sendable {
    var input: Double
    var output: StyleExpression
}
