import Raster

/// Where everything on a poll card goes, in pixels: the wrapped question,
/// each option's text, percentage, bar track and bar, and the footer line.
/// The height is the sum of what the content needs.
struct PollLayout {
    /// One option's row.
    struct Row {
        let text: TextParagraph
        /// The first line's baseline.
        let textOrigin: Point
        let percentage: TextLine
        let percentageOrigin: Point
        /// The full-width track and the filled part (width proportional to the option's share of the votes).
        let track: (x: Double, y: Double, width: Double, height: Double)
        let barWidth: Double
    }

    let width: Int
    let height: Int
    let question: TextParagraph
    let questionOrigin: Point
    let rows: [Row]
    let footer: TextLine
    let footerOrigin: Point
    let tally: PollTally
    /// Pixels per point.
    let scale: Double

    // Metrics in points.
    static let padding = 16.0, questionSize = 17.0, optionSize = 15.0, footerSize = 13.0
    static let questionGap = 14.0, barGap = 6.0, barHeight = 6.0, rowGap = 14.0, percentageColumn = 52.0, checkColumn = 18.0

    init(_ poll: PollURL, font: TrueTypeFont) {
        let s = poll.scale
        scale = s
        width = Int((Double(poll.width) * s).rounded())
        let padding = Self.padding * s, inner = Double(width) - 2 * padding
        tally = PollTally(votes: poll.votes)

        question = TextParagraph(poll.question, font: font, size: Self.questionSize * s, maximumWidth: inner)
        var y = padding + (question.lines.first?.ascent ?? 0)
        questionOrigin = Point(padding, y)
        y += question.height - (question.lines.first?.ascent ?? 0) + Self.questionGap * s

        var rows: [Row] = []
        for (index, option) in poll.options.enumerated() {
            let text = TextParagraph(option, font: font, size: Self.optionSize * s, maximumWidth: inner - (Self.percentageColumn + (index == poll.chosenIndex ? Self.checkColumn : 0)) * s)
            let ascent = text.lines.first?.ascent ?? 0
            let baseline = y + ascent
            let percentage = TextLine("\(tally.percentages[index])%", font: font, size: Self.optionSize * s)
            y += text.height + Self.barGap * s
            let track = (x: padding, y: y, width: inner, height: Self.barHeight * s)
            let share = tally.total > 0 ? Double(poll.votes[index]) / Double(tally.total) : 0
            rows.append(Row(text: text, textOrigin: Point(padding, baseline), percentage: percentage,
                            percentageOrigin: Point(padding + inner - percentage.width, baseline),
                            track: track, barWidth: inner * share))
            y += track.height + Self.rowGap * s
        }
        self.rows = rows

        var notes = [poll.votes.reduce(0, +) == 1 ? "1 vote" : "\(tally.total) votes"]
        if poll.anonymous { notes.append("anonymous") }
        if poll.closed { notes.append("closed") }
        footer = TextLine(notes.joined(separator: " · "), font: font, size: Self.footerSize * s)
        footerOrigin = Point(padding, y - Self.rowGap * s + Self.questionGap * s + footer.ascent)
        height = Int((footerOrigin.y + footer.descent + padding).rounded(.up))
    }
}
