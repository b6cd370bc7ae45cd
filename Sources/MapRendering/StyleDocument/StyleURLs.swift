/// How a style's URLs name other files: a URL written inside a document
/// fetched from somewhere (a TileJSON's `tiles`) is relative to that
/// document, as a browser resolves it.
enum StyleURLs {
    /// `reference` as it is when it has a scheme (`https://…`, `file://…`,
    /// `pmtiles://…`); else resolved against `base`: from its origin when it
    /// starts with `/` and `base` has one, else from `base`'s folder. Done on
    /// the text, so that `{z}`-style tokens (not valid in a URL) pass through.
    static func resolve(_ reference: String, against base: String) -> String {
        if reference.contains("://") { return reference }
        let path = base.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? base
        if let schemeEnd = path.range(of: "://") {
            let authorityEnd = path[schemeEnd.upperBound...].firstIndex(of: "/") ?? path.endIndex
            if reference.hasPrefix("/") { return String(path[..<authorityEnd]) + reference }
            let folderEnd = path[authorityEnd...].lastIndex(of: "/").map { path.index(after: $0) }
            return (folderEnd.map { String(path[..<$0]) } ?? path + "/") + reference
        }
        if reference.hasPrefix("/") { return reference }
        guard let slash = path.lastIndex(of: "/") else { return reference }
        return String(path[...slash]) + reference
    }
}
