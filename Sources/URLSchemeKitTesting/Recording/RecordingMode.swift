import Foundation

/// What a recorder does with a request no stub answers.
///
/// | mode | recorded request | request not recorded |
/// |---|---|---|
/// | `replay` | replayed | fails, naming the nearest recordings |
/// | `once` | replayed | recorded when the file did not exist at the start, else fails |
/// | `newEpisodes` | replayed | recorded |
/// | `recordAll` | recorded again (the file is rewritten) | recorded |
/// | `passthrough` | sent to the network, nothing kept | sent, nothing kept |
public enum RecordingMode: String, Sendable, CaseIterable {
    /// Answer from the recording only (VCR's `none`).
    case replay
    /// Record a missing file, then replay only (VCR's `once`).
    case once
    /// Replay what is recorded and record what is not (VCR's `new_episodes`).
    case newEpisodes = "new_episodes"
    /// Record every request again, replacing the file (VCR's `all`).
    case recordAll = "all"
    /// Send every request to the network and keep nothing.
    case passthrough

    /// The environment variable that chooses the mode for every recorder of a
    /// run, over what the code says: `URLSCHEMEKIT_RECORDING=new_episodes swift test`.
    /// Values: the raw values above, and `none` for `replay`.
    public static let environmentVariable = "URLSCHEMEKIT_RECORDING"

    /// The mode for this run and why: ``environmentVariable`` when it is set,
    /// else `replay` when `CI` is set (CI never records), else `requested`,
    /// else `once`. Throws ``HTTPRecorderError/invalidMode(_:)`` for a value it does not know.
    static func resolve(_ requested: RecordingMode?, environment: [String: String]) throws -> (mode: RecordingMode, reason: String) {
        if let value = environment[environmentVariable], !value.isEmpty {
            let normalised = value.lowercased().replacingOccurrences(of: "-", with: "_")
            guard let mode = normalised == "none" ? .replay : RecordingMode(rawValue: normalised == "newepisodes" ? "new_episodes" : normalised)
            else { throw HTTPRecorderError.invalidMode(value) }
            return (mode, "\(environmentVariable)=\(value)")
        }
        if let ci = environment["CI"], !ci.isEmpty {
            return (.replay, "CI is set, so only replay (set \(environmentVariable) to record)")
        }
        if let requested { return (requested, "mode .\(requested) in code") }
        return (.once, "the default, .once")
    }
}
