import Foundation
import Raster

/// Draws a `hillshade` layer as MapLibre does, in its two passes: "prepare"
/// turns each elevation tile into an 8-bit texture of its slopes (a Sobel
/// filter over the tile and a one-pixel border taken from its loaded
/// neighbours, else from its own edge), then each output pixel samples that
/// texture bilinearly and shades the slope from the light's direction
/// (`hillshade_prepare.fragment.glsl`, `hillshade.fragment.glsl`).
struct HillshadeLayerDrawer {
    /// Where the view lies in the world.
    let frame: VectorMapFrame
    /// The style zoom the paint is evaluated at.
    let zoom: Double
    /// The most tiles one layer may read (`VectorMapLimits.tilesPerSnapshot`).
    let tileLimit: Int

    /// One tile's prepared slopes: x and y derivatives packed in 0…255, as the
    /// prepare pass's RG8 output.
    struct Slopes {
        let side: Int
        /// x then y per texel, row order.
        let texels: [UInt8]
    }

    /// The layer `style` drawn from the elevation tiles of `source`:
    /// premultiplied RGBA8 of the whole frame, or nil when it draws nothing.
    /// Throws what reading the tiles throws, and for a tile that is not square.
    func draw(_ style: HillshadeLayerStyle, from source: RasterTileSource, cancellation: RenderCancellation) throws -> [UInt8]? {
        guard let tileZoom = source.tileZoom(atStyleZoom: zoom) else { return nil }
        let generation = source.memory.generation
        let images = try source.images(covering: frame, zoom: tileZoom, tileLimit: tileLimit, cancellation: cancellation)
        guard !images.isEmpty else { return nil }
        var pictures: [TileCoordinate: Bitmap] = [:]
        for (tile, image) in images.values where pictures[tile] == nil {
            guard image.width == image.height, image.width > 0 else {
                throw VectorTileError(.corrupt, "elevation tile \(tile) is \(image.width)×\(image.height) pixels; a raster-dem tile is square")
            }
            pictures[tile] = image
        }
        // Heights are read only for tiles whose slopes are not kept (or a neighbour's border they need).
        let encoding = source.options.encoding ?? .mapbox
        var elevations: [TileCoordinate: (side: Int, heights: [Float])] = [:]
        func elevation(_ tile: TileCoordinate) -> (side: Int, heights: [Float])? {
            if let known = elevations[tile] { return known }
            guard let image = pictures[tile] else { return nil }
            elevations[tile] = (image.width, Self.heights(of: image, encoding: encoding))
            return elevations[tile]
        }
        var slopes: [TileCoordinate: Slopes] = [:]
        for (tile, image) in pictures {
            try cancellation.check()
            let neighbours = Self.neighbours(of: tile).enumerated().reduce(0) { mask, next in
                pictures[next.element]?.width == image.width ? mask | 1 << next.offset : mask
            }
            slopes[tile] = source.memory.slopes(of: tile, neighbours: neighbours, madeSince: generation) {
                var lent: [TileCoordinate: (side: Int, heights: [Float])] = [:]
                for neighbour in [tile] + Self.neighbours(of: tile) { lent[neighbour] = elevation(neighbour) }
                return Self.prepare(tile, elevations: lent, maximumZoom: source.zoomRange.upperBound)
            }
        }
        return try shade(images.mapValues { (tile: $0.tile, slopes: slopes[$0.tile]!) }, zoom: tileZoom, style: style, cancellation: cancellation)
    }

