import Foundation
import ImageCodecs

// libFuzzer entry for the WebP decoder, through `ImageDecoder`: a RIFF file
// as it is; anything else is wrapped so mutations reach the VP8L bitstream
// without having to keep the container's sizes right: an even first byte
// makes the rest a `VP8L` chunk's payload, an odd one the image stream after
// a header for a small size taken from the next two bytes. Only
// `ImageCodecError` may be thrown; `readInfo` must agree with the decode, and
// every frame of the animation be the canvas size.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let data = Data(wrapped(input))
    let options = ImageDecoder.Options(maximumPixelCount: 1 << 22, maximumFrameCount: 64, maximumAnimationPixelCount: 1 << 24)
    let info = decodeOrCodecError { try ImageDecoder.readInfo(data, options: options) }
    if let image = decodeOrCodecError({ try ImageDecoder.decode(data, options: options) }) {
        precondition(info == image.info, "readInfo \(String(describing: info)) disagrees with decode \(image.info)")
        precondition(image.bitmap.width == image.info.uprightWidth && image.bitmap.height == image.info.uprightHeight,
                     "the bitmap is not the header's upright size")
    }
    if var animation = decodeOrCodecError({ try ImageDecoder.animation(data, options: options) }) {
        while let frame = decodeOrCodecError({ try animation.nextFrame() }), let frame {
            precondition(frame.bitmap.width == animation.info.uprightWidth && frame.bitmap.height == animation.info.uprightHeight,
                         "a frame is not the canvas size")
        }
    }
    return 0
}

private func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

private func wrapped(_ input: [UInt8]) -> [UInt8] {
    if input.starts(with: Array("RIFF".utf8)) || input.isEmpty { return input }
    var payload = Array(input.dropFirst())
    if input[0] & 1 == 1 && payload.count >= 2 {
        let width = 1 + Int(payload[0] % 64), height = 1 + Int(payload[1] % 64)
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14 | 1 << 28
        payload = [0x2F] + le32(Int(bits)) + payload.dropFirst(2)
    }
    let chunk = Array("VP8L".utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    return Array("RIFF".utf8) + le32(4 + chunk.count) + Array("WEBP".utf8) + chunk
}

/// `body`'s result, or nil when it throws an `ImageCodecError`; any other error is a finding.
func decodeOrCodecError<T>(_ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch is ImageCodecError {
        return nil
    } catch {
        preconditionFailure("an error that is not an ImageCodecError escaped: \(error)")
    }
}
