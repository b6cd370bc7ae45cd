/// An 8-bit RGBA image: the type every layer of the package shares.
///
/// Pixels are stored row by row, top row first, four bytes each (red, green,
/// blue, alpha), with no padding between rows: byte `(y * width + x) * 4` is the
/// red of pixel (x, y). Alpha is **straight** (not premultiplied), so a PNG
/// round trip is exact and the bytes can be handed to any other library as
/// they are. Operations that blend or resample premultiply internally.
///
/// `Bitmap` is a value type backed by a copy-on-write array.
public struct Bitmap: Equatable, Sendable {
    /// The largest pixel count any bitmap may have (width × height).
    /// 2^28 pixels is 1 GiB of RGBA; decoders apply their own, lower limits first.
    public static let maximumPixelCount = 1 << 28

    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// Straight-alpha RGBA8 bytes, `width * height * 4` of them, in row order.
    public var pixels: [UInt8]

    /// A bitmap filled with one colour (transparent black by default).
    public init(width: Int, height: Int, fill: RGBA = .clear) throws {
        try Bitmap.validate(width: width, height: height)
        self.width = width
        self.height = height
        let count = width * height
        if fill == .clear {
            pixels = [UInt8](repeating: 0, count: count * 4)
        } else {
            pixels = Bitmap.pixels(count: count, repeating: fill)
        }
    }

    /// `count` pixels of one RGBA value, written a word at a time into fresh
    /// storage (no zero-fill first).
    static func pixels(count: Int, repeating pixel: RGBA) -> [UInt8] {
        // Little-endian byte order, as on every platform Swift on Linux runs on.
        let word = UInt32(pixel.r) | UInt32(pixel.g) << 8 | UInt32(pixel.b) << 16 | UInt32(pixel.a) << 24
        return [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
            if let base = buffer.baseAddress {
                let raw = UnsafeMutableRawPointer(base)
                for i in 0..<count { raw.storeBytes(of: word, toByteOffset: i * 4, as: UInt32.self) }
            }
            initialized = count * 4
        }
    }

    /// Wraps straight-alpha RGBA8 bytes in row order (what `pixels` exports).
    public init(width: Int, height: Int, rgba: [UInt8]) throws {
        try Bitmap.validate(width: width, height: height)
        guard rgba.count == width * height * 4 else {
            throw RasterError.bufferSizeMismatch(expected: width * height * 4, actual: rgba.count)
        }
        self.width = width
        self.height = height
        pixels = rgba
    }

    /// Throws unless `width` and `height` are non-negative and their product is
    /// at most `maximumPixelCount`. Zero-sized bitmaps are allowed.
    public static func validate(width: Int, height: Int) throws {
        guard width >= 0, height >= 0 else {
            throw RasterError.invalidSize(width: width, height: height, reason: "dimensions must not be negative")
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= maximumPixelCount else {
            throw RasterError.invalidSize(
                width: width, height: height,
                reason: "more than \(maximumPixelCount) pixels")
        }
    }

    /// True when the bitmap has no pixels.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The pixel at (x, y). Precondition: inside the bitmap.
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
            let i = (y * width + x) * 4
            return RGBA(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
            let i = (y * width + x) * 4
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g; pixels[i + 2] = newValue.b; pixels[i + 3] = newValue.a
        }
    }

    /// True when every pixel has alpha 255 (such a bitmap can be stored as RGB or JPEG).
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var i = 3
            while i < buffer.count {
                if buffer[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }
}
