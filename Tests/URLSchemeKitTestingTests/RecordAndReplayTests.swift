import Foundation
import XCTest
import URLSchemeKitTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Record against a real loopback origin once, stop it, replay from the HAR file on disk.
final class RecordAndReplayTests: XCTestCase {
    func testRecordedOnceThenReplayedWithTheOriginStopped() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("users.har")
        let origin = try TestOrigin(test: self)
        try await origin.route("/users", headers: ["Content-Type": "application/json"], body: #"{"id": 1, "name": "Ada"}"#)
        try await origin.route("/zeros", gzipZeros: 3000)

        let recorder = try HTTPRecorder(file: file, options: options(.once))
        XCTAssertEqual(recorder.mode, .once)
        let session = recorder.makeSession()
        var get = URLRequest(url: URL(string: origin.url("/users?id=1&sort=name"))!)
        get.setValue("Bearer s3cret-token", forHTTPHeaderField: "Authorization")
        let first = try await load(session, get)
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.text, #"{"id": 1, "name": "Ada"}"#)
        var post = URLRequest(url: URL(string: origin.url("/users"))!)
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(#"{"name":"Grace","admin":false}"#.utf8)
        let created = try await load(session, post)
        XCTAssertEqual(created.text, #"done {"name":"Grace","admin":false}"#)
        let zeros = try await load(session, origin.url("/zeros"))
        XCTAssertEqual(zeros.body, Data(count: 3000))
        try recorder.finish()
        let originCount = try await origin.count("/users?id=1&sort=name")
        XCTAssertEqual(originCount, 1)
        origin.stop()

        // On disk: a HAR 1.2 file, keys sorted, the token redacted, the gzip body decoded to text.
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains(#""version" : "1.2""#), text)
        XCTAssertFalse(text.contains("s3cret-token"))
        XCTAssertTrue(text.contains(#""value" : "REDACTED""#))
        XCTAssertFalse(text.contains("gzip"), "the recorded body is decoded, its Content-Encoding gone")
        let har = try HARReader().read(contentsOf: file)
        XCTAssertEqual(har.log.entries.count, 3)
        XCTAssertEqual(har.log.entries[2].response.content.data, Data(count: 3000))
        XCTAssertEqual(har.log.entries[2].response.content.encoding, "base64", "zero bytes are not text")
        XCTAssertEqual(try HARWriter().data(har), try Data(contentsOf: file), "writing the file read back gives the same bytes")

        // Replay only, origin gone: the query in another order, the JSON body with its keys in another order.
        let replayer = try HTTPRecorder(file: file, options: options(.replay))
        let offline = replayer.makeSession()
        let again = try await load(offline, origin.url("/users?sort=name&id=1"))
        XCTAssertEqual(again.status, 200)
        XCTAssertEqual(again.text, first.text)
        XCTAssertEqual(again.response?.value(forHTTPHeaderField: "Content-Type"), "application/json")
        post.httpBody = Data(#"{"admin": false, "name": "Grace"}"#.utf8)
        var bodyOptions = options(.replay)
        bodyOptions.matchers = RequestMatcher.defaults + [.body]
        let bodyReplayer = try HTTPRecorder(file: file, options: bodyOptions)
        let replayedPost = try await load(bodyReplayer.makeSession(), post)
        XCTAssertEqual(replayedPost.text, created.text)
        let replayedZeros = try await load(offline, origin.url("/zeros"))
        XCTAssertEqual(replayedZeros.body, Data(count: 3000))
        try replayer.finish()
    }

    func testAnUnmatchedRequestFailsNamingTheNearestRecordingAndHowToRecordIt() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("one.har")
        let origin = try TestOrigin(test: self)
        try await origin.route("/users", body: "list")
        let recorder = try HTTPRecorder(file: file, options: options(.newEpisodes))
        _ = try await load(recorder.makeSession(), origin.url("/users?id=1"))
        try recorder.finish()
        origin.stop()

        // CI set and no variable: replay only, whatever the code asks.
        let replayer = try HTTPRecorder(file: file, options: options(.newEpisodes, environment: ["CI": "true"]))
        XCTAssertEqual(replayer.mode, .replay)
        let error = await failure(replayer.makeSession(), URLRequest(url: URL(string: origin.url("/users?id=2"))!))
        XCTAssertEqual(error?.code, .resourceUnavailable)
        let message = error?.localizedDescription ?? ""
        XCTAssertTrue(message.contains("no recording answers GET \(origin.url("/users?id=2"))"), message)
        XCTAssertTrue(message.contains("log.entries[0] GET \(origin.url("/users?id=1")): refused by url"), message)
        XCTAssertTrue(message.contains("URLSCHEMEKIT_RECORDING=new_episodes"), message)
        XCTAssertTrue(message.contains("CI is set"), message)
        XCTAssertThrowsError(try replayer.finish()) { error in
            XCTAssertTrue(String(describing: error).contains("refused by url"))
        }
    }

    func testAMissingRecordingFailsInReplayMode() async throws {
        let folder = try temporaryFolder(self)
        let recorder = try HTTPRecorder(file: folder.appendingPathComponent("absent.har"),
                                        options: options(nil, environment: ["URLSCHEMEKIT_RECORDING": "none"]))
        XCTAssertEqual(recorder.mode, .replay)
        let error = await failure(recorder.makeSession(), URLRequest(url: URL(string: "http://127.0.0.1:9/x")!))
        XCTAssertTrue(error?.localizedDescription.contains("the recording file does not exist") == true, "\(String(describing: error))")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("absent.har").path))
    }

    func testAnUnknownModeInTheVariableIsRefusedNamingIt() {
        XCTAssertThrowsError(try HTTPRecorder(file: nil, options: options(nil, environment: ["URLSCHEMEKIT_RECORDING": "sometimes"]))) { error in
            XCTAssertEqual(String(describing: error), "URLSCHEMEKIT_RECORDING=sometimes is not a mode: use one of replay, once, new_episodes, all, passthrough (or none)")
        }
    }

    func testPlaceholdersAreWrittenInsteadOfSecretsAndPutBackOnReplay() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("keys.har")
        let origin = try TestOrigin(test: self)
        try await origin.route("/data", headers: ["Content-Type": "application/json"], body: #"{"token":"tok-998877","n":1}"#)
        var recording = options(.once)
        recording.redaction.replace(queryParameter: "key", with: "API_KEY", value: "k-12345")
        recording.redaction.replace(jsonField: "token", with: "TOKEN")
        let recorder = try HTTPRecorder(file: file, options: recording)
        let live = try await load(recorder.makeSession(), origin.url("/data?key=k-12345&page=2"))
        XCTAssertEqual(live.text, #"{"token":"tok-998877","n":1}"#, "the live answer is untouched")
        try recorder.finish()
        origin.stop()
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(text.contains("k-12345"))
        XCTAssertFalse(text.contains("tok-998877"))
        XCTAssertTrue(text.contains("key=API_KEY"), text)

        // Replay: the real key in the request matches the placeholder on disk.
        let replayer = try HTTPRecorder(file: file, options: { var o = recording; o.mode = .replay; return o }())
        let replayed = try await load(replayer.makeSession(), origin.url("/data?page=2&key=k-12345"))
        XCTAssertEqual(replayed.status, 200)
        XCTAssertTrue(replayed.text.contains(#""token":"TOKEN""#), replayed.text)
    }

    /// A password in the URL (and the `Authorization` it becomes) never
    /// reaches the file, by default, with no option set.
    func testAURLPasswordIsRedactedByDefault() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("userinfo.har")
        let origin = try TestOrigin(test: self)
        try await origin.route("/private", body: "ok")
        let recorder = try HTTPRecorder(file: file, options: options(.once))
        let url = origin.url("/private").replacingOccurrences(of: "http://", with: "http://reader:pw-51515151@")
        let live = try await load(recorder.makeSession(), url)
        XCTAssertEqual(live.text, "ok")
        try recorder.finish()
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(text.contains("pw-51515151"), text)
        XCTAssertFalse(text.contains(Data("reader:pw-51515151".utf8).base64EncodedString()), "the basic credentials")
        XCTAssertTrue(text.contains("reader:REDACTED@"), text)
    }

    func testARecordingStillHoldingASecretIsNotWritten() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("leak.har")
        let origin = try TestOrigin(test: self)
        try await origin.route("/me", body: "hello pw-42424242")
        var recording = options(.once)
        recording.redaction.secret("password", value: "pw-42424242")
        let recorder = try HTTPRecorder(file: file, options: recording)
        let error = await failure(recorder.makeSession(), URLRequest(url: URL(string: origin.url("/me"))!))
        XCTAssertTrue(error?.localizedDescription.contains(#"log.entries[0] still holds the secret "password""#) == true,
                      "\(String(describing: error?.localizedDescription))")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }
}

/// Each mode against a real origin: what reaches it and what the file holds afterwards.
final class RecordingModeTests: XCTestCase {
    func testOnceNewEpisodesRecordAllAndPassthrough() async throws {
        let folder = try temporaryFolder(self)
        let file = folder.appendingPathComponent("modes.har")
        let origin = try TestOrigin(test: self)
        try await origin.route("/a", body: "A")
        try await origin.route("/b", body: "B")
        func urls() throws -> [String] { try HARReader().read(contentsOf: file).log.entries.map(\.request.url) }

        let first = try HTTPRecorder(file: file, options: options(.once))
        _ = try await load(first.makeSession(), origin.url("/a"))
        try first.finish()
        XCTAssertEqual(try urls(), [origin.url("/a")])
        // .once with the file there: replay only, a new request fails and the origin is not asked.
        let once = try HTTPRecorder(file: file, options: options(.once))
        _ = try await load(once.makeSession(), origin.url("/a"))
        let refused = await failure(once.makeSession(), URLRequest(url: URL(string: origin.url("/b"))!))
        XCTAssertEqual(refused?.code, .resourceUnavailable)
        var originA = try await origin.count("/a")
        var originB = try await origin.count("/b")
        XCTAssertEqual([originA, originB], [1, 0])

        // .newEpisodes: /a replayed, /b recorded and added.
        let episodesRecorder = try HTTPRecorder(file: file, options: options(.newEpisodes))
        let episodes = episodesRecorder.makeSession()
        _ = try await load(episodes, origin.url("/a"))
        let b = try await load(episodes, origin.url("/b"))
        XCTAssertEqual(b.text, "B")
        try episodesRecorder.finish()
        XCTAssertEqual(try urls(), [origin.url("/a"), origin.url("/b")])
        originA = try await origin.count("/a")
        XCTAssertEqual(originA, 1)

        // .recordAll (from the variable, over the code): the file holds only this run's requests.
        let all = try HTTPRecorder(file: file, options: options(.replay, environment: ["URLSCHEMEKIT_RECORDING": "all"]))
        XCTAssertEqual(all.mode, .recordAll)
        _ = try await load(all.makeSession(), origin.url("/b"))
        try all.finish()
        XCTAssertEqual(try urls(), [origin.url("/b")])
        originB = try await origin.count("/b")
        XCTAssertEqual(originB, 2)

        // .passthrough: to the origin, nothing written.
        let before = try Data(contentsOf: file)
        let through = try await load(try HTTPRecorder(file: file, options: options(.passthrough)).makeSession(), origin.url("/a"))
        XCTAssertEqual(through.text, "A")
        XCTAssertEqual(try Data(contentsOf: file), before)
        originA = try await origin.count("/a")
        XCTAssertEqual(originA, 2)
    }

    func testTheTestCaseHelperNamesTheFileForTheTest() throws {
        let folder = try temporaryFolder(self)
        let recorder = try httpRecorder(in: folder, options: options(.replay))
        XCTAssertEqual(recorder.file?.deletingLastPathComponent().path, folder.path)
        XCTAssertEqual(recorder.file?.lastPathComponent, "testTheTestCaseHelperNamesTheFileForTheTest.har")
        let beside = try httpRecorder("named", options: options(.replay))
        XCTAssertEqual(beside.file?.deletingLastPathComponent().lastPathComponent, "RecordingModeTests")
        XCTAssertEqual(beside.file?.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent, "Recordings")
        XCTAssertEqual(beside.file?.lastPathComponent, "named.har")
    }
}
