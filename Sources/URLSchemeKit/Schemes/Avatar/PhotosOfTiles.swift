import Raster

/// The photos of one avatar render, each decoded once however many members
/// (tiles) show it: kept from its first tile to its last, then let go, so a
/// four-member avatar of one photo is one decode, and at most the photos
/// still to be shown are held.
struct PhotosOfTiles {
    private let ids: [String]
    private let tiles: [PixelRect]
    private var kept: [String: Bitmap] = [:]

    /// The photos for members `ids`, member `i` shown in `tiles[i]`.
    init(ids: [String], tiles: [PixelRect]) {
        self.ids = ids
        self.tiles = tiles
    }

    /// Member `member`'s photo: kept from an earlier member showing the same
    /// id, or made by `decode` (given every tile that shows it, so one decode
    /// has the detail the largest needs). Let go after its last member.
    mutating func image(of member: Int, decode: ([PixelRect]) throws -> Bitmap) rethrows -> Bitmap {
        let id = ids[member]
        let image: Bitmap
        if let kept = kept[id] {
            image = kept
        } else {
            let shown = ids.indices.filter { ids[$0] == id && $0 < tiles.count }.map { tiles[$0] }
            image = try decode(shown)
            kept[id] = image
        }
        if !ids[(member + 1)...].contains(id) { kept[id] = nil }
        return image
    }
}
