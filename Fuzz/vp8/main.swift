@testable import ImageCodecs

/// libFuzzer entry for the lossy WebP decoder: the input is a `VP8 ` chunk's
/// payload. `VP8Decoder.decode` must return a picture or throw a `VP8Error`;
/// a picture must have the size `readSize` reads and convert to RGBA.
/// The pixel limit is 2^22 (not production's) so each run stays fast: the
/// decoder's cost is per macroblock, whatever the bytes, and the limit is
/// tested on its own in VP8HostileInputTests.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVP8Decoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let chunk = UnsafeRawBufferPointer(start: start, count: count)
    let decoder = VP8Decoder(maximumPixelCount: 1 << 22)
    do {
        let picture = try decoder.decode(chunk, checkCancellation: {})
        let size = try decoder.readSize(chunk)
        precondition(size.width == picture.width && size.height == picture.height, "readSize disagrees with decode")
        let bitmap = try picture.rgbaBitmap()
        precondition(bitmap.width == picture.width && bitmap.height == picture.height, "bitmap size differs")
    } catch is VP8Error {
        // Refused with a reason: fine.
    } catch {
        preconditionFailure("unexpected error \(error)")
    }
    return 0
}
