import Foundation
import Raster

/// A decoded JPEG: the stored pixels and the EXIF orientation needed to show them upright.
public struct JPEGImage: Sendable {
    /// The pixels as stored (orientation not applied).
    public var bitmap: Bitmap
    /// The EXIF orientation from APP1, `.up` when absent.
    public var orientation: ImageOrientation
}

/// Decodes baseline and progressive Huffman-coded JPEG files (8-bit, gray,
/// YCbCr, RGB, Adobe CMYK/YCCK; any sampling whose factors divide the largest)
/// into RGBA bitmaps, optionally at 1/2, 1/4 or 1/8 scale.
///
/// Arithmetic-coded, lossless, hierarchical and 12-bit files are refused with a
/// `JPEGError.unsupported` naming the process.
public struct JPEGDecoder: ImageDecoding {
    /// The largest width × height accepted; checked before any pixel storage is allocated.
    public var maximumPixelCount: Int

    /// A decoder refusing images above `maximumPixelCount` pixels.
    public init(maximumPixelCount: Int = defaultMaximumPixelCount) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// Decodes at full size; the EXIF orientation is not applied.
    public func decode(_ data: Data) throws -> Bitmap {
        try decodeImage(data, scale: .full).bitmap
    }

    /// Decodes at a reduced scale (decoding fewer samples per block, not resizing afterwards).
    public func decode(_ data: Data, scale: JPEGScale) throws -> Bitmap {
        try decodeImage(data, scale: scale).bitmap
    }

    /// Decodes and returns the pixels with their EXIF orientation.
    public func decodeImage(_ data: Data, scale: JPEGScale = .full) throws -> JPEGImage {
        let bytes = [UInt8](data)
        return try bytes.withUnsafeBufferPointer { buffer in
            let parser = JPEGParser(bytes: buffer, maximumPixelCount: maximumPixelCount)
            parser.dcOnly = scale == .eighth
            try parser.parse(headerOnly: false)
            let bitmap = try JPEGDecoder.render(parser, scale: scale)
            return JPEGImage(bitmap: bitmap, orientation: parser.orientation)
        }
    }

    /// Reads the size and EXIF orientation from the segments before the first scan.
    public func readInfo(_ data: Data) throws -> ImageInfo {
        let bytes = [UInt8](data)
        return try bytes.withUnsafeBufferPointer { buffer in
            let parser = JPEGParser(bytes: buffer, maximumPixelCount: maximumPixelCount)
            try parser.parse(headerOnly: true)
            return ImageInfo(format: .jpeg, width: parser.width, height: parser.height,
                             orientation: parser.orientation, hasAlpha: false)
        }
    }

    /// Runs the IDCT over every component, upsamples and converts to RGBA.
    private static func render(_ parser: JPEGParser, scale: JPEGScale) throws -> Bitmap {
        let width = scale.scaled(parser.width), height = scale.scaled(parser.height)
        let blockSize = scale.blockSize
        let count = width * height
        let model = try colorModel(parser)
        var rgba = [UInt8](repeating: 0, count: count * 4)
        // Per-component dequantisation tables (floats) and the reduced-IDCT basis.
        let multipliers = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        let workspace = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        let basis = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { multipliers.deallocate(); basis.deallocate(); workspace.deallocate() }
        if scale == .half || scale == .quarter { JPEGInverseDCT.fillReducedBasis(size: blockSize, into: basis) }
        var planes: [JPEGColorConverter.Plane] = []
        defer { for plane in planes { plane.samples.deallocate() } }
        for c in parser.components {
            guard let coefficients = c.coefficients, let quant = parser.quantizationTables[c.quantizationTableIndex] else {
                throw JPEGError.invalidSegment("component \(c.id) has no scan data or quantisation table")
            }
            let stride = c.blocksPerLine * blockSize
            let rows = c.blocksPerColumn * blockSize
            let samples = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * rows)
            quant.withUnsafeBufferPointer { q in
                let qp = q.baseAddress!
                if scale == .full {
                    JPEGInverseDCT.fillMultipliers(qp, into: multipliers)
                } else {
                    for i in 0..<64 { multipliers[i] = Float(qp[i]) }
                }
                for by in 0..<c.blocksPerColumn {
                    for bx in 0..<c.blocksPerLine {
                        let input = coefficients + (by * c.blocksPerLine + bx) * c.coefficientsPerBlock
                        let out = samples + by * blockSize * stride + bx * blockSize
                        switch scale {
                        case .full:
                            JPEGInverseDCT.transform(input, multipliers, out, stride, workspace)
                        case .eighth:
                            out[0] = JPEGInverseDCT.transformDCOnly(input, qp)
                        case .half, .quarter:
                            JPEGInverseDCT.transformReduced(input, multipliers, basis, size: blockSize, out, stride)
                        }
                    }
                }
            }
            let fx = parser.maxH / c.horizontalSampling, fy = parser.maxV / c.verticalSampling
            let plane = JPEGColorConverter.Plane(
                samples: samples, stride: stride,
                width: min(stride, max(1, (width + fx - 1) / fx)), height: min(rows, max(1, (height + fy - 1) / fy)),
                horizontalFactor: fx, verticalFactor: fy)
            planes.append(plane)
        }
        rgba.withUnsafeMutableBufferPointer { out in
            JPEGColorConverter.convertRows(model, planes, width: width, height: height, into: out.baseAddress!)
        }
        return try Bitmap(width: width, height: height, rgba: rgba)
    }

    /// Chooses the colour model from the component count, the Adobe transform flag and component ids.
    private static func colorModel(_ parser: JPEGParser) throws -> JPEGColorConverter.Model {
        switch parser.components.count {
        case 1: return .gray
        case 3:
            if let transform = parser.adobeTransform { return transform == 0 ? .rgb : .ycbcr }
            let ids = parser.components.map(\.id)
            if !parser.sawJFIF && ids == [0x52, 0x47, 0x42] { return .rgb }
            return .ycbcr
        case 4:
            return parser.adobeTransform == 2 ? .ycck : .cmyk
        default:
            throw JPEGError.unsupported("\(parser.components.count) colour components")
        }
    }
}
