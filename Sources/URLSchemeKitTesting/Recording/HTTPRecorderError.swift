import Foundation

/// What a recorder refuses, each saying how to put it right.
public enum HTTPRecorderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ``RecordingMode/environmentVariable`` holds a value that is not a mode.
    case invalidMode(String)
    /// The recording would still hold the value declared secret as `name`, in `field`.
    case secretInRecording(name: String, field: String)
    /// Requests that nothing answered during the test (each message names the nearest recordings).
    case unmatchedRequests([String])
    /// Recorded exchanges the test never used (with ``HTTPRecorder/Options/failsOnUnusedRecordings``).
    case unusedRecordings([String])
    /// A placeholder token holds more than letters, digits, `_`, `-` and `.`.
    case invalidPlaceholder(String)
    /// The recording file could not be read.
    case unreadableRecording(path: String, reason: String)

    /// What went wrong.
    public var description: String {
        switch self {
        case let .invalidMode(value):
            return "\(RecordingMode.environmentVariable)=\(value) is not a mode: use one of "
                + RecordingMode.allCases.map(\.rawValue).joined(separator: ", ") + " (or none)"
        case let .secretInRecording(name, field):
            return "refused to write the recording: \(field) still holds the secret \"\(name)\"; "
                + "redact it (Redaction.replace(header:/queryParameter:/jsonField:)) before recording"
        case let .unmatchedRequests(messages):
            return messages.joined(separator: "\n\n")
        case let .unusedRecordings(entries):
            return "\(entries.count) recorded request(s) were never used: " + entries.joined(separator: "; ")
        case let .invalidPlaceholder(token):
            return "the placeholder \"\(token)\" may hold only letters, digits, '_', '-' and '.' (it must read the same in a URL, a header and JSON)"
        case let .unreadableRecording(path, reason):
            return "the recording \(path) cannot be read: \(reason)"
        }
    }
}
