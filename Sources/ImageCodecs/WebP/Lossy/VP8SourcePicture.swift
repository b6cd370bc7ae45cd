import Raster

/// The picture the lossy encoder codes: RGBA converted to Y′CbCr 4:2:0 with
/// libwebp's integer BT.601 formulas (the inverse of `VP8ColorConverter`),
/// each chroma sample from the sum of its 2×2 pixels, and the planes padded
/// to whole macroblocks by repeating the last column and row.
struct VP8SourcePicture {
    let luma: [UInt8]
    let cb: [UInt8]
    let cr: [UInt8]
    /// 16 × macroblock columns, and 8 × for chroma.
    let lumaStride: Int
    let chromaStride: Int
    let macroblockColumns: Int
    let macroblockRows: Int

    init(_ bitmap: Bitmap) {
        let width = bitmap.width, height = bitmap.height
        macroblockColumns = (width + 15) >> 4
        macroblockRows = (height + 15) >> 4
        lumaStride = macroblockColumns * 16
        chromaStride = macroblockColumns * 8
        let lumaRows = macroblockRows * 16, chromaRows = macroblockRows * 8
        var y = [UInt8](repeating: 0, count: lumaStride * lumaRows)
        var u = [UInt8](repeating: 0, count: chromaStride * chromaRows)
        var v = [UInt8](repeating: 0, count: chromaStride * chromaRows)
        let lumaStride = lumaStride, chromaStride = chromaStride
        bitmap.pixels.withUnsafeBufferPointer { rgba in
            for row in 0..<height {
                for column in 0..<width {
                    let p = (row * width + column) * 4
                    y[row * lumaStride + column] = Self.luma(Int32(rgba[p]), Int32(rgba[p + 1]), Int32(rgba[p + 2]))
                }
            }
            let chromaWidth = (width + 1) >> 1, chromaHeight = (height + 1) >> 1
            for row in 0..<chromaHeight {
                // An odd last row or column counts its pixels twice.
                let top = 2 * row * width, bottom = min(2 * row + 1, height - 1) * width
                for column in 0..<chromaWidth {
                    let left = 2 * column, right = min(2 * column + 1, width - 1)
                    let corners = [(top + left) * 4, (top + right) * 4, (bottom + left) * 4, (bottom + right) * 4]
                    var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0
                    for p in corners {
                        r += Int32(rgba[p]); g += Int32(rgba[p + 1]); b += Int32(rgba[p + 2])
                    }
                    u[row * chromaStride + column] = Self.chroma(-9719 * r - 19081 * g + 28800 * b)
                    v[row * chromaStride + column] = Self.chroma(28800 * r - 24116 * g - 4684 * b)
                }
            }
            Self.pad(&y, width: width, height: height, stride: lumaStride, rows: lumaRows)
            Self.pad(&u, width: chromaWidth, height: chromaHeight, stride: chromaStride, rows: chromaRows)
            Self.pad(&v, width: chromaWidth, height: chromaHeight, stride: chromaStride, rows: chromaRows)
        }
        luma = y
        cb = u
        cr = v
    }

    /// Y′ from 16 (black) to 235, 16-bit fixed point, rounded.
    @inline(__always)
    private static func luma(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (16839 * r + 33059 * g + 6420 * b + (1 << 15) + (16 << 16)) >> 16)
    }

    /// Cb or Cr from a weighted sum of four pixels' channels, centred on 128
    /// and clamped to 0...255.
    @inline(__always)
    private static func chroma(_ sum: Int32) -> UInt8 {
        let value = (sum + (1 << 17) + (128 << 18)) >> 18
        return UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }

    /// Repeats the last column and the last row of a `width` × `height`
    /// picture out to the plane's edges.
    private static func pad(_ plane: inout [UInt8], width: Int, height: Int, stride: Int, rows: Int) {
        for row in 0..<height where width < stride {
            let last = plane[row * stride + width - 1]
            for column in width..<stride { plane[row * stride + column] = last }
        }
        for row in height..<rows {
            for column in 0..<stride { plane[row * stride + column] = plane[(height - 1) * stride + column] }
        }
    }
}
