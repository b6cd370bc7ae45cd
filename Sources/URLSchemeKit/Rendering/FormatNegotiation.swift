import Foundation
import ImageCodecs

/// `format=auto`: the format chosen by what the client accepts, resolved by
/// the URL loading system before a scheme parses its URL
/// (docs/image-formats.md).
///
/// A URL whose `format` is `auto` is answered as the same URL with
/// `format=webp` when the request accepts WebP, and without `format` (the
/// scheme's own choice: JPEG for photos, PNG otherwise) when it does not;
/// `lossless=true` applies to the WebP answer only. The request accepts WebP
/// when its `Accept` field gives `image/webp`, or else `image/*`, a quality
/// above 0 (`*/*` alone does not count: curl and many libraries send it
/// whatever they can decode); a request without `Accept` follows the
/// environment's ``URLSchemeKitEnvironment/autoFormatPrefersWebP``. The
/// answer says `Vary: Accept`, and each variant is cached under the URL it
/// was resolved to, so a WebP answer never reaches a client that did not accept it.
enum FormatNegotiation {
    /// The `format` value that asks for negotiation.
    static let auto = "auto"

    /// `url` with `format=auto` resolved for a request whose `Accept` field is
    /// `accept` (nil: absent, then `prefersWebP` decides); nil when `url` does
    /// not ask for `format=auto` (nothing to resolve).
    static func resolve(_ url: URL, accept: String?, prefersWebP: Bool) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let items = components.percentEncodedQueryItems,
              items.last(where: { $0.name == "format" })?.value?.lowercased() == auto else { return nil }
        let webP = accept.map(acceptsWebP) ?? prefersWebP
        // Percent-encoded items: every other item keeps its exact bytes.
        components.percentEncodedQueryItems = items.compactMap { item in
            switch item.name {
            case "format": webP ? URLQueryItem(name: "format", value: ImageFormat.webp.rawValue) : nil
            case "lossless": webP ? item : nil
            default: item
            }
        }
        if components.percentEncodedQueryItems?.isEmpty == true { components.percentEncodedQueryItems = nil }
        return components.url
    }

    /// Whether an `Accept` field value accepts `image/webp` (RFC 9110 §12.5.1):
    /// the most specific range naming it decides, and a quality of 0 refuses.
    static func acceptsWebP(_ accept: String) -> Bool {
        var exact: Double?
        var images: Double?
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first else { continue }
            let quality = parts.dropFirst().lazy.compactMap(qualityValue).first ?? 1
            switch type {
            case "image/webp": exact = max(exact ?? 0, quality)
            case "image/*": images = max(images ?? 0, quality)
            default: continue
            }
        }
        return (exact ?? images ?? 0) > 0
    }

    /// The quality of a `q=…` parameter (clamped to 0…1), nil for another
    /// parameter; a malformed value counts as 0, so a garbled field never
    /// switches a client to a format it did not clearly accept.
    private static func qualityValue(_ parameter: String) -> Double? {
        let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard pair.count == 2, pair[0] == "q" else { return nil }
        guard let value = Double(pair[1]), value.isFinite else { return 0 }
        return min(max(value, 0), 1)
    }
}
