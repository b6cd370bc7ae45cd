/// A style document that cannot be drawn as asked: a resource it names that
/// cannot be read, a camera value out of range. The message names which.
public struct StyleDocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the resource, property or parameter.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
