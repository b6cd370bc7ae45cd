import Foundation

/// Why a HAR file could not be read; each case names the file's problem and,
/// where it has one, the field (`log.entries[3].response.status`).
public enum HARReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is larger than the reader's size limit.
    case tooLarge(bytes: Int, limit: Int)
    /// `log.entries` holds more entries than the reader's limit.
    case tooManyEntries(count: Int, limit: Int)
    /// The bytes are not JSON (truncated, or not a HAR file at all).
    case notJSON(String)
    /// A field is missing.
    case missingField(path: String)
    /// A field has the wrong type.
    case wrongType(path: String, expected: String)
    /// A field's value is not allowed.
    case invalidValue(path: String, reason: String)
    /// The file could not be read.
    case unreadable(String)

    /// What went wrong, naming the field and the limit.
    public var description: String {
        switch self {
        case let .tooLarge(bytes, limit):
            return "the HAR file is \(bytes) bytes, more than the limit of \(limit) (HARReader.maximumBytes)"
        case let .tooManyEntries(count, limit):
            return "log.entries: \(count) entries or more, more than the limit of \(limit) (HARReader.maximumEntries)"
        case let .notJSON(detail):
            return "the HAR file is not valid JSON (truncated?): \(detail)"
        case let .missingField(path):
            return "\(path) is missing"
        case let .wrongType(path, expected):
            return "\(path) has the wrong type: expected \(expected)"
        case let .invalidValue(path, reason):
            return "\(path): \(reason)"
        case let .unreadable(detail):
            return "the HAR file cannot be read: \(detail)"
        }
    }
}
