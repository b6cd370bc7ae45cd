import ImageCodecs

extension QueryReader {
    /// An output format: `png`, `jpeg` (also `jpg`), `webp` or `gif`, any
    /// case; nil when absent. Any other word is refused, naming the formats.
    public func imageFormat(_ name: String) throws -> ImageFormat? {
        guard let text = try string(name) else { return nil }
        let word = text.lowercased()
        if word == "jpg" { return .jpeg }
        if word == FormatNegotiation.auto {
            throw URLParameterError(parameter: name, reason: "'auto' is resolved from the request's Accept field by a URLSession load; a URL parsed on its own needs png, jpeg, webp or gif")
        }
        guard let format = ImageFormat(rawValue: word), format.isEncodable else {
            let allowed = ImageFormat.encodable.map(\.rawValue).joined(separator: ", ")
            throw URLParameterError(parameter: name, reason: "must be one of \(allowed), got '\(text)'")
        }
        return format
    }
}
