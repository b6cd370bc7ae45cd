import Raster

extension Bitmap {
    /// The pixels turned upright: stored pixels as a decoder returns them,
    /// transformed as their EXIF `orientation` says (exact pixel moves, never
    /// resampled). Width and height swap for orientations 5–8.
    public func upright(from orientation: ImageOrientation) throws -> Bitmap {
        switch orientation {
        case .up: return self
        case .upMirrored: return flipped(.horizontal)
        case .down: return try rotated(by: 180)
        case .downMirrored: return flipped(.vertical)
        case .leftMirrored: return try rotated(by: 90).flipped(.horizontal)
        case .right: return try rotated(by: 90)
        case .rightMirrored: return try rotated(by: 90).flipped(.vertical)
        case .left: return try rotated(by: 270)
        }
    }
}
