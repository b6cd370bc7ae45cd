import Foundation

/// HTTP-date parsing (RFC 9110 §5.6.7): the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms a recipient must
/// accept, RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
/// (`Sun Nov  6 08:49:37 1994`). Written by hand: it runs for every cached
/// response and must not depend on a formatter's locale or thread safety.
enum HTTPDate {
    /// The instant `text` names, or nil when it is not an HTTP-date. Fields
    /// are separated by single spaces and have the widths the grammar gives
    /// them (a date with a missing comma or a one-digit hour is invalid, so an
    /// `Expires` written that way counts as already expired); names of days,
    /// months and the zone are matched without regard to case.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        let day: Substring, month: Substring, year: Int, time: Substring
        if parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[1].count == 2,
           parts[3].count == 4, isGMT(parts[5]) {
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard let full = number(parts[3]) else { return nil }
            (day, month, year, time) = (parts[1], parts[2], full, parts[4])
        } else if parts.count == 4, parts[0].count > 4, parts[0].hasSuffix(","), isGMT(parts[3]) {
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let fields = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0].count == 2, fields[2].count == 2, let short = number(fields[2]) else { return nil }
            // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
            let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
            let full = 2000 + short > thisYear + 50 ? 1900 + short : 2000 + short
            (day, month, year, time) = (fields[0], fields[1], full, parts[2])
        } else if parts.count == 5 || (parts.count == 6 && parts[2].isEmpty), parts[0].count == 3 {
            // asctime: Sun Nov  6 08:49:37 1994 (a one-digit day is padded with a space)
            let fields = parts.filter { !$0.isEmpty }
            guard fields.count == 5, (parts.count == 6) == (fields[2].count == 1), fields[2].count <= 2,
                  fields[4].count == 4, let full = number(fields[4]) else { return nil }
            (day, month, year, time) = (fields[2], fields[1], full, fields[3])
        } else {
            return nil
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = number(clock[0]), let minute = number(clock[1]), let second = number(clock[2]),
              let dayNumber = number(day), let monthNumber = monthNumber(month),
              (1...31).contains(dayNumber), hour <= 23, minute <= 59, second <= 60 else { return nil }
        let days = daysFromCivil(year: year, month: monthNumber, day: dayNumber)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// The value of a field made only of ASCII digits; nil for anything else (`+1`, `-1`, ``).
    private static func number(_ field: Substring) -> Int? {
        guard !field.isEmpty, field.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(field)
    }

    private static func isGMT(_ field: Substring) -> Bool { field.lowercased() == "gmt" }

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

    private static func monthNumber(_ name: Substring) -> Int? {
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
