import Foundation
import URLSchemeKit

/// What the gallery shows: the seed app's screens, each image a URL.
///
/// Everything is made from one stored photo (`GalleryPhoto`): four
/// participants' profile pictures are `asset://` edits of it, stored back as
/// assets of their own, as a user's cropped profile photo would be; the chat
/// list composes them with `avatar://`; the conversations carry `map://`
/// snapshots of the VK sample's place (Saint Petersburg, 59.935634, 30.325935)
/// and others, edited photos and `poll://` cards, in the light and dark styles.
enum GalleryScreens {
    /// The edits that turn the photo into four participants' profile pictures.
    static func participantURLs(photo: String) -> [GalleryItem] {
        [
            "crop=0,0,0.5,1&width=256&height=256&mode=fill",
            "crop=0.5,0,0.5,1&width=256&height=256&mode=fill&filter=sepia",
            "crop=0.25,0.2,0.5,0.8&width=256&height=256&mode=fill&filter=grayscale,contrast:1.3",
            "crop=0.1,0.3,0.4,0.6&flip=h&width=256&height=256&mode=fill&filter=saturation:1.8",
        ].enumerated().map { index, edit in
            GalleryItem("asset://?id=\(photo)&\(edit)&format=jpeg", text: "participant \(index + 1)", scale: 2)
        }
    }

    /// The page's sections, given the stored photo's id and the participants' (four ids).
    static func sections(photo: String, participants p: [String]) throws -> [GallerySection] {
        func avatar(_ ids: [String], _ extra: String = "") -> String {
            "avatar://?" + ids.map { "id=\($0)" }.joined(separator: "&") + "&size=112" + extra
        }
        func asset(_ edit: String) -> String { "asset://?id=\(photo)&\(edit)" }
        let meetPoll = try PollURL(question: "Where shall we meet on Saturday?", options: ["Palace Square", "Summer Garden", "New Holland"],
                               votes: [4, 7, 2], chosen: 2, anonymous: true, width: 300, scale: 2)
        let tripPoll = try PollURL(question: "Куда поедем летом?", options: ["Казань", "Калининград", "Байкал", "Останемся дома"],
                               votes: [5, 9, 12, 1], chosen: 3, closed: true, width: 300, scale: 2, style: .dark)
        let simple = try PollURL(question: "Where shall we meet?", options: ["Cafe", "Park", "Museum"], votes: [1, 3, 3], width: 260, scale: 2)
        var simpleDark = simple
        simpleDark.style = .dark
        return [
            GallerySection(title: "Chats", layout: .chatList, dark: false, items: [
                GalleryItem(avatar([p[0]]), text: "Anna", detail: "See you at the museum!", scale: 2),
                GalleryItem(avatar([p[1], p[2]]), text: "Boris, Vera", detail: "Vera: the photos are great", scale: 2),
                GalleryItem(avatar([p[0], p[1], p[3]]), text: "Weekend trip", detail: "Poll: Where shall we meet on Saturday?", scale: 2),
                GalleryItem(avatar(p), text: "Family", detail: "Mum: a map", scale: 2),
                GalleryItem(avatar([photo, p[3], p[2], p[1]], "&shape=square"), text: "Photo club", detail: "Куда поедем летом?", scale: 2),
            ]),
            GallerySection(title: "Weekend trip", layout: .conversation, dark: false, items: [
                GalleryItem(meetPoll.url.absoluteString, text: "Anna", scale: 2),
                GalleryItem("map://?latitude=59.935634&longitude=30.325935&zoom=9&width=300&height=200&scale=2&marker=59.935634,30.325935,label:A",
                            text: "Boris: here it is", scale: 2),
                GalleryItem(asset("width=600&filter=sepia"), text: "Vera: an old one", scale: 2),
                GalleryItem(asset("crop=0.3,0.1,0.5,0.7&rotate=90&width=400&filter=contrast:1.3"), text: "Vera: cropped and turned", scale: 2),
            ]),
            GallerySection(title: "Photo club (dark)", layout: .conversation, dark: true, items: [
                GalleryItem("map://?latitude=55.7539&longitude=37.6208&zoom=10&width=300&height=200&scale=2&style=dark&marker=55.7539,37.6208,color:orange",
                            text: "Moscow", scale: 2),
                GalleryItem("map://?width=300&height=200&scale=2&style=dark&marker=59.9386,30.3141,label:A&marker=55.7539,37.6208,label:B&path=59.9386,30.3141,55.7539,37.6208,width:3,color:71aaeb",
                            text: "The route", scale: 2),
                GalleryItem(tripPoll.url.absoluteString, text: "Poll (closed)", scale: 2),
                GalleryItem(asset("width=600&rotate=-12.5&filter=saturation:1.6&format=png"), text: "Tilted (PNG, transparent corners)", scale: 2),
            ]),
            GallerySection(title: "Edited photos", layout: .grid, dark: false, items: [
                GalleryItem(asset("width=227"), text: "original"),
                GalleryItem(asset("width=149&rotate=90&flip=h"), text: "turned, mirrored"),
                GalleryItem(asset("crop=0.3,0.1,0.5,0.7&width=120&filter=grayscale,contrast:1.4"), text: "cropped, grey"),
                GalleryItem(asset("width=120&height=120&mode=fill&filter=blur:2"), text: "filled, blurred"),
                GalleryItem(asset("width=227&filter=invert"), text: "inverted"),
                GalleryItem(asset("crop=0.5,0.5,0.5,0.5&rotate=180&width=160&filter=brightness:1.3,sharpen"), text: "quarter, upside down"),
            ]),
            GallerySection(title: "Polls, both styles", layout: .grid, dark: false, items: [
                GalleryItem(simple.url.absoluteString, text: "light", scale: 2),
                GalleryItem(simpleDark.url.absoluteString, text: "dark", scale: 2),
            ]),
        ]
    }

    /// A street map of the vector source `name` (`--tiles`), drawn in its
    /// built-in style, light and dark, over the middle of its data (its
    /// bounds; the world's centre when it states none), at the zoom whose
    /// 300-point-wide view its data just fills (at most 16).
    static func streetMap(name: String, source: VectorTileSource) -> GallerySection {
        let bounds = source.tiles.bounds
        let latitude = bounds.map { ($0.minimumLatitude + $0.maximumLatitude) / 2 } ?? 0
        let longitude = bounds.map { ($0.minimumLongitude + $0.maximumLongitude) / 2 } ?? 0
        let span = bounds.map { $0.maximumLongitude - $0.minimumLongitude } ?? 360
        let zoom = min(16, max(1, Int((log2(300 * 360 / (256 * span))).rounded(.down)) + 1))
        let map = String(format: "map://?latitude=%.5f&longitude=%.5f&zoom=%d&width=300&height=200&scale=2&tiles=%@", latitude, longitude, zoom, name)
        return GallerySection(title: "Street map: --tiles \(name) (vector tiles, built-in style)", layout: .grid, dark: false, items: [
            GalleryItem(map, text: "light", scale: 2),
            GalleryItem(map + "&style=dark", text: "dark", scale: 2),
        ])
    }
}
