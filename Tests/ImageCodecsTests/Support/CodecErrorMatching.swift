import ImageCodecs

/// The format's own error inside an `ImageCodecError`, for tests that pin the
/// exact fault (`XCTAssertEqual(error.jpegError, .tooManyScans(limit: 63))`).
extension Error {
    var jpegError: JPEGError? {
        if case .jpeg(let error)? = (self as? ImageCodecError)?.detail { return error }
        return nil
    }

    var pngError: PNGError? {
        if case .png(let error)? = (self as? ImageCodecError)?.detail { return error }
        return nil
    }

    var inflateError: InflateError? {
        if case .deflate(let error)? = (self as? ImageCodecError)?.detail { return error }
        return nil
    }

    /// The kind of an `ImageCodecError`, nil for any other error.
    var codecErrorKind: ImageCodecError.Kind? { (self as? ImageCodecError)?.kind }
}
