/// A snapshot option outside its allowed range. `option` is the name the
/// option has in a `map://` URL, so URL parsing can report it as it is.
public struct MapOptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The option's name as a `map://` URL parameter (`zoom`, `width`, `marker`, …).
    public var option: String
    /// What is wrong, with the allowed range and the value given.
    public var reason: String

    /// An error naming `option`.
    public init(option: String, reason: String) {
        self.option = option
        self.reason = reason
    }

    /// `'option' reason`.
    public var description: String { "'\(option)' \(reason)" }
}
