import Foundation

/// A style's sprite files through its resources (``StyleResourceLoading``):
/// how ``StyleDocumentRenderer`` and ``StyleResources`` read sprites.
struct ResourceSpriteProvider: SpriteProviding {
    let resources: any StyleResourceLoading

    func spriteFile(_ url: String, maximumBytes: Int) throws -> Data {
        do {
            guard let data = try resources.file(url, maximumBytes: maximumBytes) else { throw SpriteError(file: url, "does not exist") }
            return data
        } catch let error as StyleDocumentError {
            throw SpriteError(file: url, error.message)
        }
    }
}
