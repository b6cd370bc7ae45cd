import Foundation
import Raster

/// Draws a `raster` layer pixel by pixel as MapLibre's raster shader does:
/// each output pixel's centre is taken back to the world, to the tile (or the
/// `image` source's triangle) under it, sampled there (``RasterTexture``) and
/// recoloured by the layer's paint (``RasterColorAdjustment``). The result is
/// the layer alone, premultiplied, for `BandedCanvas` to draw over what is beneath.
struct RasterLayerDrawer {
    /// Where the view lies in the world.
    let frame: VectorMapFrame
    /// The style zoom the paint is evaluated at.
    let zoom: Double
    /// The most tiles one layer may read (`VectorMapLimits.tilesPerSnapshot`).
    let tileLimit: Int

    /// The layer `style` drawn from `source`: premultiplied RGBA8 of the whole
    /// frame, or nil when it draws nothing. Throws what reading the tiles throws.
    func draw(_ style: RasterLayerStyle, from source: MapRasterSource, cancellation: RenderCancellation) throws -> [UInt8]? {
        let adjustment = RasterColorAdjustment(style, atZoom: zoom)
        let nearest = style.resampling.value(atZoom: zoom) == .nearest
        guard adjustment.opacity > 0 else { return nil }
        switch source {
        case .tiles(let tiles):
            guard let tileZoom = tiles.tileZoom(atStyleZoom: zoom) else { return nil }
            let images = try tiles.images(covering: frame, zoom: tileZoom, tileLimit: tileLimit, cancellation: cancellation)
            guard !images.isEmpty else { return nil }
            // One texture per picture, shared by the tiles an ancestor stands in for.
            var byPicture: [TileCoordinate: RasterTexture] = [:]
            for (tile, image) in images.values where byPicture[tile] == nil { byPicture[tile] = RasterTexture(image) }
            let textures = images.mapValues { (tile: $0.tile, texture: byPicture[$0.tile]!) }
            return try drawTiles(textures, zoom: tileZoom, adjustment: adjustment, nearest: nearest, cancellation: cancellation)
        case .image(let image):
            return try drawImage(image, adjustment: adjustment, nearest: nearest, cancellation: cancellation)
        case .elevation:
            return nil
        }
    }

    /// Each pixel whose centre lies on a tile of `textures` (of zoom `zoom`),
    /// sampled from the picture of the tile (it or an ancestor) given for it.
    private func drawTiles(_ textures: [TileCoordinate: (tile: TileCoordinate, texture: RasterTexture)], zoom: Int, adjustment: RasterColorAdjustment,
                           nearest: Bool, cancellation: RenderCancellation) throws -> [UInt8] {
        try frame.colorPixels(onTilesOf: zoom, cancellation: cancellation, lookup: { textures[$0].map { ($0.tile, $0.texture) } }) {
            _, texture, u, v in adjustment.apply(texture.sample(u: u, v: v, nearest: nearest))
        }
    }

    /// The picture of `image` over the two triangles its corners make.
    private func drawImage(_ image: ImageSource, adjustment: RasterColorAdjustment, nearest: Bool,
                           cancellation: RenderCancellation) throws -> [UInt8]? {
        let texture = RasterTexture(image.picture)
        if frame.pitch != nil {
            return try drawPitchedImage(image, texture: texture, adjustment: adjustment, nearest: nearest, cancellation: cancellation)
        }
        // Corners in output pixels: top-left, top-right, bottom-right, bottom-left.
        let corners = image.corners.map { corner -> (x: Double, y: Double) in
            frame.pixelPoint(unitX: WebMercator.unitX(longitude: corner.longitude), unitY: WebMercator.unitY(latitude: corner.latitude))
        }
        let (width, height) = (frame.pixelWidth, frame.pixelHeight)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        guard xs.allSatisfy(\.isFinite), ys.allSatisfy(\.isFinite) else { return nil }
        // The corners' box held to the canvas before it becomes integers (a corner may lie 10³⁰⁰ pixels away).
        func clamped(_ value: Double, _ limit: Int) -> Double { min(max(value, 0), Double(limit)) }
        let left = Int(clamped(xs.min()!, width).rounded(.down)), right = Int(clamped(xs.max()!, width).rounded(.up))
        let top = Int(clamped(ys.min()!, height).rounded(.down)), bottom = Int(clamped(ys.max()!, height).rounded(.up))
        guard left < right, top < bottom else { return nil }
        // MapLibre's triangle strip: (top-left, top-right, bottom-left), (top-right, bottom-left, bottom-right).
        let triangles = [
            Triangle(corners[0], corners[1], corners[3], uv: [(0, 0), (1, 0), (0, 1)]),
            Triangle(corners[1], corners[3], corners[2], uv: [(1, 0), (0, 1), (1, 1)]),
        ]
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in top..<bottom {
            if y % 64 == 0 { try cancellation.check() }
            for x in left..<right {
                let point = (x: Double(x) + 0.5, y: Double(y) + 0.5)
                guard let uv = triangles.lazy.compactMap({ $0.textureCoordinate(at: point) }).first else { continue }
                let color = adjustment.apply(texture.sample(u: uv.u, v: uv.v, nearest: nearest))
                Self.store(color, at: (y * width + x) * 4, in: &pixels)
            }
        }
        return pixels
    }

