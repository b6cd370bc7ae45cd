import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// `urlscheme render STYLE.json [-o FILE] [--size WxH] [--scale R] [--center LON,LAT]
/// [--zoom Z] [--bearing B] [--pitch P]`: a whole MapLibre style drawn as
/// MapLibre Native's `mbgl-render` draws it, the camera the style's own
/// unless a flag says otherwise (zoom in MapLibre's 512-point tiles).
/// Sources, sprites and glyphs from files beside the style, `file://`,
/// `pmtiles://` and `http(s)` (through the HTTP cache unless `--no-cache`).
enum RenderCommand {
    static let usage = """
        urlscheme render STYLE.json [-o FILE] [--size WxH] [--scale R] [--center LON,LAT]
                         [--zoom Z] [--bearing B] [--pitch P] [--no-cache] [--strict]
        """

    /// Runs the command with `arguments` (those after `render`); exits.
    @MainActor static func run(_ arguments: [String]) -> Never {
        var arguments = arguments
        var styleFile: String?
        var output: String?
        var width = 512, height = 512, scale = 1.0
        var center: GeoCoordinate?, zoom: Double?, bearing: Double?, pitch: Double?
        var useCache = true, strict = false
        func value(_ flag: String) -> String {
            guard !arguments.isEmpty else { fail("\(flag) needs a value", code: 2) }
            return arguments.removeFirst()
        }
        func number(_ flag: String, _ text: String, _ range: ClosedRange<Double>) -> Double {
            guard let number = Double(text), number.isFinite, range.contains(number) else {
                fail("\(flag) \(text): not a number from \(range.lowerBound) to \(range.upperBound)", code: 2)
            }
            return number
        }
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "-o", "--output": output = value(argument)
            case "--size":
                let text = value(argument)
                let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...4096).contains(w), (1...4096).contains(h) else {
                    fail("--size \(text): not WIDTHxHEIGHT, each from 1 to 4096", code: 2)
                }
                (width, height) = (w, h)
            case "--scale": scale = number(argument, value(argument), MapSnapshotOptions.scaleRange)
            case "--center":
                let text = value(argument)
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let longitude = Double(parts[0]), let latitude = Double(parts[1]),
                      (-180...180).contains(longitude), (-85.0511...85.0511).contains(latitude) else {
                    fail("--center \(text): not LONGITUDE,LATITUDE (longitude -180 to 180, latitude -85.0511 to 85.0511)", code: 2)
                }
                center = GeoCoordinate(latitude: latitude, longitude: longitude)
            case "--zoom": zoom = number(argument, value(argument), 0...24)
            case "--bearing": bearing = number(argument, value(argument), -360...360)
            case "--pitch": pitch = number(argument, value(argument), 0...StyleDocumentRenderer.maximumPitch)
            case "--no-cache": useCache = false
            case "--strict": strict = true
            default:
                guard !argument.hasPrefix("-"), styleFile == nil else { fail("unexpected argument '\(argument)' for 'render'; usage:\n\(usage)", code: 2) }
                styleFile = argument
            }
        }
        guard let styleFile else { fail("render needs a STYLE.json; usage:\n\(usage)", code: 2) }
        let format: ImageFormat
        switch output.map({ ($0 as NSString).pathExtension.lowercased() }) {
        case nil, "png": format = .png
        case "jpg", "jpeg": format = .jpeg
        case "webp": format = .webp
        case let other?: fail("-o \(output!): .\(other) is not written; name the file .png, .jpg or .webp", code: 2)
        }
        let file = URL(fileURLWithPath: styleFile)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: nil, httpCache: useCache ? .standard : nil))
        let resources = StyleSessionResources(folder: file.deletingLastPathComponent(), configuration: configuration)
        do {
            let data = try VectorTileSource.readStyle(file, budget: ResourceBudget())
            let document = try StyleDocumentRenderer(style: data, fileName: styleFile, resources: resources, pixelRatio: scale)
            printWarnings(document.style.warnings)
            if strict && !document.style.warnings.isEmpty { fail("\(styleFile): the style has warnings, and --strict makes them errors") }
            var camera = document.camera
            if let center { camera.center = center }
            if let zoom { camera.zoom = zoom }
            if let bearing { camera.bearing = bearing }
            if let pitch { camera.pitch = pitch }
            let bitmap = try document.render(width: width, height: height, scale: scale, camera: camera)
            let encoded = try ImageEncoder.encode(bitmap, format: format, quality: 90, background: .white)
            if let output {
                try encoded.write(to: URL(fileURLWithPath: output))
            } else {
                FileHandle.standardOutput.write(encoded)
            }
            FileHandle.standardError.write(Data("\(bitmap.width)×\(bitmap.height) \(format.rawValue), \(encoded.count) bytes\n".utf8))
            exit(0)
        } catch {
            fail(plainDescription(error))
        }
    }
}
