/// One paint or layout property of a layer (or its filter): a constant, or an
/// expression read once from the style.
///
/// Compilation splits the three cases a renderer cares about: a constant; a value
/// that depends on the zoom only (``atZoom(_:)`` folds it to a constant once per
/// render); and a value that depends on each feature (``isFeatureDependent``),
/// evaluated by ``value(atZoom:for:)`` per feature. A value that does not convert
/// to the property's type (a string for a width, a negative width) gives the
/// property's default, as MapLibre does on an evaluation error.
public struct StyleProperty<Value: Sendable>: Sendable {
    enum Storage: Sendable {
        case constant(Value)
        case expression(StyleExpression, dependsOnFeature: Bool)
    }

    let storage: Storage
    /// The spec's default, used where an expression gives null or a wrong type.
    public let defaultValue: Value
    let convert: @Sendable (StyleValue) -> Value?

    init(constant: Value, convert: @escaping @Sendable (StyleValue) -> Value?) {
        storage = .constant(constant)
        defaultValue = constant
        self.convert = convert
    }

    /// A property from its compiled expression: folded to a constant now if it
    /// depends on neither zoom nor feature. Nil if such a constant does not
    /// convert (the caller reports the malformed value).
    init?(expression: StyleExpression, defaultValue: Value, convert: @escaping @Sendable (StyleValue) -> Value?) {
        self.defaultValue = defaultValue
        self.convert = convert
        let dependsOnFeature = expression.dependsOnFeature
        if !dependsOnFeature, !expression.dependsOnZoom {
            guard let value = (try? expression.evaluate(zoom: 0, feature: NoStyleFeature())).flatMap(convert) else { return nil }
            storage = .constant(value)
        } else {
            storage = .expression(expression, dependsOnFeature: dependsOnFeature)
        }
    }

    private init(storage: Storage, defaultValue: Value, convert: @escaping @Sendable (StyleValue) -> Value?) {
        self.storage = storage
        self.defaultValue = defaultValue
        self.convert = convert
    }

    /// The value when it is the same at every zoom for every feature.
    public var constantValue: Value? {
        if case .constant(let value) = storage { return value }
        return nil
    }

    /// True if the value can differ between features at one zoom.
    public var isFeatureDependent: Bool {
        if case .expression(_, true) = storage { return true }
        return false
    }

    /// The feature properties the value reads: none when it is the same for
    /// every feature, nil when it reads the feature's id.
    var propertyKeys: Set<String>? {
        guard case .expression(let expression, true) = storage else { return [] }
        return expression.propertyKeys
    }

    /// This property at `zoom`: a constant unless it depends on the feature. Call
    /// once per layer per render, then ``value(atZoom:for:)`` per feature.
    public func atZoom(_ zoom: Double) -> StyleProperty {
        guard case .expression(let expression, false) = storage else { return self }
        let value = resolve(expression, zoom, NoStyleFeature())
        return StyleProperty(storage: .constant(value), defaultValue: defaultValue, convert: convert)
    }

    /// The value at `zoom` for `feature`.
    public func value<Feature: StyleFeature>(atZoom zoom: Double, for feature: Feature) -> Value {
        switch storage {
        case .constant(let value): return value
        case .expression(let expression, _): return resolve(expression, zoom, feature)
        }
    }

    /// The value at `zoom` where no feature is at hand (a background); a
    /// feature-dependent property sees a point with no id and no properties.
    public func value(atZoom zoom: Double) -> Value {
        switch storage {
        case .constant(let value): return value
        case .expression(let expression, _): return resolve(expression, zoom, NoStyleFeature())
        }
    }

    /// The expression's value converted, or the default on an evaluation error or
    /// a value of the wrong type.
    private func resolve<Feature: StyleFeature>(_ expression: StyleExpression, _ zoom: Double, _ feature: Feature) -> Value {
        guard let value = try? expression.evaluate(zoom: zoom, feature: feature), let converted = convert(value) else { return defaultValue }
        return converted
    }
}

extension Set<String> {
    /// Every key of `sets` (the ``StyleProperty`` `propertyKeys` of a layer's
    /// properties), or nil when one of them is nil: something reads the feature's id.
    init?(unionOf sets: [Set<String>?]) {
        self.init()
        for set in sets {
            guard let set else { return nil }
            formUnion(set)
        }
    }
}
