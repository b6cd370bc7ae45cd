/// Finds the orientation tag (0x0112) in EXIF data's TIFF structure, checking
/// every offset against the bytes it was given. One reader for both places
/// EXIF travels: a JPEG's APP1 "Exif" segment and a PNG's `eXIf` chunk.
enum ExifReader {
    /// The orientation in a JPEG APP1 payload (after the length field), or nil
    /// when the payload is not EXIF or has no valid orientation.
    static func orientation(inAPP1 segment: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        guard segment.count >= 14, segment[0] == 0x45, segment[1] == 0x78, segment[2] == 0x69,
              segment[3] == 0x66, segment[4] == 0, segment[5] == 0 else { return nil }
        return orientation(inTIFF: UnsafeBufferPointer(rebasing: segment[6...]))
    }

    /// The orientation in a PNG `eXIf` chunk: the TIFF structure itself. Some
    /// writers keep the JPEG "Exif\0\0" prefix in front of it; that is accepted too.
    static func orientation(inPNGChunk data: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        orientation(inAPP1: data) ?? orientation(inTIFF: data)
    }

    /// The orientation in a TIFF header and its first IFD, or nil when there is none or it is malformed.
    static func orientation(inTIFF tiff: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        if tiff[0] == 0x49 && tiff[1] == 0x49 { little = true } else if tiff[0] == 0x4D && tiff[1] == 0x4D { little = false } else { return nil }
        func u16(_ i: Int) -> Int? {
            guard i >= 0, i + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[i]) | Int(tiff[i + 1]) << 8 : Int(tiff[i]) << 8 | Int(tiff[i + 1])
        }
        func u32(_ i: Int) -> Int? {
            guard let a = u16(i), let b = u16(i + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let p = ifd + 2 + entry * 12
            guard let tag = u16(p) else { return nil }
            if tag == 0x0112 {
                guard let type = u16(p + 2), type == 3, let value = u16(p + 8) else { return nil }
                return ImageOrientation(rawValue: value)
            }
        }
        return nil
    }
}
