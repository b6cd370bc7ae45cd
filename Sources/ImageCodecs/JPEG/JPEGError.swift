/// Why a JPEG file could not be read or written. Each description names the problem.
public enum JPEGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data does not start with the SOI marker (FF D8).
    case notJPEG
    /// The data ends before the named structure is complete.
    case truncated(String)
    /// A marker segment or table is malformed; the string says which and how.
    case invalidSegment(String)
    /// The file uses a coding process this decoder does not implement.
    case unsupported(String)
    /// Width × height exceeds the decoder's `maximumPixelCount`.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The file has more scans than the decoder's `maximumScanCount`.
    case tooManyScans(limit: Int)
    /// The entropy-coded data is corrupt (bad Huffman code, coefficient out of range...).
    case corruptScan(String)
    /// The bitmap cannot be encoded (for instance, it is empty).
    case cannotEncode(String)

    /// What is wrong with the file, for logs and `URLError` descriptions.
    public var description: String {
        switch self {
        case .notJPEG: return "not a JPEG file (no SOI marker)"
        case .truncated(let what): return "JPEG data ends inside \(what)"
        case .invalidSegment(let what): return "invalid JPEG segment: \(what)"
        case .unsupported(let what): return "\(what) is not supported"
        case .tooManyPixels(let w, let h, let limit):
            return "JPEG image \(w)×\(h) exceeds the limit of \(limit) pixels"
        case .tooManyScans(let limit):
            return "JPEG file has more than \(limit) scans (the decoder's maximumScanCount)"
        case .corruptScan(let what): return "corrupt JPEG scan data: \(what)"
        case .cannotEncode(let what): return "cannot encode JPEG: \(what)"
        }
    }
}

extension JPEGError {
    /// The `ImageCodecError.Kind` this error is reported as.
    public var kind: ImageCodecError.Kind {
        switch self {
        case .truncated: return .truncated
        case .notJPEG, .unsupported, .cannotEncode: return .unsupported
        case .invalidSegment, .corruptScan: return .corrupt
        case .tooManyPixels, .tooManyScans: return .tooLarge
        }
    }
}
