import Foundation

/// The gallery's `index.html`: every section with its images, each image's
/// URL printed under it, and a check that runs in the browser.
///
/// The check (`#gallery-check`) is what `Scripts/check_gallery_in_browser.sh`
/// reads from the DOM a headless browser dumps: after the page's `load` event
/// it says `gallery-check: ok, N images, H px` (the page's height) when every image decoded
/// (`naturalWidth` > 0) and nothing was reported to `window.onerror` or
/// `console.error`, else `gallery-check: FAILED` with the reasons.
struct GalleryPage {
    /// One image as written: its item, its file (relative to the page), its pixel size.
    struct Image {
        let item: GalleryItem
        let file: String
        let width: Int
        let height: Int
    }

    let sections: [(section: GallerySection, images: [Image])]
    let summary: String

    var html: String {
        var body = ""
        for (section, images) in sections {
            body += "<section class=\"\(section.layout.rawValue)\(section.dark ? " dark" : "")\">\n<h2>\(escape(section.title))</h2>\n"
            for image in images { body += figure(image, layout: section.layout) }
            body += "</section>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>URLSchemeKit gallery</title>
            <script>
            \(Self.checkScript)
            </script>
            <style>
            \(Self.style)
            </style>
            </head>
            <body>
            <h1>URLSchemeKit gallery</h1>
            <p class="summary">\(escape(summary))</p>
            <main>
            \(body)</main>
            <p id="gallery-check">gallery-check: pending</p>
            </body>
            </html>

            """
    }

    private func figure(_ image: Image, layout: GallerySection.Layout) -> String {
        let item = image.item
        let width = image.width / max(1, item.scale), height = image.height / max(1, item.scale)
        let img = "<img src=\"\(escape(image.file))\" width=\"\(width)\" height=\"\(height)\" alt=\"\(escape(item.text))\">"
        let url = "<code>\(escape(item.url.absoluteString))</code>"
        switch layout {
        case .chatList:
            return "<figure class=\"chat\">\(img)<div><b>\(escape(item.text))</b><span>\(escape(item.detail ?? ""))</span>\(url)</div></figure>\n"
        case .conversation:
            return "<figure class=\"message\"><b>\(escape(item.text))</b>\(img)\(url)</figure>\n"
        case .grid:
            return "<figure class=\"tile\">\(img)<figcaption>\(escape(item.text))</figcaption>\(url)</figure>\n"
        }
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Records errors from the start, then checks every image once the page has loaded.
    static let checkScript = """
        var galleryErrors = [];
        window.addEventListener("error", function (event) {
          var target = event.target && event.target.src ? " " + event.target.src : "";
          galleryErrors.push("error" + target + (event.message ? ": " + event.message : ""));
        }, true);
        var consoleError = console.error;
        console.error = function () { galleryErrors.push("console.error: " + Array.prototype.join.call(arguments, " ")); consoleError.apply(console, arguments); };
        window.addEventListener("load", function () {
          var images = Array.prototype.slice.call(document.images);
          var broken = images.filter(function (image) { return !image.complete || image.naturalWidth === 0; });
          var problems = broken.map(function (image) { return "not loaded: " + image.getAttribute("src"); }).concat(galleryErrors);
          var verdict = document.getElementById("gallery-check");
          verdict.textContent = problems.length === 0 && images.length > 0
            ? "gallery-check: ok, " + images.length + " images, " + document.documentElement.scrollHeight + " px"
            : "gallery-check: FAILED (" + images.length + " images): " + problems.join("; ");
        });
        """

    static let style = """
        body { font-family: "DejaVu Sans", sans-serif; margin: 24px; background: #f0f2f5; color: #222; }
        h1 { font-size: 22px; margin: 0 0 4px; } .summary { color: #666; margin: 0 0 16px; font-size: 13px; }
        main { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 16px; align-items: start; }
        section { background: #fff; border-radius: 12px; padding: 12px 16px; }
        section.dark { background: #19191a; color: #e1e3e6; }
        h2 { font-size: 17px; margin: 4px 0 12px; }
        figure { margin: 0 0 12px; }
        code { display: block; font-size: 9px; color: #818c99; word-break: break-all; margin-top: 4px; }
        .chat-list figure { display: flex; gap: 12px; align-items: center; }
        .chat-list figure div { display: flex; flex-direction: column; min-width: 0; }
        .chat-list span { color: #818c99; font-size: 14px; }
        .message { background: #edf0f5; border-radius: 14px; padding: 8px 10px; display: inline-grid; grid-template-columns: min-content; margin-right: 12px; vertical-align: top; }
        .dark .message { background: #2c2d2e; }
        .message b { display: block; font-size: 13px; margin-bottom: 6px; }
        .message img { border-radius: 8px; display: block; }
        .grid figure { display: inline-grid; grid-template-columns: min-content; vertical-align: top; margin-right: 12px; }
        figcaption { font-size: 13px; margin-top: 4px; }
        #gallery-check { font-size: 12px; color: #818c99; }
        """
}
