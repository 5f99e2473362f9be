import Testing
@testable import WebImageServer

/// The open-file limit is raised at start, and the connection cap kept under it.
@Suite("Open-file limit")
struct OpenFileLimitTests {
    @Test func theCapLeavesTheReserveFree() {
        let limit = OpenFileLimit(current: 1024, maximum: 1024)
        #expect(limit.connectionCap(requested: 1024, reserve: 160) == 864)
        #expect(limit.connectionCap(requested: 100, reserve: 160) == 100)
        #expect(OpenFileLimit(current: 100, maximum: 100).connectionCap(requested: 1024, reserve: 160) == 1)
    }

    @Test func theSoftLimitIsRaisedToTheHardOne() {
        let raised = OpenFileLimit.raised()
        #expect(raised.current == min(raised.maximum, 1 << 20))
        #expect(OpenFileLimit.now() == raised)
    }
}
