import Raster

/// Decodes one picture of a WebP file (the still image, or one frame of an
/// animation) to RGBA: a lossless `VP8L` bitstream, or a lossy `VP8 ` one
/// with its `ALPH` plane.
struct WebPPictureDecoder {
    let maximumPixelCount: Int

    /// The picture's pixels; its bitstream must state `width` × `height`.
    func decode(_ bytes: UnsafeRawBufferPointer, _ picture: WebPContainer.Picture, width: Int, height: Int,
                checkCancellation: () throws -> Void) throws -> Bitmap {
        let chunk = UnsafeRawBufferPointer(rebasing: bytes[picture.bitstream])
        guard picture.isLossless else {
            var bitmap = try decodeLossy(chunk, width: width, height: height, checkCancellation: checkCancellation)
            if let alpha = picture.alpha {
                let plane = try WebPAlphaDecoder.decode(UnsafeRawBufferPointer(rebasing: bytes[alpha]), width: width, height: height,
                                                        maximumPixelCount: maximumPixelCount, checkCancellation: checkCancellation)
                for i in 0..<plane.count { bitmap.pixels[i * 4 + 3] = plane[i] }
            }
            return bitmap
        }
        let header = try VP8LDecoder.readHeader(chunk)
        guard header.width == width && header.height == height else {
            throw WebPError.invalidContainer("the VP8L image is \(header.width)×\(header.height), its frame or canvas \(width)×\(height)")
        }
        let decoder = VP8LDecoder(maximumPixelCount: maximumPixelCount)
        let pixels = try decoder.checkSize(width: width, height: height)
        // Decoded as ARGB words into the bitmap's own bytes, then turned to RGBA in place.
        let rgba = try [UInt8](unsafeUninitializedCapacity: pixels * 4) { buffer, initialized in
            let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
            let words = raw.bindMemory(to: UInt32.self, capacity: pixels)
            try decoder.decodeImageStream(UnsafeRawBufferPointer(rebasing: chunk[5...]), width: width, height: height, into: words,
                                          checkCancellation: checkCancellation)
            for i in 0..<pixels {
                let pixel = words[i]
                // ARGB to R, G, B, A in memory: the little-endian word A B G R.
                words[i] = ((pixel & 0xFF00_FF00) | (pixel >> 16 & 0xFF) | (pixel & 0xFF) << 16).littleEndian
            }
            raw.bindMemory(to: UInt8.self, capacity: pixels * 4)
            initialized = pixels * 4
        }
        return try Bitmap(width: width, height: height, rgba: rgba)
    }

    /// The size in a `VP8 ` chunk's frame header.
    static func lossySize(_ chunk: UnsafeRawBufferPointer) throws -> (width: Int, height: Int) {
        do {
            return try VP8Decoder(maximumPixelCount: Int.max).readSize(chunk)
        } catch let error as VP8Error {
            throw WebPError.lossy(error)
        }
    }

    /// A `VP8 ` chunk's picture in RGBA (alpha 255), converted as dwebp does by default.
    private func decodeLossy(_ chunk: UnsafeRawBufferPointer, width: Int, height: Int, checkCancellation: () throws -> Void) throws -> Bitmap {
        do {
            let picture = try VP8Decoder(maximumPixelCount: maximumPixelCount).decode(chunk, checkCancellation: checkCancellation)
            guard picture.width == width && picture.height == height else {
                throw WebPError.invalidContainer("the VP8 image is \(picture.width)×\(picture.height), its frame or canvas \(width)×\(height)")
            }
            return try picture.rgbaBitmap()
        } catch let error as VP8Error {
            throw WebPError.lossy(error)
        }
    }
}
