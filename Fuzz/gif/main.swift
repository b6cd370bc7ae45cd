import Foundation
import ImageCodecs

// libFuzzer entry for the GIF decoder: `readInfo`, the first frame through
// `decode`, and every frame through `ImageDecoder.animation`, under small
// limits so a mutated screen or frame count cannot make a run slow. Only
// `ImageCodecError` may be thrown; the header must agree with the frames
// (size, format), the first frame with `decode`, the frames must come in
// order and never outnumber the frames counted from the blocks
// (`storedFrameCount`), and `checkLimits` must refuse exactly the files whose
// count passes the limits. Any trap, hang or runaway allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let options = ImageDecoder.Options(maximumPixelCount: 1 << 20, maximumFrameCount: 64, maximumAnimationPixelCount: 1 << 22)
    let decoder = GIFDecoder(maximumPixelCount: options.maximumPixelCount)
    let info = expectCodecError { try decoder.readInfo(data) }
    let first = expectCodecError { try decoder.decode(data) }
    if let info, let first { precondition(first.width == info.width && first.height == info.height, "decode disagrees with readInfo") }
    guard var animation = expectCodecError({ try ImageDecoder.animation(data, options: options) }) else { return 0 }
    if let info { precondition(animation.info == info, "animation disagrees with readInfo") }
    precondition(animation.info.format == .gif && animation.loopCount >= 0)
    let stored = animation.storedFrameCount, canvas = animation.info.width * animation.info.height
    let withinLimits = stored <= options.maximumFrameCount && stored * canvas <= options.maximumAnimationPixelCount
    precondition((expectCodecError { try animation.checkLimits() } != nil) == withinLimits, "checkLimits disagrees with the stored count")
    var index = 0
    while let frame = expectCodecError({ try animation.nextFrame() }), let frame {
        precondition(frame.index == index && frame.delay >= 0.02, "frames out of order or a delay under 20 ms")
        precondition(frame.bitmap.width == animation.info.width && frame.bitmap.height == animation.info.height, "frame size")
        if index == 0, let first { precondition(frame.bitmap == first, "the first frame differs from decode") }
        index += 1
        precondition(index <= stored, "more frames than the blocks hold")
    }
    return 0
}

/// `body`'s value, or nil when it throws an `ImageCodecError`; any other error traps.
func expectCodecError<T>(_ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch is ImageCodecError {
        return nil
    } catch {
        preconditionFailure("not an ImageCodecError: \(error)")
    }
}
