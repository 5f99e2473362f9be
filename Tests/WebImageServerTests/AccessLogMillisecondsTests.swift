import Testing
@testable import WebImageServer

/// The access log's `ms` field: milliseconds with one decimal, rounded half up.
struct AccessLogMillisecondsTests {
    @Test func durationsAreWrittenInMillisecondsWithOneDecimal() {
        #expect(AccessLogMiddleware.milliseconds(.zero) == "0.0")
        #expect(AccessLogMiddleware.milliseconds(.nanoseconds(49_999)) == "0.0")
        #expect(AccessLogMiddleware.milliseconds(.nanoseconds(50_000)) == "0.1")
        #expect(AccessLogMiddleware.milliseconds(.microseconds(12_345)) == "12.3")
        #expect(AccessLogMiddleware.milliseconds(.milliseconds(1_999.96)) == "2000.0")
        #expect(AccessLogMiddleware.milliseconds(.seconds(3)) == "3000.0")
    }
}
