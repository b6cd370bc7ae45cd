/// Reads a decoded style document: top-level keys, sources, then each layer
/// through a `StyleLayerReader`. Limits are checked before the work they bound.
struct VectorStyleReader {
    let limits: StyleLimits
    private var warnings: [String] = []
    private var warned: Set<String> = []

    init(limits: StyleLimits) {
        self.limits = limits
    }

    /// Top-level keys not warned about: read elsewhere (`glyphs`, `sprite`,
    /// `sources`, `layers`) or deliberately ignored: the camera comes from the
    /// URL, metadata means nothing to drawing.
    static let ignoredKeys: Set<String> = ["version", "name", "sources", "layers", "metadata", "glyphs", "sprite", "center", "zoom", "bearing", "pitch", "transition", "light"]

    private mutating func warn(_ message: String) {
        if warned.insert(message).inserted { warnings.append(message) }
    }

    mutating func read(_ json: StyleJSON) throws -> VectorStyle {
        guard case .object(let root) = json else {
            throw VectorStyleError(.malformedJSON, detail: "a style is a JSON object, not \(json.summary)")
        }
        if let version = root["version"], version != .number(8) {
            throw VectorStyleError(.invalidValue, property: "version", detail: "the style version is \(version.summary), not 8")
        }
        var name: String?
        if case .string(let text)? = root["name"] { name = text }
        for key in root.keys.sorted() where !Self.ignoredKeys.contains(key) {
            warn("style property '\(key)' is not supported")
        }
        let sprites = try root["sprite"].map(StyleSprite.read) ?? []
        let (sources, otherSources) = try readSources(root["sources"])
        guard case .array(let layerList)? = root["layers"] else {
            throw VectorStyleError(.invalidValue, property: "layers", detail: "a style needs a 'layers' array")
        }
        guard layerList.count <= limits.maximumLayerCount else {
            throw VectorStyleError(.limitExceeded, property: "layers", detail: "the style has \(layerList.count) layers, over the limit of \(limits.maximumLayerCount)")
        }
        var layers: [StyleLayer] = []
        var ids: Set<String> = []
        for (index, layerJSON) in layerList.enumerated() {
            do {
                guard case .object(let members) = layerJSON, case .string(let id)? = members["id"] else {
                    throw VectorStyleError(.invalidValue, property: "layers", detail: "layer \(index) is not an object with a string 'id'")
                }
                guard ids.insert(id).inserted else {
                    throw VectorStyleError(.invalidValue, layer: id, property: "id", detail: "the id is used by an earlier layer")
                }
                var reader = StyleLayerReader(id: id, limits: limits)
                let layer = try readLayer(members, reader: &reader, sources: sources, otherSources: otherSources)
                reader.warnings.forEach { warn($0) }
                if let layer { layers.append(layer) }
            } catch var error as VectorStyleError {
                // Where in the document: `VectorStyle` turns it into a line and column.
                error.layerIndex = index
                throw error
            }
        }
        var glyphs: String?
        if let value = root["glyphs"] {
            guard case .string(let template) = value else {
                throw VectorStyleError(.invalidValue, property: "glyphs", detail: "'glyphs' is a URL string, not \(value.summary)")
            }
            glyphs = template
        }
        var style = VectorStyle(name: name, sources: sources, layers: layers, warnings: warnings, glyphs: glyphs)
        style.sprites = sprites
        if let light = root["light"] {
            var lightWarnings: [String] = []
            style.light = try StyleLight.read(light, warnings: &lightWarnings)
            lightWarnings.forEach { warn($0) }
            style.warnings = warnings
        }
        return style
    }

