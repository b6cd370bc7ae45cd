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
        let (header, argb) = try VP8LDecoder(maximumPixelCount: maximumPixelCount).decode(chunk, checkCancellation: checkCancellation)
        guard header.width == width && header.height == height else {
            throw WebPError.invalidContainer("the VP8L image is \(header.width)×\(header.height), its frame or canvas \(width)×\(height)")
        }
        return try Self.bitmap(argb: argb, width: width, height: height)
    }

    /// ARGB words to RGBA bytes.
    static func bitmap(argb: [UInt32], width: Int, height: Int) throws -> Bitmap {
        let rgba = [UInt8](unsafeUninitializedCapacity: argb.count * 4) { buffer, initialized in
            let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
            for (i, pixel) in argb.enumerated() {
                // ARGB to RGBA in memory: little-endian words of A B G R order.
                let rgbaWord = (pixel & 0xFF00_FF00) | (pixel >> 16 & 0xFF) | (pixel & 0xFF) << 16
                raw.storeBytes(of: rgbaWord.littleEndian, toByteOffset: i * 4, as: UInt32.self)
            }
            initialized = argb.count * 4
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
