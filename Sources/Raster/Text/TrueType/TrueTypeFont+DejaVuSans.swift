import Foundation

extension TrueTypeFont {
    /// DejaVu Sans, embedded (Latin, Greek, Cyrillic and punctuation; see
    /// `Scripts/make_label_font.py` and `Fonts/DejaVuSans-LICENSE.txt`).
    /// Decoded on first use and shared.
    public static var dejaVuSans: TrueTypeFont {
        get throws { try embeddedDejaVuSans.get() }
    }

    // Static lets are initialised once, thread-safely, on first access.
    private static let embeddedDejaVuSans = Result<TrueTypeFont, Error> {
        guard let data = Data(base64Encoded: dejaVuSansBase64, options: .ignoreUnknownCharacters) else {
            throw TrueTypeError.malformed("the embedded DejaVu Sans is not valid base64")
        }
        return try TrueTypeFont(bytes: Array(data))
    }
}