    /// The eight tiles around `tile` (columns wrapped round the world) whose
    /// borders its slopes take, in a fixed order.
    static func neighbours(of tile: TileCoordinate) -> [TileCoordinate] {
        let n = 1 << tile.z
        return [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)].map { dx, dy in
            TileCoordinate(z: tile.z, x: ((tile.x + dx) % n + n) % n, y: tile.y + dy)
        }
    }

    /// Each pixel's elevation in metres, as MapLibre's shader unpacks it (divided by 4).
    static func heights(of image: Bitmap, encoding: RasterStyleSource.Encoding) -> [Float] {
        var heights = [Float](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { pixels in
            for i in heights.indices {
                heights[i] = Float(encoding.elevation(red: pixels[i * 4], green: pixels[i * 4 + 1], blue: pixels[i * 4 + 2]) / 4)
            }
        }
        return heights
    }

    /// The prepare pass for `tile`: the slopes at each of its pixels from its
    /// 3×3 neighbourhood, reaching into a neighbouring tile of the same size
    /// when it is loaded and clamped to the tile's own edge otherwise.
    static func prepare(_ tile: TileCoordinate, elevations: [TileCoordinate: (side: Int, heights: [Float])], maximumZoom: Int) -> Slopes {
        let (side, own) = elevations[tile]!
        let n = 1 << tile.z
        func height(_ x: Int, _ y: Int) -> Float {
            if x >= 0, x < side, y >= 0, y < side { return own[y * side + x] }
            let dx = x < 0 ? -1 : x >= side ? 1 : 0, dy = y < 0 ? -1 : y >= side ? 1 : 0
            // The same wrapping as `neighbours(of:)`.
            let neighbour = TileCoordinate(z: tile.z, x: ((tile.x + dx) % n + n) % n, y: tile.y + dy)
            if let (otherSide, heights) = elevations[neighbour], otherSide == side {
                return heights[(y - dy * side) * side + (x - dx * side)]
            }
            return own[min(max(y, 0), side - 1) * side + min(max(x, 0), side - 1)]
        }
        let z = Float(tile.z)
        let factor: Float = z < 2 ? 0.4 : z < 4.5 ? 0.35 : 0.3
        let divisor = pow(2, (z - Float(maximumZoom)) * factor + 19.2562 - z)
        var texels = [UInt8](repeating: 0, count: side * side * 2)
        for y in 0..<side {
            for x in 0..<side {
                let a = height(x - 1, y - 1), b = height(x, y - 1), c = height(x + 1, y - 1)
                let d = height(x - 1, y), f = height(x + 1, y)
                let g = height(x - 1, y + 1), h = height(x, y + 1), i = height(x + 1, y + 1)
                let dx = ((c + f + f + i) - (a + d + d + g)) / divisor
                let dy = ((g + h + h + i) - (a + b + b + c)) / divisor
                texels[(y * side + x) * 2] = Self.byte(dx / 2 + 0.5)
                texels[(y * side + x) * 2 + 1] = Self.byte(dy / 2 + 0.5)
            }
        }
        return Slopes(side: side, texels: texels)
    }

    /// `value` clamped to 0…1 and stored in 8 bits, as a framebuffer does.
    private static func byte(_ value: Float) -> UInt8 {
        UInt8((min(max(value, 0), 1) * 255).rounded(.toNearestOrEven))
    }

    /// The shading pass: each pixel whose centre lies on a tile of `slopes`
    /// (of zoom `tileZoom`), shaded from the slopes of the tile (it or an ancestor) given for it.
    private func shade(_ slopes: [TileCoordinate: (tile: TileCoordinate, slopes: Slopes)], zoom tileZoom: Int, style: HillshadeLayerStyle,
                       cancellation: RenderCancellation) throws -> [UInt8] {
        let shading = HillshadeShading(style, atZoom: zoom)
        // The latitudes of each owner's top and bottom edges, the shader's uniform per tile.
        var latitudes: [TileCoordinate: (top: Double, bottom: Double)] = [:]
        for (owner, _) in slopes.values where latitudes[owner] == nil {
            let rows = Double(1 << owner.z)
            latitudes[owner] = (Self.latitude(ofRow: Double(owner.y), scale: rows), Self.latitude(ofRow: Double(owner.y + 1), scale: rows))
        }
        let owners = latitudes
        return try frame.colorPixels(onTilesOf: tileZoom, cancellation: cancellation,
                                     lookup: { slopes[$0].map { ($0.tile, (slopes: $0.slopes, latitudes: owners[$0.tile]!)) } }) {
            _, tile, u, v in
            let derivative = Self.sample(tile.slopes, u: u, v: v) * 2 - 1
            // The latitude under the pixel, linear across the tile as the shader takes it.
            let latitude = (tile.latitudes.top - tile.latitudes.bottom) * (1 - v) + tile.latitudes.bottom
            return shading.color(derivative: derivative, latitude: latitude)
        }
    }

    /// The latitude in degrees of tile row edge `row` (fractional rows allowed) on a world `scale` tiles tall.
    private static func latitude(ofRow row: Double, scale: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * row / scale))) * 180 / .pi
    }

    /// The slopes at (`u`, `v`) across `tile`, bilinear between texel centres, clamped to its edges, 0…1.
    static func sample(_ tile: Slopes, u: Double, v: Double) -> SIMD2<Float> {
        let side = tile.side
        let fx = u * Double(side) - 0.5, fy = v * Double(side) - 0.5
        let x0 = fx.rounded(.down), y0 = fy.rounded(.down)
        let tx = Float(fx - x0), ty = Float(fy - y0)
        func texel(_ x: Int, _ y: Int) -> SIMD2<Float> {
            let i = (min(max(y, 0), side - 1) * side + min(max(x, 0), side - 1)) * 2
            return SIMD2(Float(tile.texels[i]), Float(tile.texels[i + 1])) / 255
        }
        let (ix, iy) = (Int(x0), Int(y0))
        let top = texel(ix, iy) * (1 - tx) + texel(ix + 1, iy) * tx
        let bottom = texel(ix, iy + 1) * (1 - tx) + texel(ix + 1, iy + 1) * tx
        return top * (1 - ty) + bottom * ty
    }
}
