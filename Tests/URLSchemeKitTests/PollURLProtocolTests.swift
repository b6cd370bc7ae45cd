import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// `poll://` through a real URLSession: the card's geometry, text and styles.
final class PollURLProtocolTests: XCTestCase {
    private func url(_ poll: PollURL) -> String { poll.url.absoluteString }

    private func isNear(_ pixel: RGBA, _ color: RGBA, _ tolerance: Int = 12) -> Bool {
        [Int(pixel.r) - Int(color.r), Int(pixel.g) - Int(color.g), Int(pixel.b) - Int(color.b)].map(abs).max()! <= tolerance
    }

    func testBarsAreProportionalToTheVotesInPixels() async throws {
        let poll = try PollURL(question: "Where shall we meet?", options: ["Cafe", "Park", "Museum"], votes: [1, 3, 3])
        let (image, type) = try await loadImage(makeSchemeSession(), url(poll))
        XCTAssertEqual(type, "image/png")
        let layout = PollLayout(poll, font: try TrueTypeFont.dejaVuSans)
        XCTAssertEqual([image.width, image.height], [layout.width, layout.height])
        XCTAssertEqual(image.width, 320)
        let palette = PollRenderer.Palette.of(.light)
        var filled: [Int] = []
        for row in layout.rows {
            let y = Int(row.track.y + row.track.height / 2)
            let track = (0..<image.width).filter { isNear(image[$0, y], palette.track, 4) }.count
            let bar = (0..<image.width).filter { isNear(image[$0, y], palette.bar, 4) }.count
            XCTAssertEqual(Double(bar + track), row.track.width, accuracy: 2, "the track spans the card's inner width")
            filled.append(bar)
        }
        let inner = layout.rows[0].track.width
        XCTAssertEqual(Double(filled[0]), inner / 7, accuracy: 2)
        XCTAssertEqual(Double(filled[1]), inner * 3 / 7, accuracy: 2)
        XCTAssertEqual(filled[1], filled[2])
    }

    func testTheChosenOptionsBarIsInTheAccentColour() async throws {
        let poll = try PollURL(question: "Q", options: ["a", "b"], votes: [1, 1], chosen: 2)  // "b", the second
        let (image, _) = try await loadImage(makeSchemeSession(), url(poll))
        let layout = PollLayout(poll, font: try TrueTypeFont.dejaVuSans)
        let palette = PollRenderer.Palette.of(.light)
        let row = layout.rows[1], y = Int(row.track.y + row.track.height / 2)
        XCTAssertTrue(isNear(image[Int(row.track.x) + 20, y], palette.chosenBar, 4))
        XCTAssertTrue(isNear(image[Int(layout.rows[0].track.x) + 20, Int(layout.rows[0].track.y + 3)], palette.bar, 4))
    }

    /// Cyrillic comes out as its own glyphs: the question's band has ink, and
    /// differs from the same number of U+FFFD (what a missing glyph would draw).
    func testACyrillicQuestionIsDrawn() async throws {
        let font = try TrueTypeFont.dejaVuSans
        for scalar in "Гдевстрмя".unicodeScalars { XCTAssertNotNil(font.glyph(for: scalar), "\(scalar)") }
        let session = makeSchemeSession()
        let question = "Где встретимся?"
        let poll = try PollURL(question: question, options: ["Кафе", "Парк"], votes: [2, 5], format: .png)
        let replaced = try PollURL(question: String(repeating: "\u{FFFD}", count: question.count), options: ["Кафе", "Парк"], votes: [2, 5])
        let (image, _) = try await loadImage(session, url(poll))
        let (other, _) = try await loadImage(session, url(replaced))
        let layout = PollLayout(poll, font: font)
        let band = Int(layout.questionOrigin.y) - 12...Int(layout.questionOrigin.y) + 3
        var ink = 0, differing = 0
        for y in band { for x in 0..<image.width {
            if image[x, y].r < 128 { ink += 1 }
            if image[x, y] != other[x, y] { differing += 1 }
        } }
        XCTAssertGreaterThan(ink, 100, "the question has dark text")
        XCTAssertGreaterThan(differing, 100, "the glyphs are not replacement characters")
    }

