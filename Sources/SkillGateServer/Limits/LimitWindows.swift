import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// The windows limits count in, all UTC and aligned to the clock: the minute, the day, the calendar month.
/// A window resets at its end, so `Retry-After` and the messages can say exactly when.
enum LimitWindows {
    /// Minutes since 1970.
    static func minute(_ t: Date) -> Int64 { Int64((t.timeIntervalSince1970 / 60).rounded(.down)) }
    /// Days since 1970.
    static func day(_ t: Date) -> Int64 { Int64((t.timeIntervalSince1970 / 86_400).rounded(.down)) }
    /// Months since year 0 (`year * 12 + month - 1`), in arithmetic from the day (`CivilTime`: this runs twice per
    /// request, and `gmtime_r` takes glibc's time-zone lock).
    static func month(_ t: Date) -> Int64 {
        let (year, month, _) = CivilTime.civil(daysSince1970: Int(day(t)))
        return Int64(year) * 12 + Int64(month) - 1
    }

    /// The minute, day and month of one instant, worked out once.
    struct Current: Sendable {
        let minute: Int64
        let day: Int64
        let month: Int64

        init(_ t: Date) {
            minute = LimitWindows.minute(t)
            day = LimitWindows.day(t)
            month = LimitWindows.month(t)
        }
    }

    static func minuteStart(_ minute: Int64) -> Date { Date(timeIntervalSince1970: Double(minute) * 60) }
    static func dayStart(_ day: Int64) -> Date { Date(timeIntervalSince1970: Double(day) * 86_400) }
    static func monthStart(_ month: Int64) -> Date {
        var tm = tm()
        tm.tm_year = Int32(month / 12) - 1900
        tm.tm_mon = Int32(month % 12)
        tm.tm_mday = 1
        return Date(timeIntervalSince1970: Double(timegm(&tm)))
    }

    /// When the window of `limit` that contains `t` ends (nil for the concurrency limits, which have none).
    static func reset(of limit: LimitName, at t: Date) -> Date? {
        switch limit {
        case .requestsPerMinute, .tokensPerMinute: minuteStart(minute(t) + 1)
        case .budgetPerDay: dayStart(day(t) + 1)
        case .budgetPerMonth: monthStart(month(t) + 1)
        case .concurrentRequests, .concurrentStreams: nil
        }
    }

    /// `2026-12-01T17:43:00Z`.
    static func iso(_ t: Date) -> String {
        let c = utc(t)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
    }

    /// `23 s`, `6 h 17 min`, `3 days 4 h`.
    static func span(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 120 { return "\(s) s" }
        if s < 7_200 { return "\(s / 60) min" }
        if s < 172_800 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86_400) days \(s % 86_400 / 3600) h"
    }

    private static func utc(_ t: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var time = time_t(t.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        gmtime_r(&time, &tm)
        return (Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
    }
}
