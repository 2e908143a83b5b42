import Glibc

/// The `Date` header of a loop's responses (RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`), formatted
/// once a second instead of once per response (`gmtime_r` and formatting cost ~3.4k instructions, decision 0047).
/// Loop thread only.
struct HTTPDateCache {
    private var second: time_t = -1
    /// The 29 bytes of the current date.
    private var text: [UInt8] = []

    /// Calls `body` with the current date's bytes.
    mutating func withCurrent<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        let now = time(nil)
        if now != second {
            second = now
            text = Self.format(now)
        }
        return text.withUnsafeBytes(body)
    }

    private static let days: [String] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [String] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The IMF-fixdate of `seconds` since the epoch (UTC), 29 bytes.
    static func format(_ seconds: time_t) -> [UInt8] {
        var t = seconds
        var parts = tm()
        gmtime_r(&t, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(29)
        func two(_ n: Int32) { out.append(0x30 + UInt8(n / 10 % 10)); out.append(0x30 + UInt8(n % 10)) }
        out += days[Int(parts.tm_wday) % 7].utf8
        out += Array(", ".utf8)
        two(parts.tm_mday)
        out.append(0x20)
        out += months[Int(parts.tm_mon) % 12].utf8
        out.append(0x20)
        let year = parts.tm_year + 1900
        two(year / 100)
        two(year % 100)
        out.append(0x20)
        two(parts.tm_hour)
        out.append(0x3A)
        two(parts.tm_min)
        out.append(0x3A)
        two(parts.tm_sec)
        out += Array(" GMT".utf8)
        return out
    }
}
