import XCTest
@testable import MapRendering

/// ``LineFeather/radialBounds`` lets the triangle loop skip the shader for
/// pixels settled by the normal's length; it must hold wherever it says, and
/// say nothing for lines it cannot.
final class LineFeatherTests: XCTestCase {
    func testAlphaIsWhatTheRadialBoundsPromise() {
        var random = SystemRandomNumberGenerator()
        var checked = (zero: 0, full: 0)
        for width in [0.6, 1, 1.5, 2, 2.25, 3, 4.5, 8, 17.3, 40] {
            for gap in [0, 0.8, 2.5, 6] {
                for blur in [0, 0.25, 1, 3] {
                    let feather = LineFeather(width: width, gap: gap, blur: blur, offset: 0)
                    let bounds = feather.radialBounds
                    // Lengths just either side of each bound, and anywhere between.
                    var lengths = (0..<400).map { _ in Double.random(in: 0...1.2, using: &random) }
                    for bound in [bounds.zeroWithin, bounds.fullFrom, bounds.fullTo, bounds.zeroFrom] where bound > 0 {
                        let edge = bound.squareRoot()
                        lengths += (0..<200).map { _ in edge * Double.random(in: 0.999...1.001, using: &random) } + [edge]
                    }
                    for length in lengths {
                        let angle = Double.random(in: 0...(2 * .pi), using: &random)
                        for (u, v) in [(0, length), (0, -length), (length * cos(angle), length * sin(angle))] {
                            let r = u * u + v * v, alpha = feather.alpha(normalX: u, normalY: v, along: 0)
                            if r <= bounds.zeroWithin || r >= bounds.zeroFrom {
                                XCTAssertLessThanOrEqual(alpha, 0, "width \(width) gap \(gap) blur \(blur) normal (\(u), \(v))")
                                checked.zero += 1
                            } else if r >= bounds.fullFrom, r <= bounds.fullTo {
                                XCTAssertGreaterThanOrEqual(alpha, 1, "width \(width) gap \(gap) blur \(blur) normal (\(u), \(v))")
                                checked.full += 1
                            }
                        }
                    }
                    // Tight: a little inside where the fade has begun, the alpha is between.
                    if bounds.fullTo > 0 {
                        let fadeStart = (feather.outset - feather.fade) / feather.outset
                        XCTAssertLessThan(feather.alpha(normalX: 0, normalY: fadeStart * 1.001, along: 0), 1, "width \(width) gap \(gap) blur \(blur)")
                        XCTAssertGreaterThan(bounds.fullTo.squareRoot(), fadeStart * 0.999_999)
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked.zero, 50_000)
        XCTAssertGreaterThan(checked.full, 50_000)
        // A 2-pixel line is full in its middle third; a casing's gap is empty.
        XCTAssertEqual(LineFeather(width: 2, gap: 0, blur: 0, offset: 0).radialBounds.fullTo, 1.0 / 9, accuracy: 1e-6)
        XCTAssertEqual(LineFeather(width: 2, gap: 6, blur: 0, offset: 0).radialBounds.zeroWithin, 2.5 / 5.5 * (2.5 / 5.5), accuracy: 1e-6)
    }

    func testDashesAreNeverFullWithoutTheirField() throws {
        let dash = LineFeather.Dash(texture: try XCTUnwrap(LineDashTexture([2, 1], round: false)), length: 12, gamma: 0.1)
        let bounds = LineFeather(width: 6, gap: 0, blur: 0, offset: 0, dash: dash).radialBounds
        XCTAssertLessThan(bounds.fullTo, bounds.fullFrom, "dashes are cut by their field")
        XCTAssertEqual(bounds.zeroFrom, 1, accuracy: 1e-6, "past the edge a dash is empty too")
        XCTAssertGreaterThan(LineFeather(width: 6, gap: 0, blur: 0, offset: 3).radialBounds.fullTo, 0, "an offset line is still full inside")
    }

    func testAPatternOfOnePartAfterZeroLengthsIsSolidAcrossThePeriodsEdge() throws {
        // [1, 0] and [1, 0, 1] are a dash with no gap: MapLibre's atlas joins the lone
        // part to itself across the edge, so no texel falls near the field's 0.5.
        for (pattern, solid) in [([1, 0], true), ([1, 0, 1], true), ([0, 1, 0], false)] as [([Double], Bool)] {
            let texture = try XCTUnwrap(LineDashTexture(pattern, round: false))
            for x in 0..<LineDashTexture.width {
                let field = texture.sample(s: (Double(x) + 0.5) / Double(LineDashTexture.width), t: 0.5)
                XCTAssertTrue(solid ? field > 0.9 : field < 0.1, "\(pattern) at texel \(x): \(field)")
            }
        }
    }
}
