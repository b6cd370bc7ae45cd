/// Why a request head was refused: the status to answer and a one-line
/// message naming the part and the limit. The connection closes after it,
/// so no byte after a refused head is ever read as another request.
public struct HTTPRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status to answer: 400, 405, 414, 431, 501 or 505.
    public var status: Int
    /// What was wrong, in one line.
    public var message: String

    /// A refusal with `status` and `message`.
    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// `message`.
    public var description: String { message }
}
