import Foundation

/// A query parameter that is missing, unknown or out of range. The URL
/// protocols turn it into `URLError(.badURL)` with this description.
public struct URLParameterError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The query item's name as written in the URL.
    public var parameter: String
    /// What is wrong and what would be right, e.g. "must be between 0 and 22, got 25".
    public var reason: String

    /// An error about `parameter`; `reason` completes the sentence "parameter 'x' …".
    public init(parameter: String, reason: String) {
        self.parameter = parameter
        self.reason = reason
    }

    /// `parameter 'zoom' must be …`.
    public var description: String { "parameter '\(parameter)' \(reason)" }
    /// The same text, for `localizedDescription`.
    public var errorDescription: String? { description }
}
