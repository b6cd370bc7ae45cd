import Foundation
import XCTest
import URLSchemeKit
import URLSchemeKitTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs set in code, answered through a real URLSession.
final class StubTests: XCTestCase {
    func testABodyAFileAStatusAndWhatWasRequested() async throws {
        let folder = try temporaryFolder(self)
        let photo = folder.appendingPathComponent("photo.bin")
        try Data([0, 1, 2, 255]).write(to: photo)
        let recorder = try HTTPRecorder(file: nil, options: options(.replay))
        recorder.stub(.get, "https://api.example/users/1", .json(#"{"id": 1}"#))
        recorder.stub(.get, "https://api.example/photo", .file(photo, contentType: "image/png"))
        recorder.stub(.delete, "https://api.example/users/1", .status(204))
        let session = recorder.makeSession()
        let user = try await load(session, "https://api.example/users/1")
        XCTAssertEqual(user.status, 200)
        XCTAssertEqual(user.text, #"{"id": 1}"#)
        XCTAssertEqual(user.response?.value(forHTTPHeaderField: "Content-Type"), "application/json")
        let file = try await load(session, "https://api.example/photo")
        XCTAssertEqual(file.body, Data([0, 1, 2, 255]))
        var delete = URLRequest(url: URL(string: "https://api.example/users/1")!)
        delete.httpMethod = "DELETE"
        let deleted = try await load(session, delete)
        XCTAssertEqual(deleted.status, 204)
        XCTAssertEqual(recorder.requests.map(\.description),
                       ["GET https://api.example/users/1", "GET https://api.example/photo", "DELETE https://api.example/users/1"])
        XCTAssertEqual(recorder.requests(.get, "https://api.example/users/1").count, 1)
        XCTAssertEqual(recorder.requests(.any, "https://api.example/users/1").count, 2)
        // A request no stub answers fails, and finish() says so.
        let error = await failure(session, URLRequest(url: URL(string: "https://api.example/users/2")!))
        XCTAssertEqual(error?.code, .resourceUnavailable)
        XCTAssertTrue(error?.localizedDescription.contains("GET https://api.example/users/1: refused by url") == true,
                      "\(String(describing: error?.localizedDescription))")
        XCTAssertThrowsError(try recorder.finish())
    }

    func testARedirectIsFollowedAndTheFinalURLReported() async throws {
        let recorder = try HTTPRecorder(file: nil, options: options(.replay))
        recorder.stub(.get, "https://api.example/old", .redirect(to: "/new", status: 301))
        recorder.stub(.get, "https://api.example/new", .text("moved here"))
        let loaded = try await load(recorder.makeSession(), "https://api.example/old")
        XCTAssertEqual(loaded.text, "moved here")
        XCTAssertEqual(loaded.response?.url?.absoluteString, "https://api.example/new")
        XCTAssertEqual(recorder.requests.map(\.url.path), ["/old", "/new"])
    }

    func testErrorsADroppedConnectionAndADelay() async throws {
        let recorder = try HTTPRecorder(file: nil, options: options(.replay))
        recorder.stub(.get, "https://api.example/slow", .error(URLError(.timedOut)))
        recorder.stub(.get, "https://api.example/drop", .connectionDrop(after: 10, of: Data(count: 100)))
        recorder.stub(.get, "https://api.example/later", StubAnswer.text("late").delayed(by: 0.3))
        let session = recorder.makeSession()
        let timedOut = await failure(session, URLRequest(url: URL(string: "https://api.example/slow")!))
        XCTAssertEqual(timedOut?.code, .timedOut)
        let dropped = await failure(session, URLRequest(url: URL(string: "https://api.example/drop")!))
        XCTAssertEqual(dropped?.code, .networkConnectionLost)
        let start = Date()
        let late = try await load(session, "https://api.example/later")
        XCTAssertEqual(late.text, "late")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.3)
    }

    func testADroppedConnectionDeliversThePartOfTheBodySentBeforeIt() throws {
        let recorder = try HTTPRecorder(file: nil, options: options(.replay))
        recorder.stub(.get, "https://api.example/drop", .connectionDrop(after: 10, of: Data(repeating: 7, count: 100)))
        let delegate = ChunkCollector()
        let session = URLSession(configuration: { let c = URLSessionConfiguration.ephemeral; c.installRecorder(recorder); return c }(),
                                 delegate: delegate, delegateQueue: nil)
        session.dataTask(with: URL(string: "https://api.example/drop")!).resume()
        XCTAssertEqual(delegate.done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(delegate.received, Data(repeating: 7, count: 10))
        XCTAssertEqual((delegate.error as? URLError)?.code, .networkConnectionLost)
    }

    func testEachRecordersStubsStayInItsOwnSessions() async throws {
        let first = try HTTPRecorder(file: nil, options: options(.replay)).stub(.get, "https://api.example/who", .text("first"))
        let second = try HTTPRecorder(file: nil, options: options(.replay)).stub(.get, "https://api.example/who", .text("second"))
        let sessions = [first.makeSession(), second.makeSession()]
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for round in 0..<20 {
                group.addTask { (round % 2, try await load(sessions[round % 2], "https://api.example/who").text) }
            }
            return try await group.reduce(into: [(Int, String)]()) { $0.append($1) }
        }
        XCTAssertEqual(answers.count, 20)
        for (which, text) in answers { XCTAssertEqual(text, which == 0 ? "first" : "second") }
        XCTAssertEqual(first.requests.count, 10)
        XCTAssertEqual(second.requests.count, 10)
    }

    func testAStubOfARelativeURLOrABadPlaceholderIsRefusedNamingIt() throws {
        let recorder = try HTTPRecorder(file: nil, options: options(.replay)).stub(.get, "/users/1", .status(200))
        XCTAssertThrowsError(try recorder.finish()) { error in
            XCTAssertEqual(String(describing: error), #"stub(.get, "/users/1"): not an absolute URL"#)
        }
        var bad = options(.replay)
        bad.redaction.replace(header: "X-Key", with: "{{KEY}}")
        XCTAssertThrowsError(try HTTPRecorder(file: nil, options: bad)) { error in
            XCTAssertEqual(error as? HTTPRecorderError, .invalidPlaceholder("{{KEY}}"))
        }
    }

    func testASessionWithoutARecorderFailsSayingHowToSetItUp() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [RecordingURLProtocol.self]
        let error = await failure(URLSession(configuration: configuration), URLRequest(url: URL(string: "https://api.example/x")!))
        XCTAssertTrue(error?.localizedDescription.contains("installRecorder") == true)
    }

    func testImageLoaderLoadsAStubbedPhotoThroughTheRecordedSession() async throws {
        let recorder = try HTTPRecorder(file: nil, options: options(.replay))
        let session = recorder.makeSession()
        let card = try await load(session, "poll://?question=Lunch&option=Soup&option=Salad&votes=3,1&format=png")
        recorder.stub(.get, "https://cdn.example/card.png", .body(card.body, headers: ["Content-Type": "image/png"]))
        let loader = ImageLoader(configuration: ImageLoader.Configuration(session: session))
        let image = try await loader.image(for: URL(string: "https://cdn.example/card.png")!)
        XCTAssertGreaterThan(image.bitmap.width, 0)
        XCTAssertEqual(recorder.requests(.get, "https://cdn.example/card.png").count, 1)
    }

    func testImageLoaderLoadsAPhotoReplayedFromARecording() async throws {
        let card = try await load(try HTTPRecorder(file: nil, options: options(.replay)).makeSession(),
                                  "poll://?question=Lunch&option=Soup&option=Salad&votes=3,1&format=png")
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("photo.har")
        try HARWriter().write(HARFile(log: HARLog(entries: [
            HAREntry(startedDateTime: "2026-11-29T00:00:00.000Z", time: 5,
                     request: HARRequest(method: "GET", url: "https://cdn.example/card.png", headers: [], body: nil),
                     response: HARResponse(status: 200, headers: [HARNameValue(name: "Content-Type", value: "image/png")],
                                           content: HARContent(body: card.body, mimeType: "image/png"))),
        ])), to: file)
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).contains(#""encoding" : "base64""#), "a PNG is kept as base64")
        var replayOnly = options(.replay)
        replayOnly.failsOnUnusedRecordings = true
        let recorder = try HTTPRecorder(file: file, options: replayOnly)
        let loader = ImageLoader(configuration: ImageLoader.Configuration(session: recorder.makeSession()))
        let image = try await loader.image(for: URL(string: "https://cdn.example/card.png")!)
        let expected = try PNGDecoder().decode(card.body)
        XCTAssertEqual(image.bitmap.width, expected.width)
        XCTAssertEqual(image.bitmap.height, expected.height)
        XCTAssertEqual(image.bitmap.pixels, expected.pixels)
        // An ImageSlot, as a cell would hold it, on a loader of its own (no image cache between them).
        let slot = ImageSlot(loader: ImageLoader(configuration: ImageLoader.Configuration(session: recorder.makeSession())), queue: .global())
        let shown = try await slot.image(for: URL(string: "https://cdn.example/card.png")!)
        XCTAssertEqual(shown.bitmap.pixels, expected.pixels)
        XCTAssertEqual(recorder.requests(.get, "https://cdn.example/card.png").count, 2, "both loads reached the recording")
        try recorder.finish()
    }

    func testTheSchemesKeepWorkingInARecordedSession() async throws {
        let recorder = try HTTPRecorder(file: nil, options: options(.replay))
        let loaded = try await load(recorder.makeSession(), "poll://?question=Lunch&option=Soup&option=Salad&votes=3,1")
        XCTAssertEqual(loaded.status, 200)
        XCTAssertEqual(loaded.response?.value(forHTTPHeaderField: "Content-Type"), "image/png")
        XCTAssertTrue(recorder.requests.isEmpty, "only http(s) goes through the recorder")
    }
}

/// Collects a data task's chunks and its error.
private final class ChunkCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: the session calls the delegate on its serial delegate
    // queue; the test reads the fields only after `done` is signalled.
    var received = Data()
    var error: Error?
    let done = DispatchSemaphore(value: 0)

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        received.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        self.error = error
        done.signal()
    }
}
