/// Decodes an `ALPH` chunk (the alpha plane of a lossy picture): a header
/// byte, then the plane stored raw or as a VP8L image stream (alpha in
/// green), then the spatial filter undone (section 2.7.1.2 of RFC 9649).
enum WebPAlphaDecoder {
    enum Filter: Int {
        case none = 0, horizontal, vertical, gradient
    }

    /// The `width` × `height` alpha plane. Throws `WebPError`.
    static func decode(_ chunk: UnsafeRawBufferPointer, width: Int, height: Int, maximumPixelCount: Int,
                       checkCancellation: () throws -> Void) throws -> [UInt8] {
        guard let header = chunk.first else { throw WebPError.truncated("the ALPH chunk is empty") }
        let method = Int(header & 0x03), filterBits = Int(header >> 2 & 0x03)
        let preprocessing = Int(header >> 4 & 0x03), reserved = header >> 6
        // libwebp refuses the same: a compression method past 1, a
        // pre-processing level past 1, reserved bits set.
        guard method <= 1, preprocessing <= 1, reserved == 0 else {
            throw WebPError.invalidAlpha("header byte 0x\(String(header, radix: 16)) uses reserved values")
        }
        let filter = Filter(rawValue: filterBits)!
        let count = width * height
        var plane: [UInt8]
        let data = UnsafeRawBufferPointer(rebasing: chunk[1...])
        if method == 0 {
            guard data.count >= count else {
                throw WebPError.truncated("raw alpha needs \(count) bytes, the ALPH chunk holds \(data.count)")
            }
            plane = [UInt8](data[0..<count])
        } else {
            let argb = try VP8LDecoder(maximumPixelCount: maximumPixelCount)
                .decodeImageStream(data, width: width, height: height, checkCancellation: checkCancellation)
            plane = argb.map { UInt8(truncatingIfNeeded: $0 >> 8) }
        }
        if filter != .none { plane.withUnsafeMutableBufferPointer { unfilter($0, width: width, height: height, filter: filter) } }
        return plane
    }

    /// Adds each value's prediction back: the top row and the left column
    /// predict along themselves (the first value from 0), the rest as the
    /// filter says; gradient clamps left + above − above-left to 0…255.
    static func unfilter(_ plane: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, filter: Filter) {
        for x in 1..<max(width, 1) { plane[x] &+= plane[x - 1] }
        for y in 1..<max(height, 1) {
            let row = y * width, above = row - width
            plane[row] &+= plane[above]
            switch filter {
            case .horizontal:
                for x in 1..<max(width, 1) { plane[row + x] &+= plane[row + x - 1] }
            case .vertical:
                for x in 1..<max(width, 1) { plane[row + x] &+= plane[above + x] }
            case .gradient:
                for x in 1..<max(width, 1) {
                    let prediction = Int(plane[row + x - 1]) + Int(plane[above + x]) - Int(plane[above + x - 1])
                    plane[row + x] &+= UInt8(min(max(prediction, 0), 255))
                }
            case .none:
                break
            }
        }
    }
}
