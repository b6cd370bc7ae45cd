import Foundation
import ImageCodecs

// libFuzzer entry for `ImageDecoder`, the one entry point: every input either
// decodes or throws an `ImageCodecError` (no other error type escapes); the
// header `readInfo` reads agrees with the decode; a target size (taken from the
// first two bytes) gives the scale's size, covering the target unless even
// full size does not; and a small decoded image survives a PNG round trip
// through `ImageEncoder` exactly.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageDecoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let info = decodeOrCodecError { try ImageDecoder.readInfo(data) }
    guard let upright = decodeOrCodecError({ try ImageDecoder.decode(data) }) else { return 0 }
    precondition(info == upright.info, "readInfo \(String(describing: info)) disagrees with decode \(upright.info)")
    precondition(upright.bitmap.width == upright.info.uprightWidth && upright.bitmap.height == upright.info.uprightHeight,
                 "the upright bitmap is not the header's upright size")

    let stored = decodeOrCodecError { try ImageDecoder.decode(data, options: .init(appliesOrientation: false)) }
    precondition(stored?.bitmap.width == upright.info.width && stored?.bitmap.height == upright.info.height,
                 "the stored bitmap is not the header's size")

    let target = (width: 1 + Int(data[0] % 64), height: 1 + Int(data[min(1, count - 1)] % 64))
    if let scaled = decodeOrCodecError({ try ImageDecoder.decode(data, options: .init(targetSize: target)) }) {
        let width = scaled.scale.scaled(upright.info.uprightWidth), height = scaled.scale.scaled(upright.info.uprightHeight)
        precondition(scaled.bitmap.width == width && scaled.bitmap.height == height, "a scaled decode has the wrong size")
        precondition(scaled.scale == .full || (width >= target.width && height >= target.height), "the scale does not cover the target")
    }

    if upright.bitmap.width * upright.bitmap.height <= 4096 {
        let png = try? ImageEncoder.encode(upright.bitmap, format: .png)
        precondition(png.flatMap { try? ImageDecoder.decode($0).bitmap } == upright.bitmap, "a PNG round trip changed the pixels")
    }
    return 0
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
