/// One sprite a style names (`sprite`: a URL, or an array of `{id, url}`):
/// the URL its `.json` and `.png` are found at, without the extension.
public struct StyleSprite: Sendable, Equatable {
    /// The id (`default` for the one-URL form): images of other ids are named `id:name`.
    public var id: String
    /// The URL, without `.json`/`.png` or `@2x`.
    public var url: String

    /// A sprite `id` at `url`.
    public init(id: String, url: String) {
        self.id = id
        self.url = url
    }

    /// The sprites of a style's `sprite` value.
    static func read(_ json: StyleJSON) throws -> [StyleSprite] {
        func invalid(_ detail: String) -> VectorStyleError { VectorStyleError(.invalidValue, property: "sprite", detail: detail) }
        switch json {
        case .string(let url):
            return [StyleSprite(id: "default", url: url)]
        case .array(let elements):
            guard elements.count <= 64 else { throw invalid("a style names at most 64 sprites, not \(elements.count)") }
            var ids: Set<String> = []
            return try elements.map { element in
                guard case .object(let members) = element, case .string(let id)? = members["id"], case .string(let url)? = members["url"] else {
                    throw invalid("each sprite is an object with a string 'id' and 'url', not \(element.summary)")
                }
                guard ids.insert(id).inserted else { throw invalid("the sprite id '\(id)' is used twice") }
                return StyleSprite(id: id, url: url)
            }
        default:
            throw invalid("'sprite' is a URL or an array of {id, url}, not \(json.summary)")
        }
    }
}
