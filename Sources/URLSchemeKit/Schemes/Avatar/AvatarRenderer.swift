import Foundation
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `avatar://`'s renderer: composes participants' photos from an
/// `AssetImageSource` into one square (`AvatarLayout`), each photo
/// centre-cropped to fill its tile, then masks a circle if asked.
///
/// A participant whose asset does not exist gets a plain grey tile, so a chat
/// whose member deleted a photo still has an avatar; only when no participant
/// exists does the load fail, with `URLError(.fileDoesNotExist)`. A stored
/// photo that does not decode fails the load (`.cannotDecodeContentData`).
public struct AvatarRenderer: Renderer {
    /// The colour of a missing participant's tile.
    public static let placeholderColor = RGBA(196, 200, 204)

    /// A renderer of the environment's photos (`URLSchemeKitEnvironment.assets`).
    public init() {}

    /// The composition's output: bump when the layout, the mask, the
    /// placeholder or the encoder defaults change.
    public var version: String { "avatar-1 " + OutputEncoding.version }

    /// Composes the participants' photos into one image. Throws `URLError(.fileDoesNotExist)` when no participant exists, `.cannotDecodeContentData` when a photo does not decode.
    public func render(_ avatar: AvatarURL, in context: RenderContext) throws -> RenderedImage {
        let source = try AssetImageSource.of(context)
        let cancellation = context.cancellation
        let layout = AvatarLayout(participants: avatar.ids.count, size: avatar.size)
        var canvas = try Bitmap(width: avatar.size, height: avatar.size)
        var missing: [String] = []
        // One decode per photo however many tiles show it, at the detail
        // its largest tile needs; let go after its last tile.
        var photos = PhotosOfTiles(ids: avatar.ids, tiles: layout.tiles)
        for (member, (id, tile)) in zip(avatar.ids, layout.tiles).enumerated() {
            let photo: Bitmap
            do {
                let image = try photos.image(of: member) {
                    try self.image(id, from: source, covering: $0, budget: context.budget, cancellation: cancellation)
                }
                photo = try image.resized(width: tile.width, height: tile.height, mode: .fill, checkCancellation: cancellation.check)
            } catch AssetStoreError.notFound {
                missing.append(id)
                photo = try Bitmap(width: tile.width, height: tile.height, fill: Self.placeholderColor)
            }
            try canvas.composite(photo, at: tile.x, tile.y)
            try cancellation.check()
        }
        if missing.count == avatar.ids.count {
            throw URLErrors.make(.fileDoesNotExist, "no participant's asset exists (\(missing.joined(separator: ", ")))", url: nil)
        }
        if avatar.shape == .circle {
            canvas = try canvas.masked(by: .circle)
        }
        return try OutputEncoding.encode(canvas, format: avatar.format ?? (avatar.shape == .circle ? .png : .jpeg), quality: avatar.quality, lossless: avatar.lossless, cancellation: cancellation)
    }

    /// Asset `id` decoded with enough detail to be cropped and scaled to
    /// cover every one of `tiles`.
    private func image(_ id: String, from source: AssetImageSource, covering tiles: [PixelRect], budget: ResourceBudget,
                       cancellation: RenderCancellation) throws -> Bitmap {
        let metadata = try source.metadata(for: id)
        let upright = metadata.uprightSize
        let detail = tiles.map { max(Double($0.width) / Double(upright.width), Double($0.height) / Double(upright.height)) }.max() ?? 1
        return try source.image(for: metadata, fraction: detail, budget: budget, cancellation: cancellation).bitmap
    }
}
