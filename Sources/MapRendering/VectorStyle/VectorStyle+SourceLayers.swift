extension VectorStyle {
    /// Warns (in ``warnings``) of each layer whose `source-layer` is none of
    /// `available`, the tile set's layers (its metadata's `vector_layers`):
    /// such a layer draws nothing, typically a style written for another
    /// schema (`buildings` is Protomaps', `building` OpenMapTiles'). The
    /// warning names the nearest layer the tiles have, and the ones they have.
    /// Nothing is checked when `available` is empty (tiles without metadata).
    public mutating func checkSourceLayers(_ available: [String]) {
        guard !available.isEmpty else { return }
        let known = Set(available)
        let listed = available.sorted()
        let prefix = fileName.map { "\($0): " } ?? ""
        var warned: Set<String> = []
        for layer in layers {
            guard let sourceLayer = layer.sourceLayer, !known.contains(sourceLayer), warned.insert(layer.id).inserted else { continue }
            let shown = listed.count > 20 ? listed.prefix(20).joined(separator: ", ") + ", …" : listed.joined(separator: ", ")
            warnings.append(prefix + "layer '\(layer.id)': source-layer '\(sourceLayer)' is not in the tiles, so the layer draws nothing"
                            + NameSuggestion.didYouMean(sourceLayer, in: listed) + " (the tiles have \(shown))")
        }
    }
}
