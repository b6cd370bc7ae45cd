import Foundation
import ImageCodecs
import Raster

/// The tiles of a style's `raster` or `raster-dem` source: pictures (PNG,
/// JPEG, WebP) read through a ``TileLoading`` (a folder or URL template of
/// tiles), with the source's tile size, row scheme, bounds and zoom range.
///
/// Tiles are read at the zoom MapLibre covers a view with for such a source
/// (the style zoom rounded, for its tile size); past the source's maximum
/// zoom the last level's tiles are drawn larger, and below its minimum zoom
/// nothing is drawn.
public struct RasterTileSource: Sendable {
    /// Where the tile files come from.
    public let loader: any TileLoading
    /// The source's `tileSize` and, for elevation, `encoding`.
    public var options: RasterStyleSource
    /// How the set numbers its rows.
    public var scheme: TileScheme
    /// Where the set has tiles: those wholly outside are not requested. Nil for the whole world.
    public var bounds: GeoBounds?
    /// The zooms the source has tiles for (`minzoom`…`maxzoom`).
    public var zoomRange: ClosedRange<Int>
    /// The most pixels a tile may have.
    public var limits: RasterSourceLimits
    /// The pictures read kept between draws, and what layers made of them (shared by copies).
    let memory = RasterTileMemory()

    /// A source reading tiles from `loader`.
    public init(loader: any TileLoading, options: RasterStyleSource = RasterStyleSource(), scheme: TileScheme = .xyz,
                bounds: GeoBounds? = nil, zoomRange: ClosedRange<Int> = 0...22, limits: RasterSourceLimits = .default) {
        self.loader = loader
        self.options = options
        self.scheme = scheme
        self.bounds = bounds
        self.zoomRange = zoomRange
        self.limits = limits
    }

    /// The zoom of the tiles drawn at `styleZoom` (MapLibre's 512-point zoom):
    /// the ideal zoom for the tile size, rounded for pictures and rounded down
    /// for elevation (MapLibre Native's `coveringZoomLevel`), capped at the
    /// source's maximum (over-zoom); nil below the source's minimum zoom,
    /// where nothing is drawn.
    func tileZoom(atStyleZoom styleZoom: Double) -> Int? {
        let ideal = min(30, styleZoom + log2(512 / Double(max(1, options.tileSize))))
        let zoom = max(0, Int(options.encoding == nil ? ideal.rounded() : ideal.rounded(.down)))
        guard zoom >= zoomRange.lowerBound else { return nil }
        return min(zoom, zoomRange.upperBound, 24)
    }

    /// The picture of the tile at `coordinate` (row 0 at the north whatever
    /// the scheme), nil when the source has none there (outside its bounds,
    /// or an empty or missing file). Throws a ``VectorTileError`` naming the
    /// tile when its file is no picture or is over ``limits``.
    func image(at coordinate: TileCoordinate, cancellation: RenderCancellation) throws -> Bitmap? {
        if let bounds, !bounds.overlaps(coordinate) { return nil }
        let stored = scheme.stored(coordinate)
        let bytes = try loader.tile(stored, cancellation: cancellation)
        guard !bytes.isEmpty else { return nil }
        do {
            return try ImageDecoder.decode(Data(bytes), options: .init(maximumPixelCount: limits.tilePixels)).bitmap
        } catch let error as ImageCodecError where error.kind == .tooLarge {
            throw VectorTileError(.limitExceeded, "raster tile \(stored): \(error) (RasterSourceLimits.tilePixels is \(limits.tilePixels))")
        } catch {
            throw VectorTileError(.corrupt, "raster tile \(stored) is no picture that can be read: \(error)")
        }
    }
}

extension RasterTileSource {
    /// How many zooms above a missing tile an ancestor may stand in for it:
    /// MapLibre's `maxUnderzooming` (its source cache looks no farther up).
    static let maximumAncestorLevels = 3

