import FoundationEssentials
import Glibc
import Testing
@testable import SkillGateServer

/// The log's RFC 3339 timestamps, formatted by arithmetic, agree with `gmtime_r` to the millisecond.
@Suite struct LogTimestampTests {
    /// The reference: `gmtime_r` for the date and time, the milliseconds by hand.
    static func reference(_ ms: Int) -> String {
        var t = time_t(ms / 1000)
        var tm = tm()
        gmtime_r(&t, &tm)
        func pad(_ v: Int32, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
        return "\(pad(tm.tm_year + 1900, 4))-\(pad(tm.tm_mon + 1, 2))-\(pad(tm.tm_mday, 2))T\(pad(tm.tm_hour, 2)):\(pad(tm.tm_min, 2)):\(pad(tm.tm_sec, 2)).\(pad(Int32(ms % 1000), 3))Z"
    }

    static let fixed: [Int] = [
        0, 999, 86_399_999, 951_782_400_000, 951_868_799_999,   // 1970; 2000-02-29 whole day
        1_709_164_800_123, 4_102_444_799_999, 1_796_169_600_000, // 2024-02-29, 2099-12-31 23:59:59.999, 2026-12-01
    ]

    @Test(arguments: fixed)
    func fixedInstantsMatchGmtime(ms: Int) {
        #expect(RequestLog.timestamp(Date(timeIntervalSince1970: Double(ms) / 1000)) == Self.reference(ms))
    }

    @Test func aboutDailyFrom1970To2100MatchGmtime() {
        var ms = 0
        var step = 0
        while ms < 4_102_444_800_000 {
            #expect(RequestLog.timestamp(Date(timeIntervalSince1970: Double(ms) / 1000)) == Self.reference(ms))
            step += 1
            ms += 100_007_321 + step % 997   // ~28 hours, drifting through every hour, minute and millisecond
        }
    }
}
