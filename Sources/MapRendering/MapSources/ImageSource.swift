import Foundation
import ImageCodecs
import Raster

/// A style's `image` source, loaded: one picture pinned by its corners to
/// four places, drawn by `raster` layers as MapLibre draws it (two triangles,
/// top-left, top-right, bottom-left and top-right, bottom-left, bottom-right,
/// each mapping the picture affinely).
public struct ImageSource: Sendable {
    /// The picture, straight alpha.
    public let picture: Bitmap
    /// Where its top-left, top-right, bottom-right and bottom-left corners go.
    public let corners: [GeoCoordinate]

    /// The source of the picture file `data` (PNG, JPEG, GIF, WebP) pinned to
    /// `corners` (top-left first, clockwise). Throws a ``VectorTileError``
    /// when there are not four corners, the file is no picture, or it has
    /// more pixels than `limits.imagePixels` (checked from its header).
    public init(data: Data, corners: [GeoCoordinate], limits: RasterSourceLimits = .default) throws {
        guard corners.count == 4 else {
            throw VectorTileError(.corrupt, "an image source has 4 corners, not \(corners.count)")
        }
        do {
            picture = try ImageDecoder.decode(data, options: .init(maximumPixelCount: limits.imagePixels)).bitmap
        } catch let error as ImageCodecError where error.kind == .tooLarge {
            throw VectorTileError(.limitExceeded, "image source: \(error) (RasterSourceLimits.imagePixels is \(limits.imagePixels))")
        } catch {
            throw VectorTileError(.corrupt, "image source: the file is no picture that can be read: \(error)")
        }
        self.corners = corners
    }

    /// The source of `picture` (straight alpha) pinned to `corners`. Throws a
    /// ``VectorTileError`` when there are not four corners or the picture has
    /// more pixels than `limits.imagePixels`.
    public init(picture: Bitmap, corners: [GeoCoordinate], limits: RasterSourceLimits = .default) throws {
        guard corners.count == 4 else {
            throw VectorTileError(.corrupt, "an image source has 4 corners, not \(corners.count)")
        }
        guard picture.width * picture.height <= limits.imagePixels else {
            throw VectorTileError(.limitExceeded, "image source: \(picture.width)×\(picture.height) pixels, over RasterSourceLimits.imagePixels (\(limits.imagePixels))")
        }
        self.picture = picture
        self.corners = corners
    }
}
