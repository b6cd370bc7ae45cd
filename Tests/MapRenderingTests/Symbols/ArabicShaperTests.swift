import XCTest
@testable import MapRendering

/// Arabic shaping against the presentation forms ICU's `u_shapeArabic`
/// (`U_SHAPE_LETTERS_SHAPE`, logical order) gives, as MapLibre's RTL plugin uses it.
final class ArabicShaperTests: XCTestCase {
    let beh: UInt32 = 0x0628, alef: UInt32 = 0x0627, lam: UInt32 = 0x0644, hamza: UInt32 = 0x0621
    let fatha: UInt32 = 0x064E, zwnj: UInt32 = 0x200C, peh: UInt32 = 0x067E

    func shape(_ text: [UInt32]) -> [UInt32] { ArabicShaper.shape(text) }

    func testLetterFormsByJoiningType() {
        XCTAssertEqual(shape([beh]), [0xFE8F], "isolated")
        XCTAssertEqual(shape([beh, beh, beh]), [0xFE91, 0xFE92, 0xFE90], "initial, medial, final")
        XCTAssertEqual(shape([beh, alef, beh]), [0xFE91, 0xFE8E, 0xFE8F], "alef joins only backward")
        XCTAssertEqual(shape([beh, hamza, beh]), [0xFE8F, hamza, 0xFE8F], "hamza never joins and has no other form")
        XCTAssertEqual(shape([beh, zwnj, beh]), [0xFE8F, zwnj, 0xFE8F], "a zero width non-joiner stops joining")
        XCTAssertEqual(shape([peh, peh, peh]), [0xFB58, 0xFB59, 0xFB57], "Persian peh from Presentation Forms-A")
    }

    func testLamAlefLigatures() {
        XCTAssertEqual(shape([lam, alef]), [0xFEFB], "isolated lam-alef")
        XCTAssertEqual(shape([beh, lam, alef]), [0xFE91, 0xFEFC], "final lam-alef after a joining letter")
        XCTAssertEqual(shape([lam, 0x0622]), [0xFEF5], "lam with alef madda")
        // "سلام": seen initial, lam-alef final, meem isolated after the alef.
        XCTAssertEqual(shape([0x0633, lam, alef, 0x0645]), [0xFEB3, 0xFEFC, 0xFEE1])
    }

    func testVowelMarksAreTransparentAndTakeTheirForms() {
        XCTAssertEqual(shape([beh, fatha, beh]), [0xFE91, 0xFE77, 0xFE90], "joins across the mark, which sits on a tatweel")
        XCTAssertEqual(shape([beh, fatha]), [0xFE8F, 0xFE76], "a mark after a word's last letter is its spacing form")
    }

    func testAlreadyShapedAndOtherTextUnchanged() {
        let latin = "hello 123".unicodeScalars.map(\.value)
        XCTAssertEqual(shape(latin), latin)
        XCTAssertEqual(shape([0xFE8F, 0xFE8F]), [0xFE91, 0xFE90], "presentation forms are read as their letters")
        XCTAssertEqual(shape([0x68, beh, beh, 0x20, 0x31]), [0x68, 0xFE91, 0xFE90, 0x20, 0x31])
    }
}
