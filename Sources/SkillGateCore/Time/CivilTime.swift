/// A wall-clock reading (proleptic Gregorian calendar) of an instant at a fixed UTC offset.
public struct CivilTime: Equatable, Sendable {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int

    public static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    /// The reading of `unixSeconds` at `offsetSeconds` east of UTC.
    public init(unixSeconds: Int64, offsetSeconds: Int) {
        let local = unixSeconds + Int64(offsetSeconds)
        let days = Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
        let secondsOfDay = Int(local - Int64(days) * 86_400)
        (year, month, day) = Self.civil(daysSince1970: days)
        hour = secondsOfDay / 3600
        minute = secondsOfDay / 60 % 60
        second = secondsOfDay % 60
        weekday = ((days % 7) + 7 + 4) % 7   // 1970-01-01 was a Thursday
    }

    /// Year, month (1…12) and day of a day number (days since 1970-01-01).
    public static func civil(daysSince1970 days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a date (month 1…12).
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysIn(month: Int, year: Int) -> Int {
        [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }
}
