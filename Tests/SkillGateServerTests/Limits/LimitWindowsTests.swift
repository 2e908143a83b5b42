import Foundation
import Glibc
import Testing
import SkillGateCore
@testable import SkillGateServer

/// The limits' windows: the month worked out in arithmetic (`CivilTime`) agrees with the C library's calendar.
@Suite struct LimitWindowsTests {
    /// The date `LimitWindows.month` reads a day as.
    static func civil(_ day: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (y, m, d) = CivilTime.civil(daysSince1970: Int(day))
        return (Int64(y), Int64(m), Int64(d))
    }

    /// Days around the epoch, leap days (2000 is one, 1900 and 2100 are not), year ends and far dates.
    static let days: [Int64] = [-719_468, -25_567, -1, 0, 1, 58, 59, 60, 365, 10_956, 11_016, 11_017, 11_038, 20_423, 20_453, 20_454, 47_540,
                                47_541, 47_599, 47_600, 2_932_896]

    @Test(arguments: days)
    func civilDatesAgreeWithGmtime(day: Int64) {
        var time = time_t(day * 86_400)
        var tm = tm()
        gmtime_r(&time, &tm)
        let c = Self.civil(day)
        #expect([c.year, c.month, c.day] == [Int64(tm.tm_year) + 1900, Int64(tm.tm_mon) + 1, Int64(tm.tm_mday)])
    }

    @Test func everyDayFrom1570To2370AgreesAndMonthsStartWhereTheyBegin() {
        var mismatches = 0
        for day in stride(from: Int64(-146_097), to: 146_097, by: 1) {
            var time = time_t(day * 86_400)
            var tm = tm()
            gmtime_r(&time, &tm)
            let c = Self.civil(day)
            if c.year != Int64(tm.tm_year) + 1900 || c.month != Int64(tm.tm_mon) + 1 || c.day != Int64(tm.tm_mday) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        let t = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
        #expect(LimitWindows.monthStart(LimitWindows.month(t)) == Date(timeIntervalSince1970: 1_793_491_200))  // 2026-11-01
    }
}
