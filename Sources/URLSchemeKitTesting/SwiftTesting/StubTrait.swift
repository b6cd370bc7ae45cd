#if canImport(Testing)
import Foundation
import Testing

/// A Swift Testing trait that answers `method` requests to `url` with
/// `answer` while its test runs: on the test's ``HTTPRecorder/current``
/// when a `.recording` trait gave it one, else on a recorder of stubs only
/// (no file) made for the test. A request no stub answers fails its load,
/// and the test at its end.
///
/// ```swift
/// @Test(.stub(.get, "https://api.example/health", .status(204)))
/// func healthIsChecked() async throws {
///     let session = try #require(HTTPRecorder.current).makeSession()
///     _ = try await session.data(from: URL(string: "https://api.example/health")!)
/// }
/// ```
public struct StubTrait: TestTrait, TestScoping {
    /// The method answered.
    public var method: HTTPMethod
    /// The URL answered (its query in any order).
    public var url: String
    /// The answer.
    public var answer: StubAnswer
    /// Where the trait was applied: failures at the test's end are reported there.
    public var sourceLocation: SourceLocation

    /// Adds the stub to the test's recorder, making one of stubs only when it has none.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if let recorder = HTTPRecorder.current {
            recorder.stub(method, url, answer)
            return try await function()
        }
        let recorder = try HTTPRecorder(file: nil)
        recorder.stub(method, url, answer)
        try await RecordingTrait.run(function, with: recorder, reportingAt: sourceLocation)
    }
}

extension Trait where Self == StubTrait {
    /// Answers `method` requests to `url` with `answer` while the test runs (see ``StubTrait``).
    public static func stub(_ method: HTTPMethod, _ url: String, _ answer: StubAnswer = .status(200),
                            sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        StubTrait(method: method, url: url, answer: answer, sourceLocation: sourceLocation)
    }
}
#endif
