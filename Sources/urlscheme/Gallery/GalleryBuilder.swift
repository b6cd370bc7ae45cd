import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// Builds the gallery (`urlscheme gallery DIR`): the photo goes into a
/// temporary asset store, every image of `GalleryScreens` is loaded through an
/// `ImageLoader` (all prefetched first, then each awaited in page order, which
/// joins its prefetch), written to `DIR/images/`, and `DIR/index.html` shows
/// them with their URLs.
///
/// The session caches in memory only and has no HTTP cache, so every run is
/// cold: each image is rendered once, and its bytes for the file come from the
/// session's `QueryKeyedURLCache`, stored by the load the decode used.
struct GalleryBuilder {
    /// Why the gallery could not be built, said so a user can act on it.
    enum Failure: Error, CustomStringConvertible {
        case notWritable(path: String, reason: String)
        case imageFailed(url: URL, reason: String)

        var description: String {
            switch self {
            case let .notWritable(path, reason): "cannot write the gallery to \(path): \(reason)"
            case let .imageFailed(url, reason): "could not load \(url.absoluteString): \(reason)"
            }
        }
    }

    /// What a run made.
    struct Result {
        let imageCount: Int
        let byteCount: Int
        let seconds: Double
        let statistics: ImageLoader.Statistics
    }

    let directory: URL
    /// Vector tile sources (`--tiles`) whose street maps the page shows, by name.
    var streetMaps: [(name: String, source: VectorTileSource)] = []

    func run() async throws -> Result {
        let start = DispatchTime.now()
        let imagesDirectory = directory.appendingPathComponent("images", isDirectory: true)
        try prepare(imagesDirectory)

        let storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("urlscheme-gallery-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: storeDirectory) }
        let store = try FileAssetStore(directory: storeDirectory)
        let photo = try store.add(GalleryPhoto.testorig)
        var tileSources = MapTileSources()
        for (name, source) in streetMaps { tileSources.register(name, source) }
        let environment = URLSchemeKitEnvironment(assets: AssetImageSource(store: store, cache: DecodedImageCache(capacity: 64 << 20)),
                                                  tileSources: tileSources,
                                                  imageCache: QueryKeyedURLCache(memoryCapacity: 256 << 20, diskCapacity: 0), httpCache: nil)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(environment)
        let loader = ImageLoader(configuration: ImageLoader.Configuration(session: URLSession(configuration: configuration)))

        let participantItems = GalleryScreens.participantURLs(photo: photo)
        let participantCount = participantItems.count
        // The screens need the participants' ids, so their photos are made and stored first; any ids count the screens' images.
        let streetMapSections = streetMaps.map { GalleryScreens.streetMap(name: $0.name, source: $0.source) }
        let total = try participantCount + (GalleryScreens.sections(photo: photo, participants: Array(repeating: photo, count: participantCount))
            + streetMapSections).reduce(0) { $0 + $1.items.count }
        var writer = ImageWriter(loader: loader, directory: imagesDirectory, progress: GalleryProgress(total: total))
        loader.prefetch(participantItems.map(\.url))
        let participantImages = try await writer.load(participantItems)
        let participants = try participantImages.map { try store.add(Data(contentsOf: directory.appendingPathComponent($0.file))) }

        let screens = try GalleryScreens.sections(photo: photo, participants: participants) + streetMapSections
        loader.prefetch(screens.flatMap { $0.items.map(\.url) })
        var sections: [(section: GallerySection, images: [GalleryPage.Image])] = [
            (GallerySection(title: "Participants' photos (asset:// edits, stored back as assets)", layout: .grid, dark: false, items: participantItems),
             participantImages),
        ]
        for screen in screens {
            sections.append((screen, try await writer.load(screen.items)))
        }

        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let count = sections.reduce(0) { $0 + $1.images.count }
        let summary = "\(count) images, every one loaded by URL through ImageLoader and URLSession, made in \(String(format: "%.2f", seconds)) s. "
            + "The photo is the IJG test image testorig.jpg (IJG licence); this software is based in part on the work of the Independent JPEG Group."
        let page = GalleryPage(sections: sections, summary: summary)
        do {
            try Data(page.html.utf8).write(to: directory.appendingPathComponent("index.html"), options: .atomic)
        } catch {
            throw Failure.notWritable(path: directory.path, reason: error.localizedDescription)
        }
        return Result(imageCount: count, byteCount: writer.byteCount, seconds: seconds, statistics: loader.statistics)
    }

    /// Creates `images` (and every directory above it) and proves a file can be
    /// written there. POSIX calls, so the message is the system's own reason
    /// ("Not a directory", "Permission denied", "Read-only file system").
    private func prepare(_ images: URL) throws {
        var path = ""
        for component in images.standardizedFileURL.pathComponents {
            path = component == "/" ? "/" : (path == "/" ? "/" : path + "/") + component
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw Failure.notWritable(path: directory.path, reason: String(cString: strerror(errno)))
            }
        }
        let probe = images.appendingPathComponent(".probe-\(UUID().uuidString)").path
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw Failure.notWritable(path: directory.path, reason: String(cString: strerror(errno))) }
        close(descriptor)
        unlink(probe)
    }
}

/// Loads items through the loader in order and writes each body to a numbered file.
private struct ImageWriter {
    let loader: ImageLoader
    let directory: URL
    var progress: GalleryProgress
    var byteCount = 0
    private var next = 1

    init(loader: ImageLoader, directory: URL, progress: GalleryProgress) {
        self.loader = loader
        self.directory = directory
        self.progress = progress
    }

    /// Awaits each of `items` (prefetched by the caller), in order: decoded,
    /// which proves it is an image, then its bytes (from the session's cache) written.
    mutating func load(_ items: [GalleryItem]) async throws -> [GalleryPage.Image] {
        var images: [GalleryPage.Image] = []
        for item in items {
            let image: LoadedImage, data: Data
            do {
                image = try await loader.image(for: item.url)
                data = try await loader.data(for: item.url)
            } catch {
                throw GalleryBuilder.Failure.imageFailed(url: item.url, reason: error.localizedDescription)
            }
            let format = ImageFormat(sniffing: data) ?? image.sourceFormat
            let name = String(format: "%02d-%@.%@", next, item.url.scheme ?? "image", format.fileExtension)
            next += 1
            do {
                try data.write(to: directory.appendingPathComponent(name), options: .atomic)
            } catch {
                throw GalleryBuilder.Failure.notWritable(path: directory.path, reason: error.localizedDescription)
            }
            byteCount += data.count
            progress.advance(item.url, bytes: data.count)
            images.append(GalleryPage.Image(item: item, file: "images/" + name, width: image.bitmap.width, height: image.bitmap.height))
        }
        return images
    }
}
