/// Why a glyph range file (`{fontstack}/{range}.pbf`) was refused: the file
/// and what in it is wrong or over which ``GlyphRangeLimits`` value.
public struct GlyphRangeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file (when known), the field or the limit.
    public let message: String

    /// An error described by `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
