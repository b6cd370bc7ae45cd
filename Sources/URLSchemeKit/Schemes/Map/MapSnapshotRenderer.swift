import Foundation
import ImageCodecs
import MapRendering
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `map://`'s default renderer: draws the snapshot from the embedded world
/// basemap (`BasemapRenderer`) and encodes it as the URL asks.
public struct MapSnapshotRenderer: Renderer {
    private let basemap = BasemapRenderer()

    public init() {}

    public func render(_ map: MapURL, cancellation: RenderCancellation) throws -> RenderedImage {
        let bitmap: Bitmap
        do {
            bitmap = try basemap.render(map.options, checkCancellation: cancellation.check)
        } catch let error as MapOptionError {
            throw URLParameterError(parameter: error.option, reason: error.reason)
        }
        try cancellation.check()
        switch map.format {
        case .png:
            return RenderedImage(data: try PNGEncoder().encode(bitmap), mimeType: ImageFormat.png.mimeType)
        case .jpeg:
            throw URLErrors.make(.unsupportedURL, "format=jpeg is not available yet in this build (the JPEG encoder is pending); use format=png", url: nil)
        }
    }
}
