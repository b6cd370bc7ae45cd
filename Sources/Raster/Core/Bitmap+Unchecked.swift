extension Bitmap {
    /// Wraps bytes whose dimensions the caller has already validated (a canvas
    /// made from a valid bitmap), skipping the throwing checks.
    init(validatedWidth width: Int, height: Int, pixels: [UInt8]) {
        assert(pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
