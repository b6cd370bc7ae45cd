/// Reads what a `raster`, `raster-dem`, `image`, `video` or `canvas` source
/// says beyond the keys every tiled source has: `tileSize`, `encoding`, or a
/// picture's `url` (`urls`, `canvas`) and `coordinates`. A malformed value throws a ``VectorStyleError``
/// naming the source and key.
struct RasterSourceReader {
    let name: String
    let members: [String: StyleJSON]

    private func invalid(_ key: String, _ detail: String) -> VectorStyleError {
        VectorStyleError(.invalidValue, property: "sources", detail: "source '\(name)': '\(key)' \(detail)")
    }

    /// The tile sizes accepted: MapLibre draws any, but a tile's side beyond
    /// 4096 points is no tile set anyone serves.
    static let tileSizes = 1...4096

    /// A `raster` (or, with `dem`, a `raster-dem`) source's options.
    func read(dem: Bool) throws -> VectorStyleSource.Kind {
        var options = RasterStyleSource()
        if let value = members["tileSize"] {
            guard case .number(let size) = value, size == size.rounded(), Self.tileSizes.contains(Int(exactly: size) ?? 0) else {
                throw invalid("tileSize", "is a whole number of points 1–4096 (256 or 512 as a rule), not \(value.summary)")
            }
            options.tileSize = Int(size)
        }
        guard dem else { return .raster(options) }
        options.encoding = .mapbox
        if let value = members["encoding"] {
            guard case .string(let text) = value, let encoding = RasterStyleSource.Encoding(rawValue: text) else {
                throw invalid("encoding", "is \"mapbox\" or \"terrarium\", not \(value.summary)")
            }
            options.encoding = encoding
        }
        return .rasterDEM(options)
    }

    /// The most `urls` a `video` source may list (a browser tries each in turn).
    static let maximumVideoURLs = 8

    /// An `image`, `video` or `canvas` source (`type`): where its picture
    /// comes from (`url`, `urls`, `canvas`) and its `coordinates`.
    func readPicture(type: String) throws -> VectorStyleSource.Kind {
        let content: ImageStyleSource.Content
        switch type {
        case "video":
            guard case .array(let list)? = members["urls"], !list.isEmpty, list.count <= Self.maximumVideoURLs else {
                throw invalid("urls", "is needed: 1–\(Self.maximumVideoURLs) URLs of the video, strings")
            }
            let urls = list.compactMap { element -> String? in if case .string(let url) = element { return url } else { return nil } }
            guard urls.count == list.count else { throw invalid("urls", "holds URL strings only") }
            content = .video(urls: urls)
        case "canvas":
            guard case .string(let id)? = members["canvas"], !id.isEmpty else {
                throw invalid("canvas", "is needed: the id of the canvas, a string")
            }
            content = .canvas(id: id)
        default:
            guard case .string(let url)? = members["url"] else {
                throw invalid("url", "is needed: the picture's URL, a string")
            }
            content = .url(url)
        }
        guard case .array(let list)? = members["coordinates"], list.count == 4 else {
            throw invalid("coordinates", "is needed: four [longitude, latitude] corners, top-left first, clockwise")
        }
        var corners: [GeoCoordinate] = []
        for element in list {
            guard case .array(let pair) = element, pair.count == 2, case .number(let longitude) = pair[0], case .number(let latitude) = pair[1],
                  longitude.isFinite, abs(latitude) <= 90 else {
                throw invalid("coordinates", "holds [longitude, latitude] pairs with a latitude within ±90, not \(element.summary)")
            }
            corners.append(GeoCoordinate(latitude: latitude, longitude: longitude))
        }
        return .image(ImageStyleSource(content: content, corners: corners))
    }
}
