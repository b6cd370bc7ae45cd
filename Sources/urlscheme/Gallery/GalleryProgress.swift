import Foundation

/// Reports the gallery's progress on standard error: a bar redrawn in place
/// when standard error is a terminal, one plain line per image otherwise (a
/// log or a CI run should not fill with carriage returns).
struct GalleryProgress {
    let total: Int
    private(set) var done = 0
    private let isTerminal = isatty(STDERR_FILENO) == 1

    init(total: Int) {
        self.total = total
    }

    /// One more image is written.
    mutating func advance(_ url: URL, bytes: Int) {
        done += 1
        if isTerminal {
            let width = 30, filled = width * done / max(1, total)
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let name = String(url.absoluteString.prefix(50))
            Self.write("\r[\(bar)] \(done)/\(total) \(name)\u{1B}[K" + (done == total ? "\n" : ""))
        } else {
            Self.write("gallery: \(done)/\(total) \(url.absoluteString) (\(bytes) bytes)\n")
        }
    }

    /// A line of its own (ends a bar in progress).
    static func note(_ text: String) {
        write(text + "\n")
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
