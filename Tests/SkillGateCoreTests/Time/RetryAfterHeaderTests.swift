import Foundation
import Testing
import SkillGateCore

/// One reading of `Retry-After` for every wire format (decision 0108): delay seconds or an HTTP date.
@Suite struct RetryAfterHeaderTests {
    static let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test(arguments: [
        ("2", 2.0), (" 30 ", 30.0), ("0", 0.0), ("1.5", 1.5), ("1e300", 1e300),
        ("Sun, 06 Nov 1994 08:50:37 GMT", 60.0),      // a minute from now
        ("Sunday, 06-Nov-94 08:49:47 GMT", 10.0),     // RFC 850
        ("Sun Nov  6 08:49:57 1994", 20.0),           // asctime
        ("Sun, 06 Nov 1994 08:48:37 GMT", 0.0),       // already past: retry now
    ] as [(String, Double)])
    func delaySecondsAndDatesAreRead(_ value: String, _ seconds: Double) {
        #expect(RetryAfterHeader.seconds(value, now: Self.now) == seconds)
    }

    @Test(arguments: ["", "  ", "-1", "+5", "nan", "inf", "-inf", "soon", "Sun, 32 Nov 1994 08:49:37 GMT", "0x10", "1e999"])
    func anythingElseIsDropped(_ value: String) {
        #expect(RetryAfterHeader.seconds(value, now: Self.now) == nil)
    }

    @Test func noFieldSaysNothing() {
        #expect(RetryAfterHeader.seconds(nil) == nil)
    }
}
