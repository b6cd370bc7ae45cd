import Foundation

/// A named set of vector tiles and how to draw them: where the tiles come
/// from (a PMTiles archive, a folder or a URL template), the style for each
/// look (`MapStyle`), and what to credit.
///
/// A style's vector source draws from `tiles` whatever its `url` says, so a
/// MapLibre style written for a server draws from a local copy unchanged.
public struct VectorTileSource: Sendable {
    /// Where the tiles come from.
    public let tiles: any VectorTileProviding
    /// The style drawn for a `style=light` snapshot.
    public let lightStyle: VectorStyle
    /// The style drawn for a `style=dark` snapshot (the same as `lightStyle`
    /// when the source has one style of its own).
    public let darkStyle: VectorStyle
    /// Drawn in the bottom-right corner of every snapshot.
    public let attribution: String
    /// Names the archive's contents and the styles: part of the version every
    /// cached snapshot from this source is stored under, so replacing the
    /// archive or the style draws the URL again.
    public let identity: String
    /// Decoded tiles, kept between snapshots.
    public let cache: VectorTileCache
    /// The sprites and glyphs the style names (none for the built-in styles,
    /// which draw no icons and label with the built-in font).
    public var resources: StyleResources
    /// The drawn tile layers' features filtered and grouped by paint, kept
    /// between the snapshots of every renderer drawing from this source (each
    /// `map://` request makes its own), one bound for all its styles: each
    /// look with labels and without is a style of its own in the keys
    /// (``preparedStyle(for:labels:)``). Its entries hold tile layers weakly,
    /// so they live only as long as `cache` keeps the tiles.
    let preparedLayers = PreparedLayerCache()

    /// A source drawing `tiles` with `lightStyle` and `darkStyle`.
    /// - Parameters:
    ///   - tiles: where the tiles come from.
    ///   - lightStyle: the style of `style=light` snapshots.
    ///   - darkStyle: the style of `style=dark` snapshots.
    ///   - attribution: the credit drawn in the corner ("" for none).
    ///   - identity: text that changes whenever the tiles or the styles do
    ///     (a hash of an archive's header and root directory and of the style
    ///     JSON, for instance).
    ///   - cache: decoded tiles, kept between snapshots.
    ///   - resources: the sprites and glyphs the style names.
    public init(tiles: any VectorTileProviding, lightStyle: VectorStyle, darkStyle: VectorStyle, attribution: String,
                identity: String, cache: VectorTileCache = VectorTileCache(), resources: StyleResources = StyleResources()) {
        self.tiles = tiles
        self.lightStyle = lightStyle
        self.darkStyle = darkStyle
        self.attribution = attribution
        self.identity = identity
        self.cache = cache
        self.resources = resources
    }

    /// The style for a snapshot of `look`.
    public func style(for look: MapStyle) -> VectorStyle {
        look == .dark ? darkStyle : lightStyle
    }

    /// The `style` of ``preparedLayers``' keys for a snapshot of `look` with
    /// `labels`: without labels the style lacks its `symbol` layers, so its
    /// layer indices are another style's.
    func preparedStyle(for look: MapStyle, labels: MapLabels) -> Int {
        (look == .dark ? 2 : 0) + (labels == .none ? 1 : 0)
    }

    /// The tiles' `attribution` metadata as plain text (HTML tags removed,
    /// white space collapsed), or nil when they have none.
    public static func attribution(of tiles: any VectorTileProviding) throws -> String? {
        guard let text = try tiles.metadata()["attribution"] as? String else { return nil }
        var plain = "", inTag = false
        for character in text {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { plain.append(character) }
        }
        let words = plain.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.isEmpty ? nil : words
    }
}

extension VectorTileSource {
    /// The layer ids `tiles`' metadata lists (`vector_layers`); empty when it lists none.
    package static func layerIDs(of tiles: any VectorTileProviding) throws -> [String] {
        (try tiles.metadata()["vector_layers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }
}

extension BuiltinVectorStyle.Schema {
    /// The schema of `tiles`, told from the layer ids their metadata lists
    /// (`vector_layers`): Protomaps' `roads`/`earth`, OpenMapTiles'
    /// `transportation`/`building`. Throws ``VectorTileError`` (`unsupported`)
    /// naming the layers when it is neither.
    public init(detecting tiles: any VectorTileProviding) throws {
        let layers = try VectorTileSource.layerIDs(of: tiles)
        let names = Set(layers)
        if !names.isDisjoint(with: ["roads", "earth"]) {
            self = .protomaps
        } else if !names.isDisjoint(with: ["transportation", "building"]) {
            self = .openMapTiles
        } else {
            let listed = layers.isEmpty ? "no vector_layers in its metadata" : "layers " + layers.prefix(12).joined(separator: ", ")
            throw VectorTileError(.unsupported, "the tiles' schema is neither OpenMapTiles nor Protomaps (\(listed)): give a style file")
        }
    }
}
