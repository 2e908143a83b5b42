import Glibc

/// The `Date` header of a loop's responses (RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`), formatted
/// once a second instead of once per response. evhttp formats it for every reply without one, with `gmtime_r`
/// and `snprintf`: ~3.4k instructions per response (decision 0047). Loop thread only.
struct HTTPDateCache {
    private var second: time_t = -1
    /// The text, NUL-terminated.
    private var text = [CChar](repeating: 0, count: 32)

    /// Calls `body` with the current date as a C string.
    mutating func withCurrent<T>(_ body: (UnsafePointer<CChar>) -> T) -> T {
        let now = time(nil)
        if now != second {
            second = now
            let bytes = Self.format(now)
            for (i, byte) in bytes.enumerated() { text[i] = CChar(bitPattern: byte) }
            text[bytes.count] = 0
        }
        return text.withUnsafeBufferPointer { body($0.baseAddress!) }
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
