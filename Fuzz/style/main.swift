import Foundation
@testable import MapRendering

// libFuzzer entry for the vector style reader. The first byte picks what the rest
// is: a whole style (0), or an expression placed as a layer's filter (1), its
// `line-width` (2), `line-color` (3) or `text-field` (4). Only VectorStyleError
// may be thrown; a style that reads must evaluate every layer at several zooms
// for a few features, with values in their property's range.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVectorStyle(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let body = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let json: String
    switch bytes[0] % 5 {
    case 0: json = body
    case 1: json = layer(#""filter": "# + body)
    case 2: json = layer(#""paint": {"line-width": "# + body + "}")
    case 3: json = layer(#""paint": {"line-color": "# + body + "}")
    default: json = symbolLayer(#""layout": {"text-field": "# + body + "}")
    }
    let style: VectorStyle
    do {
        style = try VectorStyle(json: json)
    } catch is VectorStyleError {
        return 0
    } catch {
        preconditionFailure("VectorStyle threw \(error)")
    }
    precondition(Set(style.warnings).count == style.warnings.count, "a warning repeats")
    for layer in style.layers {
        for zoom in [0, 7.5, 14, 22.9] {
            let zoomed = layer.atZoom(zoom)
            for feature in features {
                _ = zoomed.matches(feature, atZoom: zoom)
                check(zoomed.kind, zoom, feature)
            }
        }
    }
    return 0
}

struct FuzzFeature: StyleFeature {
    var properties: [String: StyleValue]
    var featureID: UInt64?
    var styleGeometryType: StyleGeometryType
    func styleValue(forKey key: String) -> StyleValue? { properties[key] }
}

let features = [
    FuzzFeature(properties: [:], featureID: nil, styleGeometryType: .point),
    FuzzFeature(properties: ["class": .string("primary"), "name": .string("Main"), "rank": .number(3), "x": .number(1e308), "b": .bool(true)],
                featureID: 7, styleGeometryType: .lineString),
    FuzzFeature(properties: ["class": .number(-1), "name": .null, "rank": .string("3"), "x": .number(-0.0), "b": .string("")],
                featureID: .max, styleGeometryType: .polygon),
]

func layer(_ members: String) -> String {
    #"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "l", "type": "line", "source": "s", "source-layer": "t", "# + members + "}]}"
}

func symbolLayer(_ members: String) -> String {
    #"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "l", "type": "symbol", "source": "s", "source-layer": "t", "# + members + "}]}"
}

func checkColor(_ property: StyleProperty<StyleColor>, _ zoom: Double, _ feature: FuzzFeature) {
    let c = property.value(atZoom: zoom, for: feature)
    for channel in [c.red, c.green, c.blue, c.alpha] { precondition((0...1).contains(channel), "colour channel \(channel)") }
    _ = c.rgba
}

func checkLength(_ property: StyleProperty<Double>, _ zoom: Double, _ feature: FuzzFeature) {
    let value = property.value(atZoom: zoom, for: feature)
    precondition(value.isFinite && value >= 0, "length \(value)")
}

func checkOpacity(_ property: StyleProperty<Double>, _ zoom: Double, _ feature: FuzzFeature) {
    precondition((0...1).contains(property.value(atZoom: zoom, for: feature)), "opacity")
}

func check(_ kind: StyleLayer.Kind, _ zoom: Double, _ feature: FuzzFeature) {
    switch kind {
    case .background(let s):
        checkColor(s.color, zoom, feature); checkOpacity(s.opacity, zoom, feature)
    case .fill(let s):
        checkColor(s.color, zoom, feature); checkOpacity(s.opacity, zoom, feature)
        precondition(s.translate.value(atZoom: zoom, for: feature).count == 2)
        _ = s.outlineColor.value(atZoom: zoom, for: feature)?.rgba
    case .line(let s):
        checkColor(s.color, zoom, feature); checkOpacity(s.opacity, zoom, feature)
        checkLength(s.width, zoom, feature); checkLength(s.gapWidth, zoom, feature); checkLength(s.miterLimit, zoom, feature)
        precondition(s.dashArray.value(atZoom: zoom, for: feature).allSatisfy { $0.isFinite && $0 >= 0 })
        precondition(s.offset.value(atZoom: zoom, for: feature).isFinite)
        _ = (s.cap.value(atZoom: zoom, for: feature), s.join.value(atZoom: zoom, for: feature))
    case .symbol(let s):
        checkColor(s.textColor, zoom, feature); checkColor(s.haloColor, zoom, feature)
        checkLength(s.textSize, zoom, feature); checkLength(s.haloWidth, zoom, feature); checkOpacity(s.textOpacity, zoom, feature)
        _ = (s.textField.value(atZoom: zoom, for: feature), s.placement.value(atZoom: zoom, for: feature))
    case .circle(let s):
        checkColor(s.color, zoom, feature); checkColor(s.strokeColor, zoom, feature)
        checkOpacity(s.opacity, zoom, feature); checkOpacity(s.strokeOpacity, zoom, feature)
        checkLength(s.radius, zoom, feature); checkLength(s.strokeWidth, zoom, feature)
        precondition(s.blur.value(atZoom: zoom, for: feature).isFinite)
        precondition(s.translate.value(atZoom: zoom, for: feature).count == 2)
    case .raster(let s):
        for property in [s.opacity, s.brightnessMin, s.brightnessMax] { checkOpacity(property, zoom, feature) }
        for property in [s.hueRotate, s.saturation, s.contrast] { precondition(property.value(atZoom: zoom, for: feature).isFinite) }
        _ = s.resampling.value(atZoom: zoom, for: feature)
    case .hillshade(let s):
        for property in [s.shadowColor, s.highlightColor, s.accentColor] { checkColor(property, zoom, feature) }
        checkOpacity(s.exaggeration, zoom, feature)
        precondition(s.illuminationDirection.value(atZoom: zoom, for: feature).isFinite)
        _ = s.illuminationAnchor.value(atZoom: zoom, for: feature)
    case .heatmap(let s):
        checkColor(s.color, zoom, feature); checkOpacity(s.opacity, zoom, feature)
        checkLength(s.radius, zoom, feature); checkLength(s.weight, zoom, feature); checkLength(s.intensity, zoom, feature)
    case .fillExtrusion(let s):
        checkColor(s.color, zoom, feature); checkOpacity(s.opacity, zoom, feature)
        for property in [s.height, s.base] { precondition(property.value(atZoom: zoom, for: feature).isFinite) }
        precondition(s.translate.value(atZoom: zoom, for: feature).count == 2)
        _ = (s.translateAnchor.value(atZoom: zoom, for: feature), s.verticalGradient.value(atZoom: zoom, for: feature))
    }
}
