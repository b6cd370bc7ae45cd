import ImageCodecs

extension QueryReader {
    /// `png` or `jpeg` (also `jpg`), any case; nil when absent.
    public func imageFormat(_ name: String) throws -> ImageFormat? {
        if try string(name)?.lowercased() == "jpg" { return .jpeg }
        return try choice(name, as: ImageFormat.self)
    }
}
