import Foundation

/// The space colours are interpolated in: `interpolate` (and a legacy
/// function without `colorSpace`) in RGB, `interpolate-lab` (`"colorSpace":
/// "lab"`) in CIE L*a*b*, `interpolate-hcl` (`"hcl"`) in its polar form,
/// with the style specification's D50 white point and hue taken the short way round.
enum StyleColorSpace: String, Sendable {
    case rgb, lab, hcl

    /// `from` to `to` at `t`, in this space; alpha is interpolated linearly.
    func interpolate(_ from: StyleColor, _ to: StyleColor, _ t: Double) -> StyleColor {
        func mix(_ a: Double, _ b: Double) -> Double { a + t * (b - a) }
        switch self {
        case .rgb:
            return StyleColor.interpolate(from, to, t)
        case .lab:
            let a = Lab(from), b = Lab(to)
            return Lab(l: mix(a.l, b.l), a: mix(a.a, b.a), b: mix(a.b, b.b)).color(alpha: mix(from.alpha, to.alpha))
        case .hcl:
            let a = HCL(Lab(from)), b = HCL(Lab(to))
            var hue = Double.nan, chroma: Double?
            if !a.h.isNaN && !b.h.isNaN {
                let d = b.h - a.h
                hue = a.h + t * (d > 180 || d < -180 ? d - 360 * (d / 360).rounded() : d)
            } else if !a.h.isNaN {
                hue = a.h
                if b.l == 1 || b.l == 0 { chroma = a.c }
            } else if !b.h.isNaN {
                hue = b.h
                if a.l == 1 || a.l == 0 { chroma = b.c }
            }
            let c = chroma ?? mix(a.c, b.c), l = mix(a.l, b.l)
            let radians = hue * .pi / 180
            return Lab(l: l, a: cos(radians) * c, b: sin(radians) * c).color(alpha: mix(from.alpha, to.alpha))
        }
    }

    /// A colour in CIE L*a*b* (D50), as the style specification converts it.
    private struct Lab {
        var l: Double, a: Double, b: Double
        static let (xn, yn, zn) = (0.96422, 1.0, 0.82521)
        static let (t0, t1) = (4.0 / 29, 6.0 / 29)
        static let t2 = 3 * t1 * t1, t3 = t1 * t1 * t1

        init(l: Double, a: Double, b: Double) { (self.l, self.a, self.b) = (l, a, b) }

        init(_ color: StyleColor) {
            func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
            func f(_ t: Double) -> Double { t > Self.t3 ? pow(t, 1.0 / 3) : t / Self.t2 + Self.t0 }
            let (r, g, b) = (linear(color.red), linear(color.green), linear(color.blue))
            let x = f((0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / Self.xn)
            let y = f((0.2225045 * r + 0.7168786 * g + 0.0606169 * b) / Self.yn)
            let z = f((0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / Self.zn)
            (l, a, self.b) = (116 * y - 16, 500 * (x - y), 200 * (y - z))
        }

        /// Back to RGB (a NaN `a` or `b`, from an undefined hue, counts as grey).
        func color(alpha: Double) -> StyleColor {
            func finv(_ t: Double) -> Double { t > Self.t1 ? t * t * t : Self.t2 * (t - Self.t0) }
            func gamma(_ c: Double) -> Double { c <= 0.00304 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055 }
            let fy = (l + 16) / 116
            let fx = a.isNaN ? fy : fy + a / 500, fz = b.isNaN ? fy : fy - b / 200
            let (x, y, z) = (Self.xn * finv(fx), Self.yn * finv(fy), Self.zn * finv(fz))
            func channel(_ c: Double) -> Double { min(max(gamma(c), 0), 1) }
            return StyleColor(red: channel(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
                              green: channel(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z),
                              blue: channel(0.0719453 * x - 0.2289914 * y + 1.4052427 * z), alpha: alpha)
        }
    }

    /// L*a*b* in polar form: hue in degrees (NaN for a grey), chroma, lightness.
    private struct HCL {
        var h: Double, c: Double, l: Double
        init(_ lab: Lab) {
            c = (lab.a * lab.a + lab.b * lab.b).squareRoot()
            let degrees = atan2(lab.b, lab.a) * 180 / .pi
            h = (c * 10000).rounded() == 0 ? .nan : (degrees < 0 ? degrees + 360 : degrees)
            l = lab.l
        }
    }
}
