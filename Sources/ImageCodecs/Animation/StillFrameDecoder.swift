import Foundation
import Raster

/// A still image (PNG, JPEG) seen as an animation of one frame, so that a
/// caller of `ImageDecoder.animation` need not care which it was given.
struct StillFrameDecoder: AnimationFrameDecoding {
    let info: ImageInfo
    var loopCount: Int { 1 }
    var storedFrameCount: Int { 1 }
    /// The file, until its one frame is decoded.
    private var data: Data?
    private let options: ImageDecoder.Options

    /// Reads the header now; the pixels wait for `nextFrame`.
    init(_ data: Data, options: ImageDecoder.Options) throws {
        info = try ImageDecoder.readInfo(data, options: options)
        self.data = data
        var options = options
        options.appliesOrientation = false  // AnimatedImage turns the frames upright
        options.targetSize = nil  // every frame is the canvas size, as for an animation
        options.jpegScale = nil
        self.options = options
    }

    mutating func nextFrame() throws -> (canvas: Bitmap, milliseconds: Int?)? {
        guard let data else { return nil }
        self.data = nil
        return (try ImageDecoder.decode(data, options: options).bitmap, nil)
    }
}
