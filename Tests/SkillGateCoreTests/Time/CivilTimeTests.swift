import Foundation
import SkillGateCore
import Testing

@Suite struct CivilTimeTests {
    /// Every day from 1900 to 2100 (and a few instants around the epoch and negative times) read the same as
    /// Foundation's Gregorian calendar in UTC.
    @Test func agreesWithTheGregorianCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var mismatches = 0
        for day in stride(from: -25_567, through: 47_482, by: 1) {
            let seconds = Int64(day) * 86_400 + Int64((day * 7919) % 86_400 + 86_400) % 86_400
            let ours = CivilTime(unixSeconds: seconds, offsetSeconds: 0)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday],
                                            from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            if ours.year != c.year || ours.month != c.month || ours.day != c.day || ours.hour != c.hour
                || ours.minute != c.minute || ours.second != c.second || ours.weekday != c.weekday! - 1 { mismatches += 1 }
            if CivilTime.daysSince1970(year: ours.year, month: ours.month, day: ours.day) != Int(day) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func anOffsetMovesTheWallClock() {
        let t = CivilTime(unixSeconds: 1_796_025_290, offsetSeconds: 19_800)   // 2026-11-30T07:54:50Z at +05:30
        let fields: [Int] = [t.year, t.month, t.day, t.hour, t.minute, t.second, t.weekday]
        #expect(fields == [2026, 11, 30, 13, 24, 50, 1])
    }
}
