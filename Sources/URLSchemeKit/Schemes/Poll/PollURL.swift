import Foundation
import ImageCodecs

/// A `poll://` URL: a poll card, drawn as an image of the question, each
/// option with its votes as a bar and a rounded percentage, and a line with
/// the total and the poll's flags.
///
/// ```
/// poll://?question=Where%20shall%20we%20meet%3F&option=Cafe&option=Park&option=Museum&votes=1,3,3&chosen=2
/// ```
/// The width is given in points (times `scale` for pixels); the height follows
/// from the content: the wrapped question, the options and the footer.
public struct PollURL: SchemeURL {
    /// `poll`.
    public static let scheme = "poll"
    /// Every query item a `poll://` URL may carry.
    public static let parameterNames = [
        "question", "option", "votes", "chosen", "closed", "anonymous", "width", "scale", "style", "format", "quality", "lossless",
    ]

    /// The card's colours.
    public enum Style: String, CaseIterable, Sendable {
        /// Dark text on white.
        case light
        /// Light text on near-black.
        case dark
    }

    /// How many options a poll has, at least and at most.
    public static let optionCountRange = 2...10
    /// The longest question, in characters (grapheme clusters).
    public static let maximumQuestionLength = 300
    /// The longest option text, in characters (grapheme clusters).
    public static let maximumOptionLength = 100
    /// The votes one option may have.
    public static let votesRange = 0...1_000_000_000
    /// The allowed card widths in points.
    public static let widthRange = 160...1024
    /// The default card width in points.
    public static let defaultWidth = 320
    /// The allowed pixels per point.
    public static let scaleRange = 1.0...4.0

    /// The question, 1…300 characters, not only spaces, no control characters (wrapped to the width).
    public var question: String
    /// The options' texts, 2…10, each 1…100 characters, in order.
    public var options: [String]
    /// Each option's votes, as many as there are options.
    public var votes: [Int]
    /// The option the viewer voted for, marked on the card; nil when none.
    /// Numbered from 1 as the URL's `chosen=` is (`chosen: 2` is the second
    /// option, written `chosen=2`): one numbering in Swift and in the URL.
    public var chosen: Int?
    /// The poll no longer takes votes.
    public var closed: Bool
    /// Votes are not shown by name.
    public var anonymous: Bool
    /// Card width in points.
    public var width: Int
    /// Pixels per point, 1…4.
    public var scale: Double
    /// Light or dark colours.
    public var style: Style
    /// nil: PNG (text stays crisp).
    public var format: ImageFormat?
    /// JPEG or lossy WebP quality (`OutputEncoding.qualityRange`); nil: the
    /// format's default (85 JPEG, 75 WebP).
    public var quality: Int?
    /// Lossless WebP (`lossless=true`; only with `format=webp`).
    public var lossless: Bool

    /// A poll card of `question` and `options` with their `votes` (same
    /// count); `chosen` counts from 1. Throws the `URLParameterError` that
    /// reading its URL would (naming the parameter and its range), so a value
    /// that exists is one its URL gives back.
    public init(question: String, options: [String], votes: [Int], chosen: Int? = nil, closed: Bool = false, anonymous: Bool = false,
                width: Int = PollURL.defaultWidth, scale: Double = 1, style: Style = .light, format: ImageFormat? = nil,
                quality: Int? = nil, lossless: Bool = false) throws {
        self.question = question
        self.options = options
        self.votes = votes
        self.chosen = chosen
        self.closed = closed
        self.anonymous = anonymous
        self.width = width
        self.scale = scale
        self.style = style
        self.format = format
        self.quality = quality
        self.lossless = lossless
        try checkReadsBack()
    }

    /// Parses a `poll://` query. Throws `URLParameterError` naming the parameter that is missing, repeated, too long or out of range.
    public init(query: QueryReader) throws {
        question = try Self.text(query.required("question"), parameter: "question", limit: Self.maximumQuestionLength)
        let options = query.all("option")
        guard Self.optionCountRange.contains(options.count) else {
            throw URLParameterError(
                parameter: "option",
                reason: "is given \(options.count) times; a poll has \(Self.optionCountRange.lowerBound) to \(Self.optionCountRange.upperBound) options")
        }
        self.options = try options.map { try Self.text($0, parameter: "option", limit: Self.maximumOptionLength) }
        let votesText = try query.required("votes")
        let votes = try votesText.split(separator: ",", omittingEmptySubsequences: false).map { item in
            guard let count = Int(item), Self.votesRange.contains(count) else {
                throw URLParameterError(
                    parameter: "votes",
                    reason: "must be whole numbers from \(Self.votesRange.lowerBound) to \(Self.votesRange.upperBound), got '\(item)'")
            }
            return count
        }
        guard votes.count == options.count else {
            throw URLParameterError(parameter: "votes", reason: "has \(votes.count) counts for \(options.count) options; give one per option, e.g. votes=1,3,3")
        }
        self.votes = votes
        chosen = try query.int("chosen", in: 1...options.count)
        closed = try query.bool("closed") ?? false
        anonymous = try query.bool("anonymous") ?? false
        width = try query.int("width", in: Self.widthRange) ?? Self.defaultWidth
        scale = try query.double("scale", in: Self.scaleRange) ?? 1
        style = try query.choice("style", as: Style.self) ?? .light
        (format, quality, lossless) = try OutputEncoding.read(query, defaultFormat: .png)
    }

    /// Writes the query items, leaving out defaults.
    public func write(to query: inout QueryWriter) {
        query.add("question", question)
        for option in options { query.add("option", option) }
        query.add("votes", votes.map(String.init).joined(separator: ","))
        query.add("chosen", chosen)
        if closed { query.add("closed", "true") }
        if anonymous { query.add("anonymous", "true") }
        if width != Self.defaultWidth { query.add("width", width) }
        if scale != 1 { query.add("scale", scale) }
        if style != .light { query.add("style", style.rawValue) }
        OutputEncoding.write(format: format, quality: quality, lossless: lossless, to: &query)
    }

    /// The chosen option's index in `options` (0-based), for drawing.
    var chosenIndex: Int? { chosen.map { $0 - 1 } }

    /// `text` if it has 1…`limit` characters, is not only white space and has no
    /// control characters (a line break would let 300 characters make 300 lines).
    private static func text(_ text: String, parameter: String, limit: Int) throws -> String {
        guard !text.allSatisfy(\.isWhitespace) else {
            throw URLParameterError(parameter: parameter, reason: "is empty; give 1 to \(limit) characters")
        }
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            let code = String(control.value, radix: 16, uppercase: true)
            throw URLParameterError(parameter: parameter, reason: "contains the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code); it is one line of text, wrapped to the card")
        }
        guard text.count <= limit else {
            throw URLParameterError(parameter: parameter, reason: "is \(text.count) characters long; at most \(limit) are allowed")
        }
        return text
    }
}
