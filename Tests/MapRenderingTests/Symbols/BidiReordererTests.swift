import XCTest
@testable import MapRendering

/// The bidirectional algorithm against orders worked out by hand from UAX #9
/// (as ICU's `ubidi`, which MapLibre's RTL plugin uses, gives them).
final class BidiReordererTests: XCTestCase {
    func text(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    func order(_ s: String) -> [Int] {
        let t = text(s)
        return BidiReorderer(t).visualOrder(0..<t.count)
    }

    func testRightToLeftParagraphWithLatinAndDigits() {
        // "שלום abc 123": the paragraph is right to left; "abc 123" stays left to right as one (W7: the digits follow "abc").
        XCTAssertEqual(order("שלום abc 123"), [5, 6, 7, 8, 9, 10, 11, 4, 3, 2, 1, 0])
        // "שלום 123 abc": the digits follow Hebrew, so the space between them and "abc" reads right to left.
        XCTAssertEqual(order("שלום 123 abc"), [9, 10, 11, 8, 5, 6, 7, 4, 3, 2, 1, 0])
    }

    func testArabicNumbersStayLeftToRight() {
        // "سلام۳۹": Extended Arabic-Indic digits after Arabic letters read left to right, left of the word.
        XCTAssertEqual(order("سلام۳۹"), [4, 5, 3, 2, 1, 0])
    }

    func testLeftToRightParagraphWithHebrewWord() {
        XCTAssertEqual(order("a אב b"), [0, 1, 3, 2, 4, 5])
        XCTAssertFalse(BidiReorderer.needsReordering(text("plain text, 123\n")))
        XCTAssertTrue(BidiReorderer.needsReordering(text("a אב b")))
    }

    func testBracketsMirrorWhereRightToLeft() {
        let t = text("א(ב)")
        let bidi = BidiReorderer(t)
        XCTAssertEqual(bidi.visualOrder(0..<4), [3, 2, 1, 0])
        XCTAssertEqual(bidi.displayed(0x29, at: 3), 0x28, "a closing parenthesis read right to left is drawn opening")
        XCTAssertEqual(BidiReorderer(text("a(b)")).displayed(0x29, at: 3), 0x29)
    }

    func testParagraphsAndControls() {
        let bidi = BidiReorderer(text("א\u{1C}b"))
        XCTAssertEqual(bidi.paragraphEnds, [2, 3], "a paragraph separator ends a paragraph")
        XCTAssertEqual(order("a\u{200F}b"), [0, 2], "the right-to-left mark is dropped")
        // An override makes Latin letters right to left.
        XCTAssertEqual(order("\u{202E}ab\u{202C}"), [2, 1])
        // A first-strong isolate takes its direction from its content: right to left in "x ⁨אב c⁩ y", so "c" goes left.
        XCTAssertEqual(order("x \u{2068}אב c\u{2069} y"), [0, 1, 6, 5, 4, 3, 8, 9])
    }

    func testTrailingWhiteSpaceTakesTheParagraphLevel() {
        // In "אב " the space at the line's end goes to the paragraph's end: the left.
        XCTAssertEqual(order("אב "), [2, 1, 0])
        XCTAssertEqual(order("ab אב "), [0, 1, 2, 4, 3, 5])
    }
}