    /// The pictures drawn for the tiles of `zoom` under `frame`'s view (kept
    /// in ``memory`` once read, as MapLibre keeps loaded tiles), by
    /// tile (columns wrapped into 0..<2^zoom): each tile's own, or, where the
    /// source lacks it, its nearest ancestor's at most
    /// ``maximumAncestorLevels`` zooms up and not below the source's minimum
    /// zoom (as MapLibre keeps a parent tile in place of a missing one), with
    /// the tile whose picture it is. Tiles with neither are left out. Throws
    /// a ``VectorTileError`` when the view needs more than `tileLimit` tiles
    /// (checked before any is read), when ancestors bring the files read over
    /// twice that, when the pictures decoded pass
    /// ``RasterSourceLimits/tilePixelsPerLayer``, or when a tile fails.
    func images(covering frame: VectorMapFrame, zoom: Int, tileLimit: Int,
                cancellation: RenderCancellation) throws -> [TileCoordinate: (tile: TileCoordinate, image: Bitmap)] {
        var read: [TileCoordinate: Bitmap?] = [:]
        var decoded = 0
        func picture(_ tile: TileCoordinate) throws -> Bitmap? {
            if let known = read[tile] { return known }
            guard read.count < 2 * tileLimit else {
                throw VectorTileError(.limitExceeded, "the view's missing raster tiles need over \(2 * tileLimit) tiles and ancestors read, over twice the limit of \(tileLimit) per snapshot (VectorMapLimits.tilesPerSnapshot)")
            }
            try cancellation.check()
            let image = try memory.picture(tile) ?? self.image(at: tile, cancellation: cancellation)
            if let image { memory.keep(image, for: tile) }
            decoded += image.map { $0.width * $0.height } ?? 0
            guard decoded <= limits.tilePixelsPerLayer else {
                throw VectorTileError(.limitExceeded, "the view's raster tiles hold over \(limits.tilePixelsPerLayer) pixels, the limit per layer (RasterSourceLimits.tilePixelsPerLayer)")
            }
            read[tile] = .some(image)
            return image
        }
        var images: [TileCoordinate: (tile: TileCoordinate, image: Bitmap)] = [:]
        for place in try Self.tiles(covering: frame, zoom: zoom, limit: tileLimit) {
            var tile = place
            while true {
                if let image = try picture(tile) {
                    images[place] = (tile, image)
                    break
                }
                guard tile.z > max(zoomRange.lowerBound, zoom - Self.maximumAncestorLevels), tile.z > 0 else { break }
                tile = TileCoordinate(z: tile.z - 1, x: tile.x / 2, y: tile.y / 2)
            }
        }
        return images
    }

    /// The tiles of `zoom` (columns wrapped) under `frame`'s view; throws
    /// when they are more than `limit`, before any is listed.
    static func tiles(covering frame: VectorMapFrame, zoom: Int, limit: Int) throws -> [TileCoordinate] {
        let n = 1 << zoom
        // The box of the view's four corners: a turned or pitched view's box is larger than the view.
        let corners = frame.groundCorners
        // Bounded so a hostile camera cannot make the ranges overflow.
        func index(_ unit: Double) -> Int { Int(max(-1e9, min(1e9, (unit * Double(n)).rounded(.down)))) }
        let firstColumn = index(corners.map(\.x).min()!), lastColumn = max(firstColumn, index(corners.map(\.x).max()!))
        let rows = max(0, index(corners.map(\.y).min()!))...min(n - 1, max(0, index(corners.map(\.y).max()!)))
        let count = min(n, lastColumn - firstColumn + 1) * rows.count
        guard count <= limit else {
            throw VectorTileError(.limitExceeded, "the view needs \(count) raster tiles at zoom \(zoom), over the limit of \(limit) per snapshot (VectorMapLimits.tilesPerSnapshot)")
        }
        var tiles: [TileCoordinate] = []
        for row in rows {
            for column in firstColumn...min(lastColumn, firstColumn + n - 1) {
                tiles.append(TileCoordinate(z: zoom, x: ((column % n) + n) % n, y: row))
            }
        }
        return tiles
    }
}
