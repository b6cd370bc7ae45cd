import XCTest
@testable import ImageCodecs

/// The boolean encoder writes what `VP8BoolDecoder` reads back, bit for bit,
/// without running past the end of what it wrote.
final class VP8BoolEncoderTests: XCTestCase {
    func testRandomBitsAtRandomProbabilitiesComeBack() {
        var random: UInt64 = 12345
        func next() -> UInt64 {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return random >> 33
        }
        for length in [0, 1, 7, 100, 5000] {
            var bits: [(Bool, UInt8)] = []
            for _ in 0..<length {
                let probability = UInt8(1 + next() % 255)
                // Mostly the likely value, so that long runs of 0xFF bytes and carries happen.
                let likely = next() % 256 < UInt64(probability)
                bits.append((next() % 16 == 0 ? !likely : likely, probability))
            }
            var encoder = VP8BoolEncoder()
            for (bit, probability) in bits { encoder.put(!bit ? false : true, probability) }
            encoder.putLiteral(0x5A5, 12)
            encoder.putOptionalSigned(-9, 4)
            let bytes = encoder.finish()
            bytes.withUnsafeBytes { raw in
                var decoder = VP8BoolDecoder(raw)
                for (index, (bit, probability)) in bits.enumerated() {
                    XCTAssertEqual(decoder.readBit(probability), bit, "bit \(index) of \(length)")
                }
                XCTAssertEqual(decoder.readLiteral(12), 0x5A5)
                XCTAssertEqual(decoder.readOptionalSigned(4), -9)
                XCTAssertFalse(decoder.isPastEnd, "\(length) bits: the decoder ran past the \(bytes.count) bytes")
            }
        }
    }

    func testSignsReadBackThroughTheBranchlessReader() {
        var encoder = VP8BoolEncoder()
        let signs = (0..<300).map { $0 % 3 == 0 || $0 % 7 == 0 }
        for sign in signs { encoder.put(sign, 128); encoder.put(false, 200) }
        let bytes = encoder.finish()
        bytes.withUnsafeBytes { raw in
            var decoder = VP8BoolDecoder(raw)
            for sign in signs {
                XCTAssertEqual(decoder.readSign(5), sign ? -5 : 5)
                XCTAssertFalse(decoder.readBit(200))
            }
        }
    }
}
