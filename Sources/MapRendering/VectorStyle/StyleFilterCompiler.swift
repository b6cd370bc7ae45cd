/// Reads a layer's `filter` in either syntax. A filter is an expression when
/// MapLibre would read it as one (`classify`, after its `feature_filter`), else a
/// legacy filter, converted here to the same nodes with the legacy meaning
/// (`["==", "x", null]` requires `x` to exist; `$type` and `$id`).
struct StyleFilterCompiler {
    var expressions: StyleExpressionCompiler

    func compile(_ json: StyleJSON) throws -> StyleExpression {
        switch json {
        case .bool(let b): return .literal(.bool(b))
        case .array: break
        default: throw StyleCompileError.invalid("a filter is an array or a boolean, not \(json.summary)")
        }
        if classify(json) == .legacy {
            return try legacy(json, depth: 0)
        }
        return try expressions.compile(json, expecting: .boolean)
    }

    private enum Syntax { case expression, legacy, neutral }

    /// MapLibre's `classifyFilter`: which syntax a filter node belongs to.
    private func classify(_ json: StyleJSON) -> Syntax {
        if case .bool = json { return .neutral }
        guard case .array(let f) = json, case .string(let op)? = f.first else { return .legacy }
        let isArray = { (i: Int) -> Bool in if case .array = f[i] { return true } else { return false } }
        switch op {
        case "has":
            if f.count < 2 || f[1] == .string("$id") || f[1] == .string("$type") { return .legacy }
            return f.count == 2 ? .neutral : .expression
        case "in":
            guard f.count >= 3 else { return .legacy }
            if case .string = f[1], !isArray(2) { return .legacy }
            return .expression
        case "!in", "!has", "none":
            return .legacy
        case "==", "!=", ">", ">=", "<", "<=":
            return f.count != 3 || isArray(1) || isArray(2) ? .expression : .legacy
        case "any", "all":
            var sawLegacy = false
            for child in f.dropFirst() {
                switch classify(child) {
                case .expression: return .expression
                case .legacy: sawLegacy = true
                case .neutral: break
                }
            }
            return sawLegacy ? .legacy : .neutral
        default:
            return .expression
        }
    }

    /// MapLibre's `convertFilter`, straight to nodes.
    private func legacy(_ json: StyleJSON, depth: Int) throws -> StyleExpression {
        guard depth <= expressions.maximumDepth else {
            throw StyleCompileError.tooDeep(expressions.maximumDepth)
        }
        guard case .array(let f) = json else {
            throw StyleCompileError.invalid("a legacy filter is an array, not \(json.summary)")
        }
        guard case .string(let op)? = f.first else {
            throw StyleCompileError.invalid("a legacy filter starts with its operator")
        }
        if f.count <= 1 { return .literal(.bool(op != "any")) }
        func property() throws -> String {
            guard case .string(let key) = f[1] else {
                throw StyleCompileError.invalid("'\(op)' names a property with a string, not \(f[1].summary)")
            }
            return key
        }
        func getter(_ key: String) -> StyleExpression {
            key == "$type" ? .geometryType : key == "$id" ? .id : .get(key)
        }
        func value(_ json: StyleJSON) throws -> StyleValue {
            switch json {
            case .array, .object: throw StyleCompileError.invalid("'\(op)' compares with a string, number, boolean or null, not \(json.summary)")
            default: return try expressions.literal(json, expecting: .any)
            }
        }
        switch op {
        case "==", "!=", "<", "<=", ">", ">=":
            guard f.count == 3 else { throw StyleCompileError.invalid("'\(op)' takes a property and a value, not \(f.count - 1) arguments") }
            let key = try property()
            let operand = try value(f[2])
            let comparison = StyleComparison(rawValue: op)!
            if key == "$type", comparison != .equal, comparison != .notEqual {
                throw StyleCompileError.invalid("'$type' cannot be used with '\(op)'")
            }
            let compare = StyleExpression.compare(comparison, getter(key), .literal(operand))
            // A missing property is not equal to null in legacy filters.
            if operand == .null, key != "$id", key != "$type" {
                if comparison == .equal { return .all([.has(key), compare]) }
                if comparison == .notEqual { return .any([.not(.has(key)), compare]) }
            }
            return compare
        case "in", "!in":
            let key = try property()
            var branches: [StyleValue: Int] = [:]
            for element in f.dropFirst(2) { branches[try value(element)] = 0 }
            let test = StyleExpression.match(input: getter(key), branches: branches, outputs: [.literal(.bool(true))], fallback: .literal(.bool(false)))
            return op == "in" ? test : .not(test)
        case "has", "!has":
            guard f.count == 2 else { throw StyleCompileError.invalid("'\(op)' takes one property") }
            let key = try property()
            let test: StyleExpression = key == "$type" ? .literal(.bool(true))
                : key == "$id" ? .compare(.notEqual, .id, .literal(.null)) : .has(key)
            return op == "has" ? test : .not(test)
        case "all":
            return .all(try f.dropFirst().map { try legacy($0, depth: depth + 1) })
        case "any":
            return .any(try f.dropFirst().map { try legacy($0, depth: depth + 1) })
        case "none":
            return .not(.any(try f.dropFirst().map { try legacy($0, depth: depth + 1) }))
        default:
            throw StyleCompileError.unsupported("filter operator '\(op)'")
        }
    }
}
