import Foundation
import URLSchemeKitTesting
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Record once against a real local server, replay forever without it.
///
/// The recording, Recordings/ForecastClientTests/forecast.har, is committed.
/// With it there (and always in CI, where `CI` is set) the test replays and
/// the server sees no request; delete it, or run with
/// `URLSCHEMEKIT_RECORDING=all`, and the test records it again from the server.
final class ForecastClientTests: XCTestCase {
    /// The server's port changes from run to run: match the method, the path
    /// and the query, not the host and port.
    static let options: HTTPRecorder.Options = {
        var options = HTTPRecorder.Options()
        options.matchers = [.method, RequestMatcher("path and query") { recorded, live in
            recorded.url.path == live.url.path && recorded.url.query == live.url.query
        }]
        options.failsOnUnusedRecordings = true
        return options
    }()

    func testTheForecastIsRecordedOnceThenReplayedWithTheServerStopped() async throws {
        let origin = try LoopbackOrigin()
        let recorder = try httpRecorder("forecast", options: Self.options)
        let file = try XCTUnwrap(recorder.file)
        let replaying = recorder.mode == .replay || (recorder.mode == .once && FileManager.default.fileExists(atPath: file.path))

        let live = try await ForecastClient(base: origin.url, session: recorder.makeSession()).forecast(city: "oslo")
        XCTAssertEqual(live, ForecastClient.Forecast(city: "Oslo", high: 3, low: -4, sky: "snow"))
        try recorder.finish()   // writes the recording when this run made it
        XCTAssertEqual(origin.requestCount, replaying ? 0 : 1, replaying ? "replayed: the server is never asked" : "recorded from the server")
        origin.stop()

        // Offline: the server is gone, only the file answers.
        var replayOnly = Self.options
        replayOnly.mode = .replay
        let offline = try HTTPRecorder(file: file, options: replayOnly)
        XCTAssertEqual(offline.entries.count, 1)
        let again = try await ForecastClient(base: origin.url, session: offline.makeSession()).forecast(city: "oslo")
        XCTAssertEqual(again, live)
        let missing = ForecastClient(base: origin.url, session: offline.makeSession())
        do {
            _ = try await missing.forecast(city: "bergen")
            XCTFail("bergen was never recorded")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .resourceUnavailable)
            XCTAssertTrue(error.localizedDescription.contains("forecast/oslo.json: refused by path and query"), error.localizedDescription)
        }
        XCTAssertThrowsError(try offline.finish(), "the unanswered request fails the test at its end")
    }
}
