import Foundation

/// HTTP-date parsing (RFC 9110 §5.6.7): the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms a recipient must
/// accept, RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
/// (`Sun Nov  6 08:49:37 1994`). Written by hand: it runs for every cached
/// response and must not depend on a formatter's locale or thread safety.
enum HTTPDate {
    /// The instant `text` names, or nil when it is not an HTTP-date.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
        let day: Int?, month: Int?, year: Int?, time: String
        switch parts.count {
        case 6 where parts[5] == "GMT":                        // IMF-fixdate: Sun 06 Nov 1994 08:49:37 GMT
            (day, month, year, time) = (Int(parts[1]), monthNumber(parts[2]), Int(parts[3]), parts[4])
        case 4 where parts[3] == "GMT":                        // RFC 850: Sunday 06-Nov-94 08:49:37 GMT
            let fields = parts[1].split(separator: "-").map(String.init)
            guard fields.count == 3, let short = Int(fields[2]), fields[2].count == 2 else { return nil }
            // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
            let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
            var full = 2000 + short
            if full > thisYear + 50 { full -= 100 }
            (day, month, year, time) = (Int(fields[0]), monthNumber(fields[1]), full, parts[2])
        case 5:                                                // asctime: Sun Nov 6 08:49:37 1994
            (day, month, year, time) = (Int(parts[2]), monthNumber(parts[1]), Int(parts[4]), parts[3])
        default:
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard let day, let month, let year, clock.count == 3, (1...31).contains(day), (1...9999).contains(year),
              (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]))
    }

    /// The IMF-fixdate for `date`, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilFromDays(days)
        let weekday = weekdays[((days % 7) + 10) % 7]   // 1970-01-01 was a Thursday (index 3)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }.map { $0 + 1 }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
