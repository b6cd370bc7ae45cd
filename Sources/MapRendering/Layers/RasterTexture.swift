import Raster

/// A picture as MapLibre samples it on the GPU: premultiplied on upload
/// (each channel rounded to 8 bits, as MapLibre Native premultiplies a
/// decoded image), read at a position 0…1 across it either from the nearest
/// texel or bilinearly between texel centres, clamped to its edges.
struct RasterTexture {
    let width: Int
    let height: Int
    /// Premultiplied RGBA8, row order (as the GPU holds it: a byte per channel).
    private let texels: [UInt8]

    /// The texture of `picture` (straight alpha).
    init(_ picture: Bitmap) {
        width = picture.width
        height = picture.height
        var texels = picture.pixels
        texels.withUnsafeMutableBufferPointer { pixels in
            var i = 0
            while i < pixels.count {
                let a = UInt32(pixels[i + 3])
                for c in 0..<3 { pixels[i + c] = UInt8((UInt32(pixels[i + c]) * a + 127) / 255) }
                i += 4
            }
        }
        self.texels = texels
    }

    /// The premultiplied colour at (`u`, `v`), 0…1 across and down.
    func sample(u: Double, v: Double, nearest: Bool) -> SIMD4<Float> {
        guard width > 0, height > 0 else { return .zero }
        let x = u * Double(width), y = v * Double(height)
        if nearest {
            return texel(Int(x.rounded(.down)), Int(y.rounded(.down)))
        }
        let fx = x - 0.5, fy = y - 0.5
        let x0 = fx.rounded(.down), y0 = fy.rounded(.down)
        let tx = Float(fx - x0), ty = Float(fy - y0)
        let (ix, iy) = (Int(x0), Int(y0))
        let top = texel(ix, iy) * (1 - tx) + texel(ix + 1, iy) * tx
        let bottom = texel(ix, iy + 1) * (1 - tx) + texel(ix + 1, iy + 1) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// The texel at (`x`, `y`), clamped to the edges.
    private func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let i = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 4
        return SIMD4(Float(texels[i]), Float(texels[i + 1]), Float(texels[i + 2]), Float(texels[i + 3])) / 255
    }
}
