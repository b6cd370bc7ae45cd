/// A snapshot option outside its allowed range. `option` is the name the
/// option has in a `map://` URL, so URL parsing can report it as it is.
public struct MapOptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var option: String
    public var reason: String

    public init(option: String, reason: String) {
        self.option = option
        self.reason = reason
    }

    public var description: String { "'\(option)' \(reason)" }
}
