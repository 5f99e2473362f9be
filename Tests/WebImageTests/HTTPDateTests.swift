import Foundation
import Testing
@testable import WebImage

/// HTTP dates read by hand, held to Foundation's `DateFormatter` (which read them before)
/// over dates across four centuries, and to RFC 9110's obsolete forms and refusals.
@Suite("HTTPDate")
struct HTTPDateTests {
    /// The IMF-fixdate of `date`, written by Foundation.
    static func imfFixdate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test func readsWhatFoundationWritesAcrossCenturies() {
        var generator = SystemRandomNumberGenerator()
        // 1800 to 2200, leap days and the ends of months included by chance and by hand.
        var seconds = (0..<2_000).map { _ in Int.random(in: -5_364_662_400...7_258_118_400, using: &generator) }
        seconds += [0, 784_111_777, 951_782_400, 951_868_799, 4_107_542_400, -2_203_891_200, 1_709_164_800]
        for second in seconds {
            let date = Date(timeIntervalSince1970: TimeInterval(second))
            let text = Self.imfFixdate(date)
            #expect(HTTPDate.date(from: text) == date, "\(text)")
        }
    }

    @Test func readsTheObsoleteForms() {
        let date = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.date(from: "Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate.date(from: "Sunday, 06-Nov-94 08:49:37 GMT") == date)
        #expect(HTTPDate.date(from: "Sun Nov  6 08:49:37 1994") == date)
        #expect(HTTPDate.date(from: "sun, 06 nov 1994 08:49:37 UTC") == date)
        // RFC 9110: a two-digit year more than 50 years ahead is in the past century.
        let currentYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        let ahead = (currentYear + 60) % 100
        let read = HTTPDate.date(from: "Friday, 01-Jan-\(ahead < 10 ? "0" : "")\(ahead) 00:00:00 GMT")
        #expect(read.map { Calendar(identifier: .gregorian).component(.year, from: $0) } == currentYear + 60 - 100)
    }

    @Test func refusesWhatNamesNoDate() {
        for text in [
            "", "0", "-1", "soon", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 199 08:49:37 GMT",
            "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov 08:49:37 GMT",
        ] {
            #expect(HTTPDate.date(from: text) == nil, "\(text)")
        }
        #expect(HTTPDate.date(from: "Tue, 29 Feb 2000 23:59:60 GMT") == Date(timeIntervalSince1970: 951_868_800))
    }
}