    func testTheDarkStyleDiffers() async throws {
        let session = makeSchemeSession()
        let light = try PollURL(question: "Q?", options: ["a", "b"], votes: [1, 2])
        var dark = light
        dark.style = .dark
        let (lightImage, _) = try await loadImage(session, url(light))
        let (darkImage, _) = try await loadImage(session, url(dark))
        XCTAssertEqual([lightImage.width, lightImage.height], [darkImage.width, darkImage.height])
        XCTAssertEqual(lightImage[2, 2], RGBA.white)
        XCTAssertLessThan(Int(darkImage[2, 2].r), 40)
        let lightInk = (0..<lightImage.width).flatMap { x in (0..<lightImage.height).map { lightImage[x, $0] } }.filter { $0.r < 100 }.count
        let darkInk = (0..<darkImage.width).flatMap { x in (0..<darkImage.height).map { darkImage[x, $0] } }.filter { $0.r > 150 }.count
        XCTAssertGreaterThan(lightInk, 50, "dark text on light")
        XCTAssertGreaterThan(darkInk, 50, "light text on dark")
    }

    func testTheHeightFollowsTheContentAndTheScale() async throws {
        let session = makeSchemeSession()
        let short = try PollURL(question: "Q?", options: ["a", "b"], votes: [1, 2])
        let (shortImage, _) = try await loadImage(session, url(short))
        var wrapped = short
        wrapped.question = String(repeating: "A long question that wraps. ", count: 5)
        let (wrappedImage, _) = try await loadImage(session, url(wrapped))
        var more = short
        more.options += ["c", "d"]
        more.votes += [0, 4]
        let (moreImage, _) = try await loadImage(session, url(more))
        var double = short
        double.scale = 2
        let (doubleImage, _) = try await loadImage(session, url(double))
        XCTAssertGreaterThan(wrappedImage.height, shortImage.height + 40)
        XCTAssertGreaterThan(moreImage.height, shortImage.height + 40)
        XCTAssertEqual(doubleImage.width, 640)
        XCTAssertEqual(Double(doubleImage.height), Double(shortImage.height) * 2, accuracy: 2)
    }

    /// The footer line grows by the flags' words: its ink reaches further right with `closed` and `anonymous`.
    func testClosedAndAnonymousAreShownInTheFooter() async throws {
        let session = makeSchemeSession()
        let plain = try PollURL(question: "Q?", options: ["a", "b"], votes: [1, 2])
        var flagged = plain
        flagged.closed = true
        flagged.anonymous = true
        let (plainImage, _) = try await loadImage(session, url(plain))
        let (flaggedImage, _) = try await loadImage(session, url(flagged))
        XCTAssertEqual(plainImage.height, flaggedImage.height, "the flags share the footer line")
        let layout = PollLayout(plain, font: try TrueTypeFont.dejaVuSans)
        func inkRight(_ image: Bitmap) -> Int {
            let rows = Int(layout.footerOrigin.y) - 10...Int(layout.footerOrigin.y) + 2
            return (0..<image.width).last { x in rows.contains { image[x, $0].r < 200 } } ?? 0
        }
        let plainRight = inkRight(plainImage), flaggedRight = inkRight(flaggedImage)
        XCTAssertGreaterThan(plainRight, 30, "'3 votes' is drawn")
        XCTAssertGreaterThan(flaggedRight, plainRight + 100, "'· anonymous · closed' follows it")
    }

    func testJPEGIsOpaqueAndBadInputIsABadURLNamingIt() async throws {
        let session = makeSchemeSession()
        let (_, type) = try await loadImage(session, "poll://?question=Q&option=a&option=b&votes=1,2&format=jpeg")
        XCTAssertEqual(type, "image/jpeg")
        let error = await loadError(session, "poll://?question=Q&option=a&votes=1")
        XCTAssertEqual(error?.code, .badURL)
        XCTAssertTrue(error?.localizedDescription.contains("parameter 'option'") == true, String(describing: error))
    }
}