    /// The picture of `image` under a pitched camera: each pixel taken back to
    /// the map (a corner may lie behind the camera) and sampled where it falls
    /// on the two triangles the corners make there, as the GPU interpolates
    /// texture coordinates across a pitched triangle (perspective-correct).
    private func drawPitchedImage(_ image: ImageSource, texture: RasterTexture, adjustment: RasterColorAdjustment, nearest: Bool,
                                  cancellation: RenderCancellation) throws -> [UInt8]? {
        let corners = image.corners.map { (x: WebMercator.unitX(longitude: $0.longitude), y: WebMercator.unitY(latitude: $0.latitude)) }
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let triangles = [
            Triangle(corners[0], corners[1], corners[3], uv: [(0, 0), (1, 0), (0, 1)]),
            Triangle(corners[1], corners[3], corners[2], uv: [(1, 0), (0, 1), (1, 1)]),
        ]
        let (width, height) = (frame.pixelWidth, frame.pixelHeight)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            if y % 64 == 0 { try cancellation.check() }
            for x in 0..<width {
                let unit = frame.unitPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                guard unit.x.isFinite, let uv = triangles.lazy.compactMap({ $0.textureCoordinate(at: unit) }).first else { continue }
                Self.store(adjustment.apply(texture.sample(u: uv.u, v: uv.v, nearest: nearest)), at: (y * width + x) * 4, in: &pixels)
            }
        }
        return pixels
    }

    /// Writes the premultiplied `color` as bytes at `offset`.
    static func store(_ color: SIMD4<Float>, at offset: Int, in pixels: inout [UInt8]) {
        let bytes = RasterColorAdjustment.bytes(color)
        pixels[offset] = bytes.x
        pixels[offset + 1] = bytes.y
        pixels[offset + 2] = bytes.z
        pixels[offset + 3] = bytes.w
    }

    /// A triangle in output pixels with a texture coordinate at each vertex.
    private struct Triangle {
        let a: (x: Double, y: Double), b: (x: Double, y: Double), c: (x: Double, y: Double)
        let uv: [(u: Double, v: Double)]
        let area: Double

        init(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double), uv: [(u: Double, v: Double)]) {
            (self.a, self.b, self.c, self.uv) = (a, b, c, uv)
            area = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)
        }

        /// The texture coordinate interpolated at `p`, nil outside (or for a degenerate triangle).
        func textureCoordinate(at p: (x: Double, y: Double)) -> (u: Double, v: Double)? {
            guard area != 0 else { return nil }
            let wb = ((p.x - a.x) * (c.y - a.y) - (c.x - a.x) * (p.y - a.y)) / area
            let wc = ((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)) / area
            let wa = 1 - wb - wc
            guard wa >= 0, wb >= 0, wc >= 0 else { return nil }
            return (wa * uv[0].u + wb * uv[1].u + wc * uv[2].u, wa * uv[0].v + wb * uv[1].v + wc * uv[2].v)
        }
    }
}
