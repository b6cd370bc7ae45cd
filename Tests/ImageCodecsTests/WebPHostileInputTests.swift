import XCTest
import Raster
@testable import ImageCodecs

/// Damaged and hostile WebP files: each throws `ImageCodecError` of the right
/// kind naming the fault, and none traps, hangs or allocates past the limits.
final class WebPHostileInputTests: XCTestCase {
    /// Writes a VP8L bitstream least-significant bit first, as the format reads it.
    struct BitWriter {
        var bytes: [UInt8] = []
        var count = 0

        mutating func write(_ value: Int, _ bits: Int) {
            for i in 0..<bits {
                if count % 8 == 0 { bytes.append(0) }
                if value >> i & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (count % 8)) }
                count += 1
            }
        }

        /// A simple prefix code of one symbol below 256.
        mutating func simpleCode(_ symbol: Int) {
            write(1, 1); write(0, 1); write(1, 1); write(symbol, 8)
        }
    }

    /// A simple-format file holding one `VP8L` chunk: the header for
    /// `width` × `height`, then `body`.
    static func losslessFile(width: Int, height: Int, body: BitWriter) -> Data {
        var header = BitWriter()
        header.write(0x2F, 8)
        header.write(width - 1, 14); header.write(height - 1, 14); header.write(0, 1); header.write(0, 3)
        return riff([("VP8L", header.bytes + body.bytes)])
    }

    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func riff(_ chunks: [(String, [UInt8])]) -> Data {
        var body: [UInt8] = Array("WEBP".utf8)
        for (tag, payload) in chunks {
            body += Array(tag.utf8) + le32(payload.count) + payload
            if payload.count % 2 == 1 { body.append(0) }
        }
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    private func assertFails(_ data: Data, _ kind: ImageCodecError.Kind, containing text: String,
                             options: ImageDecoder.Options = .init(), file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try ImageDecoder.decode(data, options: options), file: file, line: line) { error in
            XCTAssertEqual(error.codecErrorKind, kind, "\(error)", file: file, line: line)
            guard case .webp? = (error as? ImageCodecError)?.detail else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertTrue("\(error)".contains(text), "\(error)", file: file, line: line)
        }
    }

    func testAColourCacheOfTwelveBitsIsRefused() {
        var body = BitWriter()
        body.write(0, 1)                  // no transform
        body.write(1, 1); body.write(12, 4)
        assertFails(Self.losslessFile(width: 1, height: 1, body: body), .corrupt, containing: "colour cache of 12 bits")
    }

    func testARepeatedTransformIsRefused() {
        var body = BitWriter()
        body.write(1, 1); body.write(2, 2)  // subtract green
        body.write(1, 1); body.write(2, 2)  // and again
        assertFails(Self.losslessFile(width: 1, height: 1, body: body), .corrupt, containing: "appears twice")
    }

    /// A normal code whose code-length code has the given lengths for
    /// symbols 17, 18, 0 and 1 (the first four stored).
    private func fileWithCodeLengthCode(_ lengths: [Int]) -> Data {
        var body = BitWriter()
        body.write(0, 1); body.write(0, 1); body.write(0, 1)  // no transform, no cache, no meta codes
        body.write(0, 1); body.write(0, 4)                     // normal code, 4 code-length lengths
        for length in lengths { body.write(length, 3) }
        body.write(0, 64)
        return Self.losslessFile(width: 1, height: 1, body: body)
    }

    func testOverSubscribedPrefixCodesAreRefused() {
        assertFails(fileWithCodeLengthCode([1, 1, 1, 1]), .corrupt, containing: "over-subscribed")
    }

    func testIncompletePrefixCodesAreRefused() {
        assertFails(fileWithCodeLengthCode([1, 2, 0, 0]), .corrupt, containing: "incomplete")
    }

    func testAnEmptyPrefixCodeIsRefused() {
        assertFails(fileWithCodeLengthCode([0, 0, 0, 0]), .corrupt, containing: "no symbols")
    }

    func testMoreCodeLengthsThanTheAlphabetAreRefused() {
        var body = BitWriter()
        body.write(0, 1); body.write(0, 1); body.write(0, 1)
        body.write(0, 1); body.write(0, 4)
        for length in [0, 0, 1, 1] { body.write(length, 3) }  // lengths 0 and 1, one bit each
        body.write(1, 1); body.write(7, 3); body.write(0x3FFF, 16)  // max_symbol = 2 + 16383 > 280
        assertFails(Self.losslessFile(width: 1, height: 1, body: body), .corrupt, containing: "code lengths for an alphabet of 280")
    }

    /// Green codes: the code-length code has symbols 1 and 18 (one bit
    /// each), then 256 zeros, a 1 for symbol 256 (a one-pixel copy), 23 zeros.
    private func backwardReferenceFile(width: Int, height: Int, distanceSymbol: Int) -> Data {
        var body = BitWriter()
        body.write(0, 1); body.write(0, 1); body.write(0, 1)
        body.write(0, 1); body.write(0, 4)
        for length in [0, 1, 0, 1] { body.write(length, 3) }  // 17: 0, 18: 1, 0: 0, 1: 1
        body.write(0, 1)                                        // lengths up to the alphabet's end
        // Canonical codes: symbol 1 is "0", symbol 18 is "1".
        body.write(1, 1); body.write(127, 7)                    // 138 zeros
        body.write(1, 1); body.write(107, 7)                    // 118 zeros: 256 in all
        body.write(0, 1)                                        // symbol 256: length 1
        body.write(1, 1); body.write(12, 7)                     // 23 zeros: 280
        body.simpleCode(0); body.simpleCode(0); body.simpleCode(0)
        body.simpleCode(distanceSymbol)
        body.write(0, 64)
        return Self.losslessFile(width: width, height: height, body: body)
    }

    func testABackwardReferenceBeforeTheFirstPixelIsRefused() {
        assertFails(backwardReferenceFile(width: 4, height: 4, distanceSymbol: 0), .corrupt, containing: "reaches outside the image")
    }

    func testHugeCanvasesAreRefusedBeforeAllocation() {
        // 16384 × 16384 in a VP8L header, and a 16M × 16M VP8X canvas.
        var body = BitWriter()
        body.write(0, 8)
        assertFails(Self.losslessFile(width: 16384, height: 16384, body: body), .tooLarge, containing: "above the limit")
        let vp8x: [UInt8] = [0, 0, 0, 0] + [0xFF, 0xFF, 0xFF] + [0xFF, 0xFF, 0xFF]
        assertFails(Self.riff([("VP8X", vp8x)]), .tooLarge, containing: "16777216×16777216")
        assertFails(try! WebPDecoderTests.data("lossless_vec_2_0.webp"), .tooLarge, containing: "above the limit",
                    options: .init(maximumPixelCount: 100 * 100))
    }

    func testChunkSizesPastTheEndAreTruncation() throws {
        var bytes = [UInt8](try WebPDecoderTests.data("lossless_vec_2_0.webp"))
        bytes.replaceSubrange(16..<20, with: Self.le32(1 << 30))  // the VP8L chunk's size
        assertFails(Data(bytes), .truncated, containing: "claims 1073741824 bytes")
        var riffSize = [UInt8](try WebPDecoderTests.data("lossless_vec_2_0.webp"))
        riffSize.replaceSubrange(4..<8, with: Self.le32(Int(UInt32.max)))
        assertFails(Data(riffSize), .truncated, containing: "RIFF size")
    }

    func testEveryCutOfAFileFailsCleanly() throws {
        for name in ["lossless_vec_2_6.webp", "anim_mux.webp", "alpha_filter_1_method_1.webp"] {
            let whole = try WebPDecoderTests.data(name)
            for length in stride(from: 0, to: whole.count, by: max(1, whole.count / 300)) {
                XCTAssertThrowsError(try ImageDecoder.decode(whole.prefix(length)), "\(name) cut at \(length)")
            }
        }
    }

    func testAWellFormedContainerWithACutBitstreamIsTruncated() throws {
        // The chunk and RIFF sizes are made to agree with the cut, so the bit reader runs dry.
        let whole = [UInt8](try WebPDecoderTests.data("lossless_vec_2_6.webp"))
        for cut in [40, 400, 4000, whole.count - 100] {
            let payload = Array(whole[20..<cut])
            assertFails(Self.riff([("VP8L", payload)]), .truncated, containing: "truncated")
        }
    }

    func testEverySingleByteChangeDecodesOrFailsCleanly() throws {
        // Every byte of two small lossless files, every fifth of an animation.
        for (name, step) in [("lossless_vec_1_7.webp", 1), ("lossless_vec_1_13.webp", 1), ("anim_img2webp.webp", 5)] {
            let original = [UInt8](try WebPDecoderTests.data(name))
            for offset in stride(from: 0, to: original.count, by: step) {
                for value: UInt8 in [0xFF, original[offset] ^ 0x10] {
                    var bytes = original
                    bytes[offset] = value
                    do {
                        var animation = try ImageDecoder.animation(Data(bytes), options: .init(maximumPixelCount: 1 << 16))
                        while try animation.nextFrame() != nil {}
                    } catch let error as ImageCodecError {
                        XCTAssertFalse(error.message.isEmpty)
                    }
                }
            }
        }
    }

    func testFramesOutsideTheCanvasAndMissingANIMAreCorrupt() throws {
        let original = [UInt8](try WebPDecoderTests.data("anim_mux.webp"))
        // The first ANMF's payload starts after its 8-byte header; X/2 is its first 3 bytes.
        let anmf = try XCTUnwrap(findChunk("ANMF", in: original))
        var outside = original
        outside[anmf + 8] = 0x7F
        XCTAssertThrowsError(try ImageDecoder.animation(Data(outside))) { error in
            XCTAssertEqual(error.codecErrorKind, .corrupt)
            XCTAssertTrue("\(error)".contains("outside the 48×40 canvas"), "\(error)")
        }
        var noAnim = original
        let anim = try XCTUnwrap(findChunk("ANIM", in: original))
        noAnim.replaceSubrange(anim..<anim + 4, with: Array("XXXX".utf8))
        XCTAssertThrowsError(try ImageDecoder.animation(Data(noAnim))) { XCTAssertEqual($0.codecErrorKind, .corrupt) }
    }

    func testTooManyFramesAreRefusedWhenTheContainerIsRead() throws {
        XCTAssertThrowsError(try ImageDecoder.animation(WebPDecoderTests.data("anim_mux.webp"), options: .init(maximumFrameCount: 3))) {
            XCTAssertEqual($0.codecErrorKind, .tooLarge)
            XCTAssertEqual(($0 as? ImageCodecError)?.detail, .webp(.tooManyFrames(limit: 3)))
        }
    }

    func testDamagedLossyPicturesAndAlphaPlanesFailCleanly() throws {
        let original = [UInt8](try WebPDecoderTests.data("lossy_alpha4.webp"))
        let alph = try XCTUnwrap(findChunk("ALPH", in: original)), vp8 = try XCTUnwrap(findChunk("VP8 ", in: original))
        // The ALPH header's reserved bits set.
        var reserved = original
        reserved[alph + 8] |= 0xC0
        assertFails(Data(reserved), .corrupt, containing: "reserved values")
        // The VP8 chunk cut short, its size and the RIFF size kept consistent.
        let vp8Size = Int(original[vp8 + 4]) | Int(original[vp8 + 5]) << 8 | Int(original[vp8 + 6]) << 16
        var cut = Array(original[0..<vp8 + 8 + vp8Size / 2])
        cut.replaceSubrange(vp8 + 4..<vp8 + 8, with: Self.le32(vp8Size / 2))
        cut.replaceSubrange(4..<8, with: Self.le32(cut.count - 8))
        XCTAssertThrowsError(try ImageDecoder.decode(Data(cut))) { error in
            XCTAssertEqual(error.codecErrorKind, .truncated)
            guard case .webp(.lossy(.truncated))? = (error as? ImageCodecError)?.detail else { return XCTFail("\(error)") }
        }
        // Raw alpha shorter than the image.
        let plane: [UInt8] = [0] + [UInt8](repeating: 7, count: 10)
        let vp8Chunk = Array(original[vp8 + 8..<vp8 + 8 + vp8Size])
        let canvas = Array(original[20 + 4..<20 + 10])
        assertFails(Self.riff([("VP8X", [0x10, 0, 0, 0] + canvas), ("ALPH", plane), ("VP8 ", vp8Chunk)]), .truncated,
                    containing: "raw alpha needs")
    }

    private func findChunk(_ tag: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(tag.utf8)
        return (12..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == pattern }
    }
}
