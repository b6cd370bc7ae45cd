import Foundation
import URLSchemeKit

/// `-o FILE`'s extension and the URL's `format=` made to agree, so that
/// `-o map.png` never holds JPEG bytes: for the schemes that encode their
/// answer (`map://`, `asset://`, `avatar://`, `poll://`), a URL that does not
/// say its format gets the file's (`.png`, `.jpg`/`.jpeg`, `.webp`, `.gif`); a file of an image
/// type they cannot write, or one that disagrees with the URL's `format=`,
/// is refused with the fix. Other extensions (none, `.bin`, `/dev/null`) and
/// other schemes (an http(s) body is written as it came) are left alone.
enum OutputFileFormat {
    /// Image file extensions, by the format they name (nil: one we cannot write).
    static let extensions: [String: ImageFormat?] = [
        "png": .png, "jpg": .jpeg, "jpeg": .jpeg, "webp": .webp, "gif": .gif,
        "avif": nil, "heic": nil, "tif": nil, "tiff": nil, "bmp": nil,
    ]

    /// The schemes whose URLs take `format=`.
    static let encodingSchemes: Set<String> = [MapURL.scheme, AssetURL.scheme, AvatarURL.scheme, PollURL.scheme]

    /// What went wrong, in a sentence that gives the fix.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// `url`, with `format=` added from `path`'s extension when it has none.
    /// Throws ``Mismatch`` when the file cannot hold what the URL draws.
    static func url(_ url: URL, writingTo path: String) throws -> URL {
        guard let scheme = url.scheme?.lowercased(), encodingSchemes.contains(scheme),
              case let fileExtension = (path as NSString).pathExtension.lowercased(),
              let named = extensions[fileExtension],
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        let stated = components.queryItems?.last { $0.name == "format" }?.value?.lowercased()
        guard let format = named else {
            throw Mismatch(description: "-o \(path): urlscheme writes PNG, JPEG, WebP or GIF; name the file .png, .jpg, .webp or .gif")
        }
        // `format=auto` (negotiated by a client's Accept) means the file's own format here.
        if let stated, stated != "auto" {
            let statedFormat = stated == "jpg" ? ImageFormat.jpeg : ImageFormat(rawValue: stated)
            guard statedFormat == nil || statedFormat == format else {
                throw Mismatch(description: "-o \(path) is a .\(fileExtension) file, but the URL asks for format=\(stated); "
                               + "name the file .\(stated == "jpeg" ? "jpg" : stated) or drop format= from the URL")
            }
            return url
        }
        components.queryItems = (components.queryItems ?? []).filter { $0.name != "format" } + [URLQueryItem(name: "format", value: format.rawValue)]
        return components.url ?? url
    }
}
