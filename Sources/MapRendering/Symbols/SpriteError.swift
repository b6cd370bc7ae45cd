/// A sprite that cannot be used: its index or sheet unreadable, malformed or
/// over a ``SpriteLimits`` bound. The message names the file and what is wrong.
public struct SpriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file at fault (the URL or path as the style names it, with `.json` or `.png`).
    public var file: String
    /// What is wrong, in words (the entry's name, the limit, the value).
    public var detail: String

    /// An error in `file`.
    public init(file: String, _ detail: String) {
        self.file = file
        self.detail = detail
    }

    /// `sprite FILE: DETAIL`.
    public var description: String { "sprite \(file): \(detail)" }
}
