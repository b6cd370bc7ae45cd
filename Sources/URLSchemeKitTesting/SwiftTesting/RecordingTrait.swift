#if canImport(Testing)
import Foundation
import Testing

/// A Swift Testing trait that gives its test a recorder of its own,
/// ``HTTPRecorder/current`` while the test runs, recording to
/// `Recordings/<source file name>/<name>.har` beside the test's source file
/// (or in `directory`). When the test ends, ``HTTPRecorder/finish()`` runs:
/// the recording is written, and an unmatched request (or, if asked, an
/// unused recording) is recorded as an issue of the test.
///
/// ```swift
/// @Test(.recording("users")) func usersHaveNames() async throws {
///     let session = try #require(HTTPRecorder.current).makeSession()
///     _ = try await session.data(from: URL(string: "https://api.example/users/1")!)
/// }
/// ```
///
/// The recorder is a task-local value, not a process global, so tests that
/// run in parallel each see their own. Built only where the toolchain has
/// Swift Testing (Swift 6.1 or later for scoping traits).
public struct RecordingTrait: TestTrait, TestScoping {
    /// The recording's name (nil: the test function's name).
    public var name: String?
    /// The folder of the recording (nil: `Recordings/<source file name>` beside the test).
    public var directory: URL?
    /// How the recorder matches, redacts and replays.
    public var options: HTTPRecorder.Options
    /// Where the trait was applied: failures at the test's end are reported there.
    public var sourceLocation: SourceLocation

    /// The recording file for `test`.
    public func file(for test: Test) -> URL {
        let source = URL(fileURLWithPath: sourceLocation.filePath)
        let folder = directory ?? source.deletingLastPathComponent().appendingPathComponent("Recordings")
            .appendingPathComponent(source.deletingPathExtension().lastPathComponent)
        let base = name ?? String(test.name.prefix { $0 != "(" })
        return folder.appendingPathComponent((base.isEmpty ? "recording" : base) + ".har")
    }

    /// Runs `function` with a recorder of its own as ``HTTPRecorder/current``,
    /// keeping stubs a `.stub` trait listed before this one set up.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let recorder = try HTTPRecorder(file: file(for: test), options: options)
        if let outer = HTTPRecorder.current, outer.file == nil { recorder.adoptStubs(of: outer) }
        try await Self.run(function, with: recorder, reportingAt: sourceLocation)
    }

    /// Runs `function` with `recorder` as ``HTTPRecorder/current``, then
    /// finishes it, recording its error as an issue at `sourceLocation` (both traits' scope).
    static func run(_ function: @Sendable () async throws -> Void, with recorder: HTTPRecorder, reportingAt sourceLocation: SourceLocation) async throws {
        try await HTTPRecorder.$current.withValue(recorder) {
            try await function()
        }
        do {
            try recorder.finish()
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
        }
    }
}

extension Trait where Self == RecordingTrait {
    /// A recorder for the test, ``HTTPRecorder/current`` while it runs, its
    /// file `Recordings/<source file name>/<name>.har` beside the test (or in `directory`).
    public static func recording(_ name: String? = nil, in directory: URL? = nil, options: HTTPRecorder.Options = HTTPRecorder.Options(),
                                 sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        RecordingTrait(name: name, directory: directory, options: options, sourceLocation: sourceLocation)
    }
}
#endif
