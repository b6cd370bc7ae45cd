import Foundation
import XCTest
@testable import ImageCodecs
import Raster

/// The lossy WebP encoder: what it writes decodes (through our decoder and
/// through libwebp's `dwebp`, to the same pixels) close to the original,
/// closer as the quality rises, and smaller as it falls.
final class WebPLossyEncoderTests: XCTestCase {
    /// Smooth gradients, edges and a little noise: something like a photo.
    static func photoLike(width: Int, height: Int, alpha: Bool = false, seed: UInt64 = 1) throws -> Bitmap {
        var random = seed
        func noise() -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int(random >> 61) - 4
        }
        var rgba = [UInt8]()
        rgba.reserveCapacity(width * height * 4)
        func clamp(_ value: Int) -> UInt8 { UInt8(min(max(value, 0), 255)) }
        for y in 0..<height {
            for x in 0..<width {
                // Edges (a disc, stripes) in brightness; colour changing slowly,
                // as in photos, so 4:2:0 chroma costs little.
                let ring = ((x - width / 3) * (x - width / 3) + (y - height / 2) * (y - height / 2)) < width * height / 8
                let base = x * 120 / max(width, 1) + (ring ? 80 : 0) + ((x + y) % 24 < 12 ? 20 : 0) + noise()
                rgba += [clamp(base + 40 + y * 40 / max(height, 1)), clamp(base + 20), clamp(base + 10 - x * 30 / max(width, 1)),
                         alpha ? clamp(255 - x * 255 / max(width, 1)) : 255]
            }
        }
        return try Bitmap(width: width, height: height, rgba: rgba)
    }

    /// Peak signal-to-noise ratio of the colour channels, in dB.
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        var sum = 0.0
        for i in a.pixels.indices where i % 4 != 3 {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            sum += d * d
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    private func roundTrip(_ bitmap: Bitmap, quality: Int, file: StaticString = #filePath, line: UInt = #line) throws -> (Data, Bitmap) {
        let data = try WebPLossyEncoder(quality: quality).encode(bitmap)
        let decoded = try WebPDecoder().decode(data)
        XCTAssertEqual(decoded.width, bitmap.width, file: file, line: line)
        XCTAssertEqual(decoded.height, bitmap.height, file: file, line: line)
        return (data, decoded)
    }

    func testEverySizeDecodesCloseToTheOriginal() throws {
        for (width, height) in [(1, 1), (2, 3), (15, 17), (16, 16), (33, 20), (64, 48)] {
            let bitmap = try Self.photoLike(width: width, height: height)
            let (_, decoded) = try roundTrip(bitmap, quality: 75)
            XCTAssertGreaterThan(Self.psnr(bitmap, decoded), 30, "\(width)×\(height)")
        }
    }

    /// Found by the `webplossy` fuzzer: three saturated pixels at the lowest
    /// qualities, where one chroma DC step (over 100 levels) decides the
    /// colour of the whole picture. libwebp 1.x (`cwebp -q 2`, then `dwebp`)
    /// decodes this picture at 19.4 dB; the floor is the fuzzer's.
    func testATinySaturatedPictureAtTheLowestQualitiesStaysRecognisable() throws {
        let bitmap = try Bitmap(width: 1, height: 3, rgba: [0, 255, 0, 128, 11, 223, 32, 112, 23, 191, 64, 96])
        for quality in [1, 2, 5] {
            let (_, decoded) = try roundTrip(bitmap, quality: quality)
            let floor = 15 + 15 * Double(quality - 1) / 99
            XCTAssertGreaterThan(Self.psnr(bitmap, decoded), floor, "quality \(quality)")
            XCTAssertEqual(decoded.pixels.enumerated().filter { $0.offset % 4 == 3 }.map(\.element), [128, 112, 96])
        }
    }

    func testHigherQualityIsCloserAndLarger() throws {
        let bitmap = try Self.photoLike(width: 96, height: 64, seed: 3)
        var previous: (size: Int, psnr: Double)?
        for (quality, floor) in [(5, 27.0), (30, 31.0), (75, 34.0), (95, 41.0), (100, 44.0)] {
            let (data, decoded) = try roundTrip(bitmap, quality: quality)
            let psnr = Self.psnr(bitmap, decoded)
            XCTAssertGreaterThan(psnr, floor, "quality \(quality)")
            if let previous {
                XCTAssertGreaterThan(data.count, previous.size, "quality \(quality)")
                XCTAssertGreaterThan(psnr, previous.psnr, "quality \(quality)")
            }
            previous = (data.count, psnr)
        }
    }

    func testAlphaIsKeptExactlyBesideTheColour() throws {
        let bitmap = try Self.photoLike(width: 40, height: 31, alpha: true)
        let (data, decoded) = try roundTrip(bitmap, quality: 80)
        XCTAssertEqual(Array(data[12..<16]), Array("VP8X".utf8))
        let alphaIn = stride(from: 3, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] }
        let alphaOut = stride(from: 3, to: decoded.pixels.count, by: 4).map { decoded.pixels[$0] }
        XCTAssertEqual(alphaIn, alphaOut)
        XCTAssertGreaterThan(Self.psnr(bitmap, decoded), 30)
    }

    func testAnOpaquePictureIsOneVP8Chunk() throws {
        let data = try WebPLossyEncoder().encode(Self.photoLike(width: 20, height: 10))
        XCTAssertEqual(ImageFormat(sniffing: data), .webp)
        XCTAssertEqual(Array(data[12..<16]), Array("VP8 ".utf8))
        XCTAssertEqual(data.count % 2, 0)
        XCTAssertFalse(try WebPDecoder().readInfo(data).hasAlpha)
    }

    func testQualityMapsAsLibwebpMapsIt() {
        // cwebp -q 75 codes base quantiser index 26, -q 100 index 0.
        XCTAssertEqual(VP8EncodingParameters(quality: 75).quantizerIndex, 26)
        XCTAssertEqual(VP8EncodingParameters(quality: 100).quantizerIndex, 0)
        XCTAssertEqual(VP8EncodingParameters(quality: 50).quantizerIndex, 38)
    }

    func testForwardTransformsInvertTheDecoders() {
        // A residual through the forward DCT, then the decoder's inverse, comes back within one.
        var sourcePixels = (0..<16).map { UInt8(($0 * 37 + 11) % 256) }
        var prediction = [UInt8](repeating: 128, count: 16)
        var coefficients = [Int16](repeating: 0, count: 16)
        sourcePixels.withUnsafeMutableBufferPointer { s in
            prediction.withUnsafeMutableBufferPointer { p in
                coefficients.withUnsafeMutableBufferPointer { c in
                    VP8ForwardTransform.dct(s.baseAddress!, sourceStride: 4, p.baseAddress!, predictionStride: 4, into: c.baseAddress!)
                    VP8InverseTransform.addInverseDCT(c.baseAddress!, to: p.baseAddress!, stride: 4)
                }
            }
        }
        for i in 0..<16 { XCTAssertLessThanOrEqual(abs(Int(sourcePixels[i]) - Int(prediction[i])), 1, "pixel \(i)") }
        // Sixteen DCs through the WHT and back.
        var blocks = [Int16](repeating: 0, count: 256)
        for b in 0..<16 { blocks[b * 16] = Int16(b * 50 - 300) }
        var y2 = [Int16](repeating: 0, count: 16), back = [Int16](repeating: 0, count: 256)
        blocks.withUnsafeBufferPointer { VP8ForwardTransform.walshHadamard($0.baseAddress!, into: &y2) }
        y2.withUnsafeMutableBufferPointer { input in
            back.withUnsafeMutableBufferPointer { VP8InverseTransform.inverseWalshHadamard(input.baseAddress!, count: 16, into: $0.baseAddress!) }
        }
        for b in 0..<16 { XCTAssertLessThanOrEqual(abs(Int(back[b * 16]) - Int(blocks[b * 16])), 1, "block \(b)") }
    }

    func testATooWideBitmapIsRefusedByName() throws {
        XCTAssertThrowsError(try WebPLossyEncoder().encode(Bitmap(width: 16384, height: 1))) { error in
            let codec = error as? ImageCodecError
            XCTAssertEqual(codec?.kind, .tooLarge)
            XCTAssertTrue(codec?.message.contains("16383") ?? false, "\(error)")
        }
        // Within VP8's sides but over the encoder's memory bound: refused before any work.
        XCTAssertThrowsError(try WebPLossyEncoder().encode(Bitmap(width: 4097, height: 4096))) { error in
            XCTAssertTrue("\(error)".contains("over the lossy encoder's limit of 16777216 pixels (WebPLossyEncoder.maximumPixelCount)"), "\(error)")
        }
    }

    /// Half smooth gradient, half busy texture: the analysis puts the two in
    /// different segments, the smooth half gets the finer quantiser (its
    /// blocking would show), the file carries the segments, and libwebp
    /// decodes it to the pixels ours does.
    func testSmoothAndBusyAreasGetTheirOwnQuantisers() throws {
        var random: UInt64 = 7
        var rgba = [UInt8]()
        for y in 0..<64 {
            for x in 0..<96 {
                random = random &* 6364136223846793005 &+ 1442695040888963407
                let value = x < 48 ? 60 + x + y : Int(random >> 57) * 2
                rgba += [UInt8(value), UInt8(value), UInt8(value), 255]
            }
        }
        let bitmap = try Bitmap(width: 96, height: 64, rgba: rgba)
        let source = VP8SourcePicture(bitmap)
        let parameters = VP8EncodingParameters(quality: 75, analysis: VP8SegmentAnalysis(source), macroblockCount: 6 * 4)
        XCTAssertGreaterThan(parameters.segmentCount, 1)
        let smooth = parameters.segments[Int(parameters.segmentOf[0])], busy = parameters.segments[Int(parameters.segmentOf[5])]
        XCTAssertLessThan(smooth.quantizerIndex, busy.quantizerIndex)
        XCTAssertLessThan(smooth.quantizerIndex, 26)
        XCTAssertGreaterThan(busy.quantizerIndex, 26)

        let data = try WebPLossyEncoder(quality: 75).encode(bitmap)
        var header = try data.withUnsafeBytes { try VP8FrameHeader(tagOf: UnsafeRawBufferPointer(rebasing: $0[20...])) }
        try data.withUnsafeBytes { bytes in
            var decoder = VP8BoolDecoder(UnsafeRawBufferPointer(rebasing: bytes[30...]))
            try header.readCompressedHeader(&decoder)
        }
        XCTAssertTrue(header.usesSegments && header.updatesSegmentMap && header.segmentValuesAreAbsolute)
        XCTAssertEqual(header.segmentQuantizers, parameters.segments.map(\.quantizerIndex))
        let decoded = try WebPDecoder().decode(data)
        XCTAssertGreaterThan(Self.psnr(bitmap, decoded), 30)
        if let pixels = try Dwebp.decode(data, name: "segments") {
            XCTAssertTrue(pixels == decoded.pixels, "dwebp decodes segments.webp to other pixels than ours")
        }
    }

    /// libwebp's own decoder reads what we write, to the very pixels ours decodes.
    func testLibwebpDecodesOurFilesAsWeDo() throws {
        let cases: [(String, Bitmap, Int)] = [
            ("photo", try Self.photoLike(width: 67, height: 45), 75), ("small", try Self.photoLike(width: 3, height: 5), 50),
            ("alpha", try Self.photoLike(width: 37, height: 29, alpha: true), 90), ("coarse", try Self.photoLike(width: 50, height: 40, seed: 9), 1),
            ("fine", try Self.photoLike(width: 48, height: 33, seed: 5), 100),
        ]
        for (name, bitmap, quality) in cases {
            let data = try WebPLossyEncoder(quality: quality).encode(bitmap)
            guard let pixels = try Dwebp.decode(data, name: name) else { continue }
            XCTAssertTrue(pixels == (try WebPDecoder().decode(data)).pixels, "dwebp decodes \(name).webp to other pixels than ours")
        }
    }

    /// The level-cost tables the mode search rates levels with count, for
    /// any probabilities, plane, context and levels (small, large, signed,
    /// sparse), exactly the bits the token writer would code.
    func testLevelCostTablesCountWhatTheTokenWriterCodes() {
        var random: UInt64 = 11
        func next(_ bound: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int(random >> 33) % bound
        }
        let levels = UnsafeMutablePointer<Int16>.allocate(capacity: 16)
        defer { levels.deallocate() }
        for round in 0..<40 {
            let probabilities = round == 0 ? VP8Tables.defaultCoefficientProbabilities
                : (0..<VP8Tables.defaultCoefficientProbabilities.count).map { _ in UInt8(1 + next(255)) }
            let costs = VP8LevelCosts(probabilities)
            for _ in 0..<200 {
                let density = next(17)
                for n in 0..<16 {
                    let magnitude = [1, 1, 2, 3, 4, 6, 9, 15, 30, 60, 200, 2047][next(12)]
                    levels[n] = next(16) < density ? Int16(next(2) == 0 ? magnitude : -magnitude) : 0
                }
                let plane = next(4), context = next(3), first = plane == VP8CoefficientReader.Plane.lumaAfterY2 ? 1 : 0
                var expected = VP8BitCost()
                let nonZero = probabilities.withUnsafeBufferPointer {
                    VP8TokenWriter.putBlock(levels, first: first, plane: plane, context: context,
                                            probabilities: $0.baseAddress!, into: &expected)
                }
                let actual = costs.cost(levels, first: first, plane: plane, context: context)
                XCTAssertEqual(actual.cost, expected.total)
                XCTAssertEqual(actual.nonZero, nonZero)
            }
        }
    }

    /// The texture term weighs Walsh–Hadamard magnitudes as libwebp's
    /// `VP8TDisto4x4` does: nothing for equal blocks, the sum of the
    /// weights (256) for one pixel of 32 against a flat block (every
    /// coefficient ±32, ÷32), the DC weight alone for a flat shift.
    func testTextureDistortionWeighsTheHadamardSpectrum() {
        let flat = [UInt8](repeating: 100, count: 16), lifted = flat.map { $0 + 2 }
        var dot = flat
        dot[0] = 132
        XCTAssertEqual(VP8TextureDistortion.distortion4x4(flat, 4, flat, 4), 0)
        XCTAssertEqual(VP8TextureDistortion.distortion4x4(flat, 4, dot, 4), 256)
        XCTAssertEqual(VP8TextureDistortion.distortion4x4(dot, 4, flat, 4), 256)
        XCTAssertEqual(VP8TextureDistortion.distortion4x4(flat, 4, lifted, 4), (32 * 38) >> 5)
        // A 16×16 block: the sum over its sixteen 4×4 blocks, each read at its place.
        let big = [UInt8](repeating: 100, count: 256)
        var bigDot = big
        bigDot[5 * 16 + 9] = 132
        XCTAssertEqual(VP8TextureDistortion.distortion16x16(big, 16, bigDot, 16), 256)
        XCTAssertEqual(VP8TextureDistortion.distortion16x16(big, 16, big, 16), 0)
    }

    /// Chroma DC error diffusion: a flat colour whose chroma falls between
    /// two DC steps keeps its mean (the blocks alternate between the steps
    /// around it) instead of every block rounding the same way. At quality
    /// 20 this colour came back 5, 2 and 7 levels off in R, G and B without
    /// it, under one level with it; libwebp decodes it to the same pixels.
    func testFlatChromaKeepsItsMeanThroughDCErrorDiffusion() throws {
        let width = 160, height = 128
        let colour: [UInt8] = [200, 120, 60, 255]
        let bitmap = try Bitmap(width: width, height: height, rgba: [UInt8]((0..<(width * height)).flatMap { _ in colour }))
        let data = try WebPLossyEncoder(quality: 20).encode(bitmap)
        let decoded = try WebPDecoder().decode(data)
        for channel in 0..<3 {
            var sum = 0
            for i in stride(from: channel, to: decoded.pixels.count, by: 4) { sum += Int(decoded.pixels[i]) }
            let mean = Double(sum) / Double(width * height)
            XCTAssertEqual(mean, Double(colour[channel]), accuracy: 1.5, "channel \(channel)")
        }
        if let pixels = try Dwebp.decode(data, name: "diffusion") {
            XCTAssertTrue(pixels == decoded.pixels, "dwebp decodes diffusion.webp to other pixels than ours")
        }
    }
}
