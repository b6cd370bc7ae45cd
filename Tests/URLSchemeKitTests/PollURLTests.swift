import XCTest
@testable import URLSchemeKit

/// `PollURL` parsing and writing, and `PollTally`'s rounding.
final class PollURLTests: XCTestCase {
    func testAPollURLRoundTripsWithEveryParameter() throws {
        let poll = try PollURL(question: "Где встретимся? A & B + C = 100%", options: ["Кафе", "Park, north gate", "Музей"], votes: [1, 3, 3],
                           chosen: 2, closed: true, anonymous: true, width: 400, scale: 2, style: .dark, format: .jpeg, quality: 90)
        XCTAssertEqual(try PollURL(url: poll.url), poll)
        let plain = try PollURL(question: "Q?", options: ["a", "b"], votes: [0, 0])
        XCTAssertEqual(plain.url.absoluteString, "poll://?question=Q%3F&option=a&option=b&votes=0,0")
        XCTAssertEqual(try PollURL(url: plain.url), plain)
    }

    /// One numbering: `chosen` counts from 1 in Swift as in the URL (issue 29,
    /// point 5: `chosen: 2` built `chosen=3`, refused only when loaded).
    func testChosenCountsFromOneInSwiftAsInTheURL() throws {
        let poll = try PollURL(url: XCTUnwrap(URL(string: "poll://?question=Q&option=a&option=b&votes=1,2&chosen=2&closed=1&anonymous=false")))
        XCTAssertEqual(poll.chosen, 2)
        XCTAssertEqual(poll.chosenIndex, 1, "the renderer draws options[1] as chosen")
        let built = try PollURL(question: "Q", options: ["Cafe", "Park"], votes: [1, 3], chosen: 2)
        XCTAssertTrue(built.url.absoluteString.hasSuffix("&chosen=2"), built.url.absoluteString)
        XCTAssertEqual(try PollURL(url: built.url), built)
        XCTAssertTrue(poll.closed)
        XCTAssertFalse(poll.anonymous)
    }

    func testPercentagesUseTheLargestRemainderAndSumTo100() {
        XCTAssertEqual(PollTally(votes: [1, 3, 3]).percentages, [14, 43, 43])
        XCTAssertEqual(PollTally(votes: [1, 3, 3]).total, 7)
        XCTAssertEqual(PollTally(votes: [1, 1, 1]).percentages, [34, 33, 33], "ties go to the earlier option")
        XCTAssertEqual(PollTally(votes: [0, 5]).percentages, [0, 100])
        XCTAssertEqual(PollTally(votes: [0, 0, 0]).percentages, [0, 0, 0], "no votes: nothing to share")
        XCTAssertEqual(PollTally(votes: [2, 2, 2, 1]).percentages, [29, 29, 28, 14])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let votes = (0..<Int.random(in: 2...10, using: &generator)).map { _ in Int.random(in: 0...1_000, using: &generator) }
            let tally = PollTally(votes: votes)
            guard tally.total > 0 else { continue }
            XCTAssertEqual(tally.percentages.reduce(0, +), 100, "\(votes)")
            for (count, percent) in zip(votes, tally.percentages) {
                let exact = Double(count) * 100 / Double(tally.total)
                XCTAssertLessThan(abs(Double(percent) - exact), 1, "\(votes)")
            }
        }
    }

    func testBadPollURLsNameTheParameterAndTheRange() {
        let long = String(repeating: "я", count: 301)
        let cases: [(String, String, String)] = [
            ("question=Q&option=a&votes=1", "option", "is given 1 times; a poll has 2 to 10 options"),
            ("question=Q&" + (1...11).map { "option=o\($0)" }.joined(separator: "&") + "&votes=" + Array(repeating: "1", count: 11).joined(separator: ","),
             "option", "is given 11 times"),
            ("question=Q&option=a&option=b&votes=1,-2", "votes", "from 0 to 1000000000, got '-2'"),
            ("question=Q&option=a&option=b&votes=1", "votes", "has 1 counts for 2 options"),
            ("question=&option=a&option=b&votes=1,2", "question", "is empty"),
            ("question=  &option=a&option=b&votes=1,2", "question", "is empty"),
            ("option=a&option=b&votes=1,2", "question", "is required"),
            ("question=\(long)&option=a&option=b&votes=1,2", "question", "is 301 characters long; at most 300"),
            ("question=Q&option=\(String(repeating: "x", count: 101))&option=b&votes=1,2", "option", "at most 100"),
            ("question=Q&option=a&option=&votes=1,2", "option", "is empty"),
            ("question=one%0Atwo&option=a&option=b&votes=1,2", "question", "control character U+000A"),
            ("question=Q&option=a%09b&option=b&votes=1,2", "option", "control character U+0009"),
            ("question=Q&option=a&option=b&votes=1,2&chosen=3", "chosen", "from 1 to 2"),
            ("question=Q&option=a&option=b&votes=1,2&closed=yes", "closed", "true, false, 1 or 0"),
            ("question=Q&option=a&option=b&votes=1,2&width=100", "width", "from 160 to 1024"),
            ("question=Q&option=a&option=b&votes=1,2&scale=5", "scale", "from 1 to 4"),
            ("question=Q&option=a&option=b&votes=1,2&style=sepia", "style", "light, dark"),
            ("question=Q&option=a&option=b&vote=1,2", "vote", "did you mean 'votes'"),
        ]
        for (query, parameter, phrase) in cases {
            let url = "poll://?" + query.addingPercentEncoding(withAllowedCharacters: CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "%")))!
            XCTAssertThrowsError(try PollURL(url: XCTUnwrap(URL(string: url))), query) { error in
                guard let error = error as? URLParameterError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.parameter, parameter, query)
                XCTAssertTrue(error.reason.contains(phrase), "\(query): \(error)")
            }
        }
    }
}
