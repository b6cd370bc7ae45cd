/// One pixel: 8-bit red, green, blue and straight (unassociated) alpha.
///
/// Straight alpha is what PNG stores and what users pass around; operations that
/// need premultiplied values (resampling, blending) convert internally.
public struct RGBA: Hashable, Sendable {
    /// Red, 0…255.
    public var r: UInt8
    /// Green, 0…255.
    public var g: UInt8
    /// Blue, 0…255.
    public var b: UInt8
    /// Alpha, 0 (transparent) … 255 (opaque), straight.
    public var a: UInt8

    /// A colour from its channels; opaque unless `a` is given.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Parses `RRGGBB` or `RRGGBBAA`, with or without a leading `#`, case-insensitive.
    /// Returns nil for anything else, so callers can name the bad parameter.
    public init?(hex: some StringProtocol) {
        var digits = Substring(hex)
        if digits.first == "#" { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8,
              let value = UInt32(digits, radix: 16) else { return nil }
        let full = digits.count == 6 ? (value << 8) | 0xFF : value
        self.init(UInt8(full >> 24), UInt8((full >> 16) & 0xFF), UInt8((full >> 8) & 0xFF), UInt8(full & 0xFF))
    }

    /// `RRGGBB` when opaque, else `RRGGBBAA`; lower-case, no `#` (URL-safe).
    public var hex: String {
        let bytes = a == 255 ? [r, g, b] : [r, g, b, a]
        return bytes.map { byte in
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }

    /// Opaque black.
    public static let black = RGBA(0, 0, 0)
    /// Opaque white.
    public static let white = RGBA(255, 255, 255)
    /// Fully transparent black.
    public static let clear = RGBA(0, 0, 0, 0)
}
