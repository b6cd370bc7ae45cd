import Foundation

/// The photo the gallery edits and composes avatars from: the IJG test image
/// `testorig.jpg` (227×149), compiled in so the tool needs no file beside it.
/// Its licence allows redistribution: see `IJG-LICENSE.txt`.
enum GalleryPhoto {
    /// The JPEG file's bytes.
    static var testorig: Data {
        // The literal is generated and known to be valid base64; a failure here is a build defect.
        guard let data = Data(base64Encoded: testorigBase64, options: .ignoreUnknownCharacters) else {
            preconditionFailure("GalleryPhoto+Data.swift does not hold valid base64; regenerate it with Scripts/make_gallery_photo.py")
        }
        return data
    }
}