    /// The vector sources, and the names of sources of other types (warned).
    private mutating func readSources(_ json: StyleJSON?) throws -> ([String: VectorStyleSource], Set<String>) {
        guard let json else { return ([:], []) }
        guard case .object(let members) = json else {
            throw VectorStyleError(.invalidValue, property: "sources", detail: "'sources' is an object, not \(json.summary)")
        }
        var sources: [String: VectorStyleSource] = [:]
        var others: Set<String> = []
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            guard case .object(let source) = value, case .string(let type)? = source["type"] else {
                throw VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)' is not an object with a string 'type'")
            }
            guard ["vector", "geojson", "raster", "raster-dem", "image", "video", "canvas"].contains(type) else {
                warn("source '\(name)': source type '\(type)' is not supported")
                others.insert(name)
                continue
            }
            func string(_ key: String) throws -> String? {
                guard let value = source[key] else { return nil }
                guard case .string(let text) = value else {
                    throw VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)': '\(key)' is a string, not \(value.summary)")
                }
                return text
            }
            func zoom(_ key: String) throws -> Int? {
                guard let value = source[key] else { return nil }
                guard case .number(let z) = value, z >= 0, z <= 30, z == z.rounded() else {
                    throw VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)': '\(key)' is a zoom 0–30, not \(value.summary)")
                }
                return Int(z)
            }
            var tiles: [String] = []
            if let list = source["tiles"] {
                guard case .array(let elements) = list else {
                    throw VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)': 'tiles' is an array of strings")
                }
                for element in elements {
                    guard case .string(let template) = element else {
                        throw VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)': 'tiles' is an array of strings")
                    }
                    tiles.append(template)
                }
            }
            if type == "geojson" {
                var geojson = GeoJSONSourceReader(name: name, members: source)
                sources[name] = VectorStyleSource(name: name, url: nil, tiles: [], minimumZoom: nil, maximumZoom: nil,
                                                  attribution: try string("attribution"), kind: .geojson(try geojson.read()))
                geojson.warnings.forEach { warn($0) }
                continue
            }
            var kind = VectorStyleSource.Kind.vector
            switch type {
            case "raster", "raster-dem":
                kind = try RasterSourceReader(name: name, members: source).read(dem: type == "raster-dem")
            case "image", "video", "canvas":
                kind = try RasterSourceReader(name: name, members: source).readPicture(type: type)
            default:
                break
            }
            var scheme: TileScheme?
            if let text = try string("scheme") {
                guard let known = TileScheme(rawValue: text) else {
                    throw VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)': 'scheme' is \"xyz\" or \"tms\", not \"\(text)\"")
                }
                scheme = known
            }
            var bounds: GeoBounds?
            if let value = source["bounds"] {
                let numbers: [Double]
                if case .array(let elements) = value {
                    numbers = elements.compactMap { element -> Double? in if case .number(let n) = element { return n } else { return nil } }
                } else {
                    numbers = []
                }
                guard numbers.count == 4, let box = GeoBounds.checked(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3]) else {
                    throw VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)': 'bounds' is [west, south, east, north] in degrees, west < east and south < north, not \(value.summary)")
                }
                bounds = box
            }
            var encoding = VectorTileEncoding.mvt
            if type == "vector", let text = try string("encoding") {
                guard let known = VectorTileEncoding(rawValue: text) else {
                    throw VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)': 'encoding' is \"mvt\" or \"mlt\", not \"\(text)\"")
                }
                encoding = known
            }
            sources[name] = VectorStyleSource(name: name, url: try string("url"), tiles: tiles, minimumZoom: try zoom("minzoom"),
                                              maximumZoom: try zoom("maxzoom"), attribution: try string("attribution"), kind: kind,
                                              scheme: scheme, bounds: bounds, encoding: encoding)
        }
        return (sources, others)
    }

    static let layerKeys: Set<String> = ["id", "type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout", "paint", "metadata"]
    static let supportedTypes: Set<String> = ["background", "fill", "line", "symbol", "circle", "raster", "hillshade", "heatmap", "fill-extrusion"]

    private mutating func readLayer(_ members: [String: StyleJSON], reader: inout StyleLayerReader,
                                    sources: [String: VectorStyleSource], otherSources: Set<String>) throws -> StyleLayer? {
        guard case .string(let type)? = members["type"] else {
            throw reader.invalid("type", "a layer needs a string 'type'")
        }
        guard Self.supportedTypes.contains(type) else {
            reader.warn("layer type '\(type)' is not supported" + NameSuggestion.didYouMean(type, in: Self.supportedTypes.sorted()))
            return nil
        }
        for key in members.keys.sorted() where !Self.layerKeys.contains(key) {
            reader.warn("layer property '\(key)' is not supported" + NameSuggestion.didYouMean(key, in: Self.layerKeys.sorted()))
        }
        var source: String?, sourceLayer: String?
        if type != "background" {
            guard case .string(let name)? = members["source"] else { throw reader.invalid("source", "a \(type) layer needs a string 'source'") }
            if otherSources.contains(name) {
                reader.warn("source '\(name)' is not a vector source; the layer is not drawn")
                return nil
            }
            guard let declared = sources[name] else { throw reader.invalid("source", "source '\(name)' is not declared in 'sources'") }
            source = name
            let fits: Bool
            switch (type, declared.kind) {
            case ("raster", .raster), ("raster", .image), ("hillshade", .rasterDEM): fits = true
            case ("raster", _), ("hillshade", _): fits = false
            default: fits = !declared.isPicture
            }
            guard fits else {
                let wanted = type == "raster" ? "a 'raster' or 'image'" : type == "hillshade" ? "a 'raster-dem'" : "a 'vector' or 'geojson'"
                throw reader.invalid("source", "a \(type) layer draws from \(wanted) source; '\(name)' is not one")
            }
            if declared.isPicture {
                sourceLayer = nil
            } else if case .geojson = declared.kind {
                // A GeoJSON source's tiles have one layer; `source-layer` means nothing to it.
                sourceLayer = GeoJSONTiles.layerName
            } else if case .string(let layerName)? = members["source-layer"] {
                sourceLayer = layerName
            } else {
                throw reader.invalid("source-layer", "a \(type) layer of a vector source needs a string 'source-layer'")
            }
        }
        func zoom(_ key: String, _ fallback: Double) throws -> Double {
            guard let value = members[key] else { return fallback }
            guard case .number(let z) = value, z >= 0, z <= 24 else { throw reader.invalid(key, "a zoom is a number 0–24, not \(value.summary)") }
            return z
        }
        let minimumZoom = try zoom("minzoom", 0), maximumZoom = try zoom("maxzoom", 24)
        let layout = try section("layout", members, reader)
        let paint = try section("paint", members, reader)

        var isVisible = true
        if let visibility = layout["visibility"] {
            guard visibility == .string("visible") || visibility == .string("none") else {
                throw reader.invalid("visibility", "visibility is 'visible' or 'none', not \(visibility.summary)", section: "layout")
            }
            isVisible = visibility == .string("visible")
        }
        var supported = Self.supportedProperties[type]!
        if type == "symbol" {
            supported.layout.formUnion(SymbolIconStyle.properties.layout)
            supported.layout.formUnion(SymbolAlignmentStyle.properties)
            supported.paint.formUnion(SymbolIconStyle.properties.paint)
            supported.layout.formUnion(SymbolPlacementStyle.properties.layout)
            supported.paint.formUnion(SymbolPlacementStyle.properties.paint)
        }
        for key in layout.keys.sorted() where !supported.layout.contains(key) && key != "visibility" {
            reader.warn(Self.unsupportedPropertyWarning(key, section: "layout", type: type))
        }
        for key in paint.keys.sorted() where !supported.paint.contains(key) && !key.hasSuffix("-transition") {
            reader.warn(Self.unsupportedPropertyWarning(key, section: "paint", type: type))
        }
        guard let filter = try reader.filter(members["filter"]) else { return nil }

        let kind: StyleLayer.Kind
        typealias R = StyleLayerReader
        switch type {
        case "background":
            kind = .background(BackgroundLayerStyle(
                color: try reader.property("background-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color),
                opacity: try reader.property("background-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
                pattern: try reader.property("background-pattern", in: paint, "paint", type: .string, default: "", convert: R.text)))
        case "fill":
            kind = .fill(FillLayerStyle(
                color: try reader.property("fill-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color),
                opacity: try reader.property("fill-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
                outlineColor: try reader.property("fill-outline-color", in: paint, "paint", type: .color, default: nil, convert: R.optionalColor),
                translate: try reader.property("fill-translate", in: paint, "paint", type: .numberArray, default: [0, 0], convert: R.offset),
                translateAnchor: try reader.property("fill-translate-anchor", in: paint, "paint", type: .enumeration, default: .map,
                                                     convert: R.enumeration(StyleAlignment.self)),
                antialias: try reader.property("fill-antialias", in: paint, "paint", type: .boolean, default: true, convert: R.boolean),
                sortKey: try reader.property("fill-sort-key", in: layout, "layout", type: .number, default: 0, convert: R.number),
                pattern: try reader.property("fill-pattern", in: paint, "paint", type: .string, default: "", convert: R.text)))
        case "line":
            kind = .line(LineLayerStyle(
                color: try reader.property("line-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color),
                width: try reader.property("line-width", in: paint, "paint", type: .number, default: 1, convert: R.length),
                opacity: try reader.property("line-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
                gapWidth: try reader.property("line-gap-width", in: paint, "paint", type: .number, default: 0, convert: R.length),
                dashArray: try reader.property("line-dasharray", in: paint, "paint", type: .numberArray, default: [], convert: R.dashes),
                offset: try reader.property("line-offset", in: paint, "paint", type: .number, default: 0, convert: R.number),
                blur: try reader.property("line-blur", in: paint, "paint", type: .number, default: 0, convert: R.length),
                translate: try reader.property("line-translate", in: paint, "paint", type: .numberArray, default: [0, 0], convert: R.offset),
                translateAnchor: try reader.property("line-translate-anchor", in: paint, "paint", type: .enumeration, default: .map,
                                                     convert: R.enumeration(StyleAlignment.self)),
                cap: try reader.property("line-cap", in: layout, "layout", type: .enumeration, default: .butt, convert: R.enumeration(StyleLineCap.self)),
                join: try reader.property("line-join", in: layout, "layout", type: .enumeration, default: .miter, convert: R.enumeration(StyleLineJoin.self)),
                miterLimit: try reader.property("line-miter-limit", in: layout, "layout", type: .number, default: 2, convert: R.length),
                sortKey: try reader.property("line-sort-key", in: layout, "layout", type: .number, default: 0, convert: R.number),
                gradient: paint["line-gradient"] == nil ? nil
                    : try reader.property("line-gradient", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0, alpha: 0), convert: R.color),
                pattern: try reader.property("line-pattern", in: paint, "paint", type: .string, default: "", convert: R.text)))
        case "raster":
            kind = .raster(RasterLayerStyle(
                opacity: try reader.property("raster-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
                hueRotate: try reader.property("raster-hue-rotate", in: paint, "paint", type: .number, default: 0, convert: R.number),
                brightnessMin: try reader.property("raster-brightness-min", in: paint, "paint", type: .number, default: 0, convert: R.opacity),
                brightnessMax: try reader.property("raster-brightness-max", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
                saturation: try reader.property("raster-saturation", in: paint, "paint", type: .number, default: 0, convert: R.signedUnit),
                contrast: try reader.property("raster-contrast", in: paint, "paint", type: .number, default: 0, convert: R.signedUnit),
                resampling: try reader.property("raster-resampling", in: paint, "paint", type: .enumeration, default: .linear,
                                                convert: R.enumeration(RasterLayerStyle.Resampling.self))))
        case "hillshade":
            kind = .hillshade(HillshadeLayerStyle(
                illuminationDirection: try reader.property("hillshade-illumination-direction", in: paint, "paint", type: .number, default: 335, convert: R.number),
                illuminationAnchor: try reader.property("hillshade-illumination-anchor", in: paint, "paint", type: .enumeration, default: .viewport,
                                                        convert: R.enumeration(HillshadeLayerStyle.Anchor.self)),
                exaggeration: try reader.property("hillshade-exaggeration", in: paint, "paint", type: .number, default: 0.5, convert: R.opacity),
                shadowColor: try reader.property("hillshade-shadow-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color),
                highlightColor: try reader.property("hillshade-highlight-color", in: paint, "paint", type: .color, default: StyleColor(red: 1, green: 1, blue: 1), convert: R.color),
                accentColor: try reader.property("hillshade-accent-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color)))
        case "heatmap":
            // The default colour is an expression over the density, so it is read as one.
            var paint = paint
            if paint["heatmap-color"] == nil {
                paint["heatmap-color"] = HeatmapLayerStyle.defaultColor
            }
            kind = .heatmap(HeatmapLayerStyle(
                radius: try reader.property("heatmap-radius", in: paint, "paint", type: .number, default: 30, convert: R.atLeastOne),
                weight: try reader.property("heatmap-weight", in: paint, "paint", type: .number, default: 1, convert: R.length),
                intensity: try reader.property("heatmap-intensity", in: paint, "paint", type: .number, default: 1, convert: R.length),
                color: try reader.property("heatmap-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0, alpha: 0), convert: R.color),
                opacity: try reader.property("heatmap-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity)))
        case "fill-extrusion":
            kind = .fillExtrusion(FillExtrusionLayerStyle(
                color: try reader.property("fill-extrusion-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color),
                opacity: try reader.property("fill-extrusion-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
                height: try reader.property("fill-extrusion-height", in: paint, "paint", type: .number, default: 0, convert: R.number),
                base: try reader.property("fill-extrusion-base", in: paint, "paint", type: .number, default: 0, convert: R.number),
                translate: try reader.property("fill-extrusion-translate", in: paint, "paint", type: .numberArray, default: [0, 0], convert: R.offset),
                translateAnchor: try reader.property("fill-extrusion-translate-anchor", in: paint, "paint", type: .enumeration, default: .map,
                                                     convert: R.enumeration(StyleAlignment.self)),
                verticalGradient: try reader.property("fill-extrusion-vertical-gradient", in: paint, "paint", type: .boolean, default: true,
                                                      convert: R.boolean),
                pattern: try reader.property("fill-extrusion-pattern", in: paint, "paint", type: .string, default: "", convert: R.text)))
        case "circle":
            kind = .circle(CircleLayerStyle(
                radius: try reader.property("circle-radius", in: paint, "paint", type: .number, default: 5, convert: R.length),
                color: try reader.property("circle-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color),
                blur: try reader.property("circle-blur", in: paint, "paint", type: .number, default: 0, convert: R.number),
                opacity: try reader.property("circle-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
                translate: try reader.property("circle-translate", in: paint, "paint", type: .numberArray, default: [0, 0], convert: R.offset),
                translateAnchor: try reader.property("circle-translate-anchor", in: paint, "paint", type: .enumeration, default: .map,
                                                     convert: R.enumeration(StyleAlignment.self)),
                pitchScale: try reader.property("circle-pitch-scale", in: paint, "paint", type: .enumeration, default: .map,
                                                convert: R.enumeration(StyleAlignment.self)),
                pitchAlignment: try reader.property("circle-pitch-alignment", in: paint, "paint", type: .enumeration, default: .viewport,
                                                    convert: R.enumeration(StyleAlignment.self)),
                strokeWidth: try reader.property("circle-stroke-width", in: paint, "paint", type: .number, default: 0, convert: R.length),
                strokeColor: try reader.property("circle-stroke-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color),
                strokeOpacity: try reader.property("circle-stroke-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
                sortKey: try reader.property("circle-sort-key", in: layout, "layout", type: .number, default: nil, convert: R.optionalNumber)))
        default:
            var layout = layout
            // A `format` text: its sections kept, its plain text the layer's `text-field`.
            let format = try layout["text-field"].flatMap { try StyleFormattedText.read($0, reader: &reader) }
            if format != nil, let field = layout["text-field"] { layout["text-field"] = StyleFormattedText.plainTextExpression(field) }
            kind = .symbol(SymbolLayerStyle(
                textField: try reader.property("text-field", in: layout, "layout", type: .string, default: "", convert: R.text),
                textSize: try reader.property("text-size", in: layout, "layout", type: .number, default: 16, convert: R.length),
                placement: try reader.property("symbol-placement", in: layout, "layout", type: .enumeration, default: .point, convert: R.enumeration(StyleSymbolPlacement.self)),
                maxWidth: try reader.property("text-max-width", in: layout, "layout", type: .number, default: 10, convert: R.length),
                spacing: try reader.property("symbol-spacing", in: layout, "layout", type: .number, default: 250, convert: R.atLeastOne),
                padding: try reader.property("text-padding", in: layout, "layout", type: .number, default: 2, convert: R.length),
                maxAngle: try reader.property("text-max-angle", in: layout, "layout", type: .number, default: 45, convert: R.number),
                allowOverlap: try reader.property("text-allow-overlap", in: layout, "layout", type: .boolean, default: false, convert: R.boolean),
                ignorePlacement: try reader.property("text-ignore-placement", in: layout, "layout", type: .boolean, default: false, convert: R.boolean),
                textColor: try reader.property("text-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0), convert: R.color),
                haloColor: try reader.property("text-halo-color", in: paint, "paint", type: .color, default: StyleColor(red: 0, green: 0, blue: 0, alpha: 0), convert: R.color),
                haloWidth: try reader.property("text-halo-width", in: paint, "paint", type: .number, default: 0, convert: R.length),
                textOpacity: try reader.property("text-opacity", in: paint, "paint", type: .number, default: 1, convert: R.opacity),
                icon: try SymbolIconStyle.read(layout: layout, paint: paint, reader: &reader),
                text: try SymbolTextStyle(layout: layout, paint: paint, reader: &reader),
                order: try SymbolPlacementStyle(layout: layout, paint: paint, reader: &reader), format: format,
                alignment: try SymbolAlignmentStyle.read(layout: layout, reader: &reader)))
        }
        return StyleLayer(id: reader.id, source: source, sourceLayer: sourceLayer, minimumZoom: minimumZoom, maximumZoom: maximumZoom,
                          isVisible: isVisible, filter: filter, kind: kind)
    }

    private func section(_ key: String, _ members: [String: StyleJSON], _ reader: StyleLayerReader) throws -> [String: StyleJSON] {
        guard let value = members[key] else { return [:] }
        guard case .object(let section) = value else { throw reader.invalid(key, "'\(key)' is an object, not \(value.summary)") }
        return section
    }

    /// The paint and layout properties read per layer type; `text-font` is read and
    /// mapped to the one embedded font, `*-transition` is meaningless for a still map.
    static let supportedProperties: [String: (layout: Set<String>, paint: Set<String>)] = [
        "background": ([], ["background-color", "background-opacity", "background-pattern"]),
        "fill": (["fill-sort-key"], ["fill-color", "fill-opacity", "fill-outline-color", "fill-translate", "fill-translate-anchor", "fill-antialias", "fill-pattern"]),
        "line": (["line-cap", "line-join", "line-miter-limit", "line-sort-key"],
                 ["line-color", "line-width", "line-opacity", "line-gap-width", "line-dasharray", "line-offset", "line-blur",
                  "line-translate", "line-translate-anchor", "line-gradient", "line-pattern"]),
        "heatmap": ([], ["heatmap-radius", "heatmap-weight", "heatmap-intensity", "heatmap-color", "heatmap-opacity"]),
        "fill-extrusion": ([], ["fill-extrusion-color", "fill-extrusion-opacity", "fill-extrusion-height", "fill-extrusion-base",
                                "fill-extrusion-translate", "fill-extrusion-translate-anchor", "fill-extrusion-vertical-gradient",
                                "fill-extrusion-pattern"]),
        "circle": (["circle-sort-key"],
                   ["circle-radius", "circle-color", "circle-blur", "circle-opacity", "circle-translate", "circle-translate-anchor",
                    "circle-pitch-scale", "circle-pitch-alignment", "circle-stroke-width", "circle-stroke-color", "circle-stroke-opacity"]),
        "symbol": (Set(["text-field", "text-size", "symbol-placement", "text-font", "text-max-width", "symbol-spacing", "text-padding",
                    "text-max-angle", "text-allow-overlap", "text-ignore-placement"]).union(SymbolTextStyle.layoutProperties),
                   Set(["text-color", "text-halo-color", "text-halo-width", "text-opacity"]).union(SymbolTextStyle.paintProperties)),
        // `raster-fade-duration` only animates; a still map is drawn faded in.
        "raster": ([], ["raster-opacity", "raster-hue-rotate", "raster-brightness-min", "raster-brightness-max", "raster-saturation",
                        "raster-contrast", "raster-resampling", "raster-fade-duration"]),
        "hillshade": ([], ["hillshade-illumination-direction", "hillshade-illumination-anchor", "hillshade-exaggeration",
                           "hillshade-shadow-color", "hillshade-highlight-color", "hillshade-accent-color"]),
    ]
}
