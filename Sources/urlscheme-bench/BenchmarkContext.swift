import Foundation
import Raster

/// What every suite shares: a scratch directory, the iteration count, the
/// deterministic input images and the way to run a reference script.
final class BenchmarkContext {
    let workDirectory: URL
    let iterations: Int
    private var imageCache: [String: Bitmap] = [:]

    init(iterations: Int) throws {
        self.iterations = iterations
        workDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("urlscheme-bench-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: workDirectory)
    }

    /// `Benchmarks/` at the root of the package (found from this source file's path,
    /// which is where `swift build` compiled it from).
    static let benchmarksDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks", isDirectory: true)

    /// The vector tile test fixtures (the Helsinki archives, their `.mbtiles` and styles).
    static let vectorTileFixtures = benchmarksDirectory.deletingLastPathComponent()
        .appendingPathComponent("Tests/MapRenderingTests/Fixtures/tiles", isDirectory: true)

    /// One of the standard 1920×1280 inputs, generated once per run.
    func image(_ kind: BenchmarkImages.Kind) throws -> Bitmap {
        if let cached = imageCache[kind.rawValue] { return cached }
        let bitmap = try BenchmarkImages.make(kind)
        imageCache[kind.rawValue] = bitmap
        return bitmap
    }

    /// Writes an input image as raw RGBA8 (what the reference scripts read) and returns its path.
    func rawFile(_ kind: BenchmarkImages.Kind) throws -> URL {
        let url = workDirectory.appendingPathComponent("\(kind.rawValue).rgba")
        if !FileManager.default.fileExists(atPath: url.path) {
            try Data(image(kind).pixels).write(to: url)
        }
        return url
    }

    /// Runs `Benchmarks/reference/<script>` with python3 and parses its JSON answer:
    /// an object mapping row keys to `{"seconds": Double, "bytes": Int?, "label": String?}`.
    /// `iterations` overrides the run's count (1 for a suite that needs only the inputs).
    func runReference(script: String, arguments: [String], iterations: Int? = nil) throws -> [String: ReferenceResult] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let scriptPath = Self.benchmarksDirectory.appendingPathComponent("reference/\(script)").path
        process.arguments = ["python3", scriptPath, "--iterations", String(iterations ?? self.iterations)] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("reference script \(script) exited with status \(process.terminationStatus)")
        }
        do {
            return try JSONDecoder().decode([String: ReferenceResult].self, from: data)
        } catch {
            throw BenchmarkError("reference script \(script) printed no valid JSON: \(error)")
        }
    }
}

/// One row of a reference script's answer.
struct ReferenceResult: Decodable {
    var seconds: Double
    var bytes: Int?
    var label: String?
    /// For encoders: the PSNR (dB) of the reference's output, and of ours, as the reference decodes them.
    var psnr: Double?
    var oursPSNR: Double?
    /// The same with SSIM (luma), where the script measures it.
    var ssim: Double?
    var oursSSIM: Double?

    private enum CodingKeys: String, CodingKey {
        case seconds, bytes, label, psnr, ssim
        case oursPSNR = "ours_psnr"
        case oursSSIM = "ours_ssim"
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
