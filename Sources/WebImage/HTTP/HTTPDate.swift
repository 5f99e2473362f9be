import Foundation

/// Dates in HTTP headers (`Date`, `Expires`, `Last-Modified`, `Retry-After`), read by hand in
/// the three forms RFC 9110 §5.6.7 asks a recipient to accept:
///
/// - IMF-fixdate, what every current server sends: `Sun, 06 Nov 1994 08:49:37 GMT`;
/// - RFC 850's obsolete form: `Sunday, 06-Nov-94 08:49:37 GMT` (a two-digit year more than
///   50 years ahead is taken to be in the past century);
/// - C's `asctime()` form: `Sun Nov  6 08:49:37 1994`.
///
/// A `DateFormatter` parsed these before, and every parse set up an ICU date format and its
/// symbols: a tenth of `webimage fetch`'s CPU on a bulk load (`Benchmarks/README.md`). The
/// week day is not checked against the date; the zone must be `GMT` (or `UTC`).
enum HTTPDate {
    /// The date `text` names, or `nil` when it is none of the three forms or names no real
    /// date and time.
    static func date(from text: String) -> Date? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let parts: (day: Substring, month: Substring, year: Substring, time: Substring)
        switch fields.count {
        case 6 where fields[0].hasSuffix(","):
            guard isZone(fields[5]) else { return nil }
            parts = (fields[1], fields[2], fields[3], fields[4])
        case 4 where fields[0].hasSuffix(","):
            guard isZone(fields[3]) else { return nil }
            let date = fields[1].split(separator: "-", omittingEmptySubsequences: false)
            guard date.count == 3 else { return nil }
            parts = (date[0], date[1], date[2], fields[2])
        case 5:
            parts = (fields[2], fields[1], fields[4], fields[3])
        default:
            return nil
        }
        guard let day = number(parts.day, digits: 1...2),
            let month = monthNames.firstIndex(of: parts.month.lowercased()).map({ $0 + 1 }),
            parts.year.utf8.count != 3, var year = number(parts.year, digits: 2...4),
            let seconds = secondsOfDay(parts.time)
        else { return nil }
        if parts.year.count == 2 {
            // RFC 9110: a two-digit year that looks more than 50 years ahead is in the past.
            let currentYear = Calendar(identifier: .gregorian).component(.year, from: Date())
            year += currentYear / 100 * 100
            if year > currentYear + 50 { year -= 100 }
        }
        guard day <= daysIn(month: month, year: year) else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + seconds))
    }

    private static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func isZone(_ text: Substring) -> Bool {
        text == "GMT" || text == "UTC"
    }

    /// The seconds since midnight of `HH:mm:ss` (a leap second's 60 allowed).
    private static func secondsOfDay(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let hour = number(parts[0], digits: 2...2), hour < 24,
            let minute = number(parts[1], digits: 2...2), minute < 60,
            let second = number(parts[2], digits: 2...2), second <= 60
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    /// The decimal number `text` spells with a count of ASCII digits in `digits`.
    private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count) else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date given (negative before it),
    /// counting in 400-year eras of 146,097 days from 0000-03-01.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
