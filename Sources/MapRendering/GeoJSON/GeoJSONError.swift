/// Why a GeoJSON document could not be read: a broad `kind` to act on and a
/// message naming where in the document (`features[3].geometry.coordinates[0]`)
/// and what is wrong or which limit was passed.
public struct GeoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The cases callers act on.
    public enum Kind: Equatable, Sendable, CaseIterable {
        /// The bytes are not JSON.
        case malformedJSON
        /// JSON, but not GeoJSON: a missing or unknown `type`, a member of the
        /// wrong type, a position that is not two or three numbers.
        case invalid
        /// Over one of the ``GeoJSONLimits``: checked as the document is read.
        case limitExceeded
    }

    /// What kind of fault this is.
    public let kind: Kind
    /// What is wrong and where, in words a log line can carry.
    public let message: String

    /// An error of `kind` described by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
