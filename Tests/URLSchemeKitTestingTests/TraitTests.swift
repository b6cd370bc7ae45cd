#if canImport(Testing)
import Foundation
import Testing
import URLSchemeKitTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift Testing traits: `.recording` replays the recording committed
/// beside this file (Recordings/TraitTests/greeting.har), `.stub` answers in
/// code, and a request nothing answers becomes an issue of the test.
@Suite struct TraitTests {
    private func text(_ url: String) async throws -> (Int, String) {
        let session = try #require(HTTPRecorder.current).makeSession()
        let (data, response) = try await session.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? -1, String(decoding: data, as: UTF8.self))
    }

    @Test(.stub(.get, "https://api.example/health", .text("ok")))
    func aStubTraitAnswersInCode() async throws {
        let (status, body) = try await text("https://api.example/health")
        #expect(status == 200)
        #expect(body == "ok")
        #expect(HTTPRecorder.current?.requests.count == 1)
        #expect(HTTPRecorder.current?.file == nil)
    }

    @Test(.recording("greeting"))
    func aRecordingTraitReplaysTheCommittedRecording() async throws {
        let recorder = try #require(HTTPRecorder.current)
        #expect(recorder.file?.lastPathComponent == "greeting.har")
        #expect(recorder.file?.deletingLastPathComponent().lastPathComponent == "TraitTests")
        let (status, body) = try await text("https://api.example/greeting?lang=en")
        #expect(status == 200)
        #expect(body == "hello from the recording")
    }

    @Test(.stub(.get, "https://api.example/extra", .text("stubbed")), .recording("greeting"))
    func aStubTraitBesideARecordingTraitAnswersToo() async throws {
        #expect(try await text("https://api.example/extra").1 == "stubbed")
        #expect(try await text("https://api.example/greeting?lang=en").1 == "hello from the recording")
    }

    @Test func eachTestHasItsOwnRecorder() async throws {
        #expect(HTTPRecorder.current == nil, "no trait, no recorder: nothing leaks from the other tests")
    }

    @Test func aRequestNothingAnswersIsAnIssueOfTheTest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("urlschemekit-traits-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        var replay = HTTPRecorder.Options()
        replay.mode = .replay
        replay.environment = [:]
        let trait = RecordingTrait.recording("absent", in: folder, options: replay)
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: nil) {
                let error = await #expect(throws: URLError.self) { try await text("https://api.example/missing") }
                #expect(error?.code == .resourceUnavailable)
            }
        } matching: { issue in
            issue.error.map { "\($0)".contains("the recording file does not exist") } ?? false
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path), "replay only: nothing written")
    }
}
#endif
