import Foundation
import ImageCodecs
import MapRendering
import Raster

/// Draws a MapLibre render test with this package's renderer and compares it
/// with the expected image as MapLibre Native's runner does.
///
/// `local://X` (and `http://localhost:2900/X`) in a style name files of the
/// suite's `integration/` folder, as MapLibre's runners resolve them. The
/// camera is the style's own `center`, `zoom` (MapLibre's 512-point zoom:
/// ``VectorMapCamera`` takes it plus one), `bearing` and `pitch` (held to 60, MapLibre's
/// default `maxPitch`); the image is the test's `width` ×
/// `height` at its `pixelRatio`.
struct RenderTestRenderer {
    /// The suite's `integration/` folder.
    var integration: URL
    /// The comparison.
    var pixelMatch = PixelMatch()

    /// What running a test gave.
    struct Run {
        var outcome: RenderTestOutcome
        /// The image drawn (straight alpha), when one was.
        var actual: Bitmap?
        /// The suite's files the style loaded, relative to `integration/`.
        var resources: Set<String> = []
    }

    /// Runs `test`.
    func run(_ test: RenderTest) -> Run {
        let suite = SuiteResources(renderer: self, fakeCanvas: test.fakeCanvas)
        do {
            let actual = try render(test, resources: suite)
            let resources = suite.filesRead
            guard FileManager.default.fileExists(atPath: test.expectedImage.path) else {
                return Run(outcome: .error("the test has no expected.png"), actual: actual)
            }
            // The nearest of the expected images, as MapLibre's runner takes it.
            var difference = Double.infinity
            for url in test.expectedImages {
                let expected = try PNGDecoder().decode(Data(contentsOf: url))
                guard expected.width == actual.width, expected.height == actual.height else {
                    return Run(outcome: .error("drew \(actual.width)×\(actual.height) pixels, \(url.lastPathComponent) is \(expected.width)×\(expected.height)"), actual: actual)
                }
                let differing = pixelMatch.compare(PixelMatch.premultiplied(actual), PixelMatch.premultiplied(expected),
                                                   width: actual.width, height: actual.height).count
                difference = min(difference, Double(differing) / Double(actual.width * actual.height))
            }
            let outcome: RenderTestOutcome = difference <= test.allowed ? .passed(difference: difference) : .failed(difference: difference)
            return Run(outcome: outcome, actual: actual, resources: resources)
        } catch let unsupported as Unsupported {
            return Run(outcome: .unsupported(unsupported.feature))
        } catch {
            return Run(outcome: .error(String(describing: error)))
        }
    }

    /// A feature the renderer cannot express, which stops a test before drawing.
    struct Unsupported: Error {
        var feature: String
    }

    /// The test's style drawn with its camera, its files read through
    /// `resources`. Throws ``Unsupported`` for what cannot be expressed, and
    /// the renderer's errors.
    private func render(_ test: RenderTest, resources: SuiteResources) throws -> Bitmap {
        var document = try StyleDocumentRenderer(style: test.style, resources: resources, pixelRatio: test.pixelRatio)
        document.crossSourceCollisions = test.crossSourceCollisions
        for warning in document.style.warnings {
            for kind in ["source type", "layer type", "geojson option"] {
                if let range = warning.range(of: "\(kind) '") {
                    let name = warning[range.upperBound...].prefix { $0 != "'" }
                    throw Unsupported(feature: "\(kind) \(name)")
                }
            }
        }
        var camera = document.camera
        camera.axonometric = test.axonometric
        return try document.render(width: test.width, height: test.height, scale: test.pixelRatio, camera: camera)
    }

    /// The path under `integration/` of a `local://` (or `http://localhost:2900/`) URL.
    func suitePath(_ url: String, _ what: String) throws -> String {
        if let local = url.split(separator: "local://", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first {
            return String(local)
        } else if let served = url.split(separator: "localhost:2900/", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first {
            return String(served)
        }
        throw Unsupported(feature: "\(what) from '\(url)'")
    }
}
