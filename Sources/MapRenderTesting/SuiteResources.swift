import Foundation
import ImageCodecs
import MapRendering
import Raster
import Synchronization

/// A test style's resources from the suite's files, as MapLibre's runners
/// resolve `local://X` (and `http://localhost:2900/X`): `integration/X`.
/// Keeps the paths of the files read, so a passing test is copied with only
/// what it loads. What the renderer cannot express (a URL outside the
/// suite) throws
/// ``RenderTestRenderer/Unsupported``.
final class SuiteResources: StyleResourceLoading {
    private let renderer: RenderTestRenderer
    /// The canvas the test's harness adds, if any: its id and picture's path under `integration/`.
    private let fakeCanvas: (id: String, image: String)?
    private let read = Mutex<Set<String>>([])

    /// The files read, relative to the suite's `integration/` folder.
    var filesRead: Set<String> { read.withLock { $0 } }

    /// Resources of the suite `renderer` runs, with the canvas of `fakeCanvas`.
    init(renderer: RenderTestRenderer, fakeCanvas: (id: String, image: String)? = nil) {
        self.renderer = renderer
        self.fakeCanvas = fakeCanvas
    }

    /// The test harness's canvas: its picture decoded, as the harness draws it on the page's canvas element.
    func canvas(id: String) throws -> Bitmap? {
        guard let fakeCanvas, fakeCanvas.id == id else { return nil }
        let path = fakeCanvas.image.hasPrefix("./") ? String(fakeCanvas.image.dropFirst(2)) : fakeCanvas.image
        guard let data = try file("local://" + path, maximumBytes: 64 << 20) else { return nil }
        return try ImageDecoder.decode(data).bitmap
    }

    func tileLoader(template: String) throws -> any TileLoading {
        let path = try renderer.suitePath(template, "tiles")
        return SuiteFileLoader(integration: renderer.integration, template: path) { [self] file in self.record(file) }
    }

    /// None: a `url` is a TileJSON document, read through `file(_:maximumBytes:)`.
    func vectorTiles(url: String) throws -> (any VectorTileProviding)? {
        nil
    }

    func file(_ url: String, maximumBytes: Int) throws -> Data? {
        let path = try renderer.suitePath(url, "a file")
        let file = renderer.integration.appendingPathComponent(path)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int else { return nil }
        guard size <= maximumBytes else { throw StyleDocumentError("'\(url)': \(size) bytes, over the limit of \(maximumBytes)") }
        let data = try Data(contentsOf: file)
        record(path)
        return try symlinkTarget(of: data, at: path, maximumBytes: maximumBytes) ?? data
    }

    /// The file a git symlink of the suite names, read, when `data` (the file at
    /// `path`) is one checked out as text: a few printable bytes naming a file
    /// beside it (the suite's `sprites/icon-text-fit-2x.json` is a link to
    /// `icon-text-fit.json`); nil for any other file.
    private func symlinkTarget(of data: Data, at path: String, maximumBytes: Int) throws -> Data? {
        guard data.count < 256, !data.isEmpty, data.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              let name = String(data: data, encoding: .ascii), !name.contains("/") else { return nil }
        let target = (path as NSString).deletingLastPathComponent + "/" + name
        let file = renderer.integration.appendingPathComponent(target)
        guard target != path, let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int else { return nil }
        guard size <= maximumBytes else { throw StyleDocumentError("'\(target)': \(size) bytes, over the limit of \(maximumBytes)") }
        let linked = try Data(contentsOf: file)
        record(target)
        return linked
    }

    /// Notes `path` (under `integration/`) as read.
    private func record(_ path: String) {
        read.withLock { _ = $0.insert(path) }
    }
}
