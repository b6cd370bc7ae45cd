/// A server that cannot start: the address and the system's reason, in one line.
public struct ServerError: Error, CustomStringConvertible, Sendable {
    /// The message.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
