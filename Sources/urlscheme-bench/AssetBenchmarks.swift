import Foundation
import ImageCodecs
import Raster
import URLSchemeKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 7's speed goals: a 256-pixel-wide thumbnail of a 4000×3000 camera
/// JPEG against Pillow's `draft()` + `thumbnail()`, and cached `asset://`
/// loads against nginx serving the same bytes on loopback.
struct AssetBenchmarks: BenchmarkSuite {
    let name = "asset"
    let summary = "asset:// thumbnail of a 4000×3000 JPEG vs Pillow draft()+thumbnail(); cached loads vs nginx"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        let photo = try JPEGEncoder(quality: 90).encode(BenchmarkImages.photo(width: 4000, height: 3000))
        let photoFile = context.workDirectory.appendingPathComponent("camera-4000x3000.jpg")
        try photo.write(to: photoFile)
        let storeDirectory = context.workDirectory.appendingPathComponent("assets")
        try? FileManager.default.removeItem(at: storeDirectory)
        let store = try FileAssetStore(directory: storeDirectory)
        let id = try store.add(photo)

        // The thumbnail as asset:// makes it: scaled decode through a cold cache, then Lanczos.
        let source = AssetImageSource(store: store)
        var decodedSize = ""
        let thumbnail = try Stopwatch.median(iterations: context.iterations) {
            source.cache.removeAll()
            let decoded = try source.image(for: id, fraction: 256.0 / 4000)
            decodedSize = "\(decoded.bitmap.width)×\(decoded.bitmap.height)"
            _ = try decoded.bitmap.resized(width: 256, height: 192)
        }
        let reference = try context.runReference(script: "asset.py", arguments: ["--jpeg", photoFile.path])
        let pillow = reference["thumbnail"]
        rows.append(BenchmarkRow(name: "thumbnail 256 px of a 4000×3000 JPEG (decode + resize)", ours: thumbnail,
                                 reference: pillow?.seconds, referenceName: pillow?.label ?? "Pillow", goal: 1.5,
                                 detail: "ours decodes \(decodedSize) (1/8) then Lanczos; Pillow draft() then thumbnail()"))

        // The same through URLSession, JPEG-encoded, no URL cache: what a first load costs.
        let url = try AssetURL(id: id, width: 256).url
        var body = Data()
        let first = try Stopwatch.median(iterations: context.iterations) {
            // A session of its own each time: a cold decode cache, no URL cache.
            let cold = URLSessionConfiguration.ephemeral
            cold.installURLSchemeKit(URLSchemeKitEnvironment(assets: AssetImageSource(store: store), imageCache: nil, httpCache: nil))
            let coldSession = URLSession(configuration: cold)
            defer { coldSession.finishTasksAndInvalidate() }
            body = try MapBenchmarks.load(url, coldSession)
        }
        rows.append(BenchmarkRow(name: "asset:// 256 px thumbnail, first load via URLSession", ours: first, reference: nil,
                                 referenceName: "–", goal: nil, detail: "\(body.count) B JPEG"))

        // Cached loads of a 640-pixel rendition against nginx serving the same bytes.
        let rendition = try AssetURL(id: id, width: 640, filters: [.sepia]).url
        rows.append(try CacheBenchmarks.cachedAgainstNginx(rendition, name: "asset://", assets: AssetImageSource(store: store), context: context))
        return rows
    }
}
