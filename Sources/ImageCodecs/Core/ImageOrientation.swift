/// The EXIF orientation tag (0x0112): how the stored pixels must be turned to
/// appear upright. Raw values are the tag's values 1–8, which is also how it
/// is coded (`Codable`).
public enum ImageOrientation: Int, CaseIterable, Codable, Sendable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Rotated 180°.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left/bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// Displayed after turning the stored pixels 90° clockwise.
    case right = 6
    /// Mirrored along the top-right/bottom-left diagonal (transversed).
    case rightMirrored = 7
    /// Displayed after turning the stored pixels 90° counter-clockwise.
    case left = 8

    /// True when upright width and height are the stored height and width.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
