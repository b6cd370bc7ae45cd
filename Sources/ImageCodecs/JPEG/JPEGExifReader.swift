/// Finds the orientation tag (0x0112) in an APP1 "Exif" segment's TIFF
/// structure, checking every offset against the segment.
enum JPEGExifReader {
    /// The orientation in an APP1 payload (after the length field), or nil when
    /// the payload is not EXIF or has no valid orientation.
    static func orientation(in segment: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        guard segment.count >= 14, segment[0] == 0x45, segment[1] == 0x78, segment[2] == 0x69,
              segment[3] == 0x66, segment[4] == 0, segment[5] == 0 else { return nil }
        let tiff = UnsafeBufferPointer(rebasing: segment[6...])
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
