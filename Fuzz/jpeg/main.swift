import Foundation
import ImageCodecs

/// libFuzzer entry: every input must decode or throw, at full size and at each
/// reduced scale (each has its own IDCT), and readInfo must agree with decode
/// on the size when both succeed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDecoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    // The production limits (pixels and scans): the decoder must keep every
    // input's cost bounded by its size on its own, not by a lowered cap.
    let decoder = JPEGDecoder()
    let info = try? decoder.readInfo(data)
    if let bitmap = try? decoder.decode(data), let info {
        precondition(bitmap.width == info.width && bitmap.height == info.height, "readInfo disagrees with decode")
    }
    for scale in [JPEGScale.half, .quarter, .eighth] { _ = try? decoder.decode(data, scale: scale) }
    return 0
}
