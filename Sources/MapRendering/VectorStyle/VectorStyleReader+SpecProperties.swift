extension VectorStyleReader {
    /// Every paint and layout property the MapLibre style specification defines
    /// for the layer types we draw, supported or not: a key outside these is a
    /// typo (`line-colour`), answered with the nearest name; a key inside them
    /// we do not draw (`line-blur`) is only said to be unsupported.
    static let specificationProperties: [String: (layout: [String], paint: [String])] = [
        "background": (["visibility"], ["background-color", "background-pattern", "background-opacity"]),
        "fill": (["fill-sort-key", "visibility"],
                 ["fill-antialias", "fill-opacity", "fill-color", "fill-outline-color", "fill-translate", "fill-translate-anchor", "fill-pattern"]),
        "line": (["line-cap", "line-join", "line-miter-limit", "line-round-limit", "line-sort-key", "visibility"],
                 ["line-opacity", "line-color", "line-translate", "line-translate-anchor", "line-width", "line-gap-width", "line-offset",
                  "line-blur", "line-dasharray", "line-pattern", "line-gradient"]),
        "heatmap": (["visibility"], ["heatmap-radius", "heatmap-weight", "heatmap-intensity", "heatmap-color", "heatmap-opacity"]),
        "fill-extrusion": (["visibility"],
                           ["fill-extrusion-opacity", "fill-extrusion-color", "fill-extrusion-translate", "fill-extrusion-translate-anchor",
                            "fill-extrusion-pattern", "fill-extrusion-height", "fill-extrusion-base", "fill-extrusion-vertical-gradient"]),
        "circle": (["circle-sort-key", "visibility"],
                   ["circle-radius", "circle-color", "circle-blur", "circle-opacity", "circle-translate", "circle-translate-anchor",
                    "circle-pitch-scale", "circle-pitch-alignment", "circle-stroke-width", "circle-stroke-color", "circle-stroke-opacity"]),
        "symbol": (["symbol-placement", "symbol-spacing", "symbol-avoid-edges", "symbol-sort-key", "symbol-z-order", "icon-allow-overlap",
                    "icon-overlap", "icon-ignore-placement", "icon-optional", "icon-rotation-alignment", "icon-size", "icon-text-fit",
                    "icon-text-fit-padding", "icon-image", "icon-rotate", "icon-padding", "icon-keep-upright", "icon-offset", "icon-anchor",
                    "icon-pitch-alignment", "text-pitch-alignment", "text-rotation-alignment", "text-field", "text-font", "text-size",
                    "text-max-width", "text-line-height", "text-letter-spacing", "text-justify", "text-radial-offset", "text-variable-anchor",
                    "text-variable-anchor-offset", "text-anchor", "text-max-angle", "text-writing-mode", "text-rotate", "text-padding",
                    "text-keep-upright", "text-transform", "text-offset", "text-allow-overlap", "text-overlap", "text-ignore-placement",
                    "text-optional", "visibility"],
                   ["icon-opacity", "icon-color", "icon-halo-color", "icon-halo-width", "icon-halo-blur", "icon-translate",
                    "icon-translate-anchor", "text-opacity", "text-color", "text-halo-color", "text-halo-width", "text-halo-blur",
                    "text-translate", "text-translate-anchor"]),
    ]

    /// The warning for `key` of a `type` layer's `section` (`paint` or
    /// `layout`) that we do not draw: with a did-you-mean when the
    /// specification has no such property but one near it.
    static func unsupportedPropertyWarning(_ key: String, section: String, type: String) -> String {
        let sections = specificationProperties[type] ?? ([], [])
        let (known, other) = section == "paint" ? (sections.paint, sections.layout) : (sections.layout, sections.paint)
        let hint = known.contains(key) ? ""
            : other.contains(key) ? "; it is a \(section == "paint" ? "layout" : "paint") property"
            : NameSuggestion.didYouMean(key, in: known)
        return "\(section) property '\(key)' is not supported" + hint
    }
}
