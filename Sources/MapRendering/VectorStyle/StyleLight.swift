import Foundation

/// The style's root `light`: where the light that shades `fill-extrusion`
/// layers comes from, its colour and intensity (the style specification's
/// defaults when absent).
public struct StyleLight: Sendable, Hashable {
    /// `anchor` (default viewport): whether the light turns with the map
    /// (`map`) or stays where it is on the screen (`viewport`).
    public var anchor: StyleAlignment = .viewport
    /// `position`, `[radial, azimuthal, polar]` (default `[1.15, 210, 30]`):
    /// the distance from the map's centre, the angle clockwise from the top
    /// (degrees) and the angle from straight above (degrees).
    public var position: [Double] = [1.15, 210, 30]
    /// `color` (default white).
    public var color = StyleColor(red: 1, green: 1, blue: 1)
    /// `intensity`, 0…1 (default 0.5): how strongly faces turned away darken.
    public var intensity = 0.5

    /// The specification's defaults.
    public init() {}

    /// The position as a direction in tile space (x east, y south, z up),
    /// turned by `bearing` degrees when anchored to the viewport: MapLibre's
    /// `sphericalToCartesian` and the light matrix of `draw_fill_extrusion`.
    func direction(bearing: Double) -> SIMD3<Double> {
        let (r, azimuthal, polar) = (position[0], (position[1] + 90) * .pi / 180, position[2] * .pi / 180)
        let x = r * cos(azimuthal) * sin(polar), y = r * sin(azimuthal) * sin(polar), z = r * cos(polar)
        guard anchor == .viewport else { return SIMD3(x, y, z) }
        let angle = bearing * .pi / 180
        return SIMD3(cos(angle) * x - sin(angle) * y, sin(angle) * x + cos(angle) * y, z)
    }

    /// The light of a style's `light` object. A value that is not a literal
    /// (a zoom function) leaves its default and adds to `warnings`; a
    /// malformed literal throws naming the key.
    static func read(_ json: StyleJSON, warnings: inout [String]) throws -> StyleLight {
        guard case .object(let members) = json else {
            throw VectorStyleError(.invalidValue, property: "light", detail: "'light' is an object, not \(json.summary)")
        }
        func bad(_ key: String, _ expected: String, _ value: StyleJSON) -> VectorStyleError {
            VectorStyleError(.invalidValue, property: "light", detail: "light '\(key)' is \(expected), not \(value.summary)")
        }
        var light = StyleLight()
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            switch (key, value) {
            case ("anchor", .string(let text)):
                guard let anchor = StyleAlignment(rawValue: text) else { throw bad(key, "\"map\" or \"viewport\"", value) }
                light.anchor = anchor
            case ("position", .array(let elements)) where elements.count == 3 && elements.allSatisfy({ if case .number = $0 { true } else { false } }):
                light.position = elements.map { if case .number(let n) = $0 { n } else { 0 } }
                guard light.position.allSatisfy(\.isFinite) else { throw bad(key, "three finite numbers", value) }
            case ("color", .string(let text)):
                guard let color = StyleColor(css: text) else { throw bad(key, "a colour", value) }
                light.color = color
            case ("intensity", .number(let n)):
                guard n >= 0, n <= 1 else { throw bad(key, "a number 0…1", value) }
                light.intensity = n
            case ("position", .array(let elements)) where elements.first.map({ if case .string = $0 { true } else { false } }) ?? false:
                warnings.append("light '\(key)': only a literal value is supported; the default is used")
            case ("anchor", .object), ("position", .object), ("color", .object), ("intensity", .object),
                 ("color", .array), ("intensity", .array), ("anchor", .array):
                warnings.append("light '\(key)': only a literal value is supported; the default is used")
            case ("anchor", _), ("position", _), ("color", _), ("intensity", _):
                throw bad(key, key == "position" ? "[radial, azimuthal, polar]" : "a valid value", value)
            default:
                warnings.append("light property '\(key)' is not supported")
            }
        }
        return light
    }
}
