import SkillGateCore

/// The POSIX `TZ` rule at the end of a TZif file (RFC 8536 §3.3), which gives the offset for instants after the
/// file's last transition: `CET-1CEST,M3.5.0,M10.5.0/3`, `IST-5:30`, `<-03>3`, `EST5EDT,M3.2.0,M11.1.0`.
struct PosixTimeZoneRule: Sendable {
    struct Zone: Sendable { var abbreviation: String; var offset: Int }
    /// When daylight time starts or ends: a date rule and seconds after local midnight.
    enum DateRule: Sendable {
        case monthWeekDay(month: Int, week: Int, weekday: Int)   // Mm.w.d
        case julianNoLeap(Int)                                   // Jn, 1…365, February 29 never counted
        case zeroBasedDay(Int)                                   // n, 0…365
    }

    let standard: Zone
    let daylight: (zone: Zone, start: (DateRule, Int), end: (DateRule, Int))?

    /// Parses `text`; `nil` for anything it does not understand (the caller falls back to the last transition).
    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard let stdName = scanner.name(), let stdOffset = scanner.offset() else { return nil }
        standard = Zone(abbreviation: stdName, offset: -stdOffset)
        if scanner.atEnd { daylight = nil; return }
        guard let dstName = scanner.name() else { return nil }
        let dstOffset = scanner.peekIsOffsetStart ? scanner.offset().map { -$0 } : standard.offset + 3600
        guard let dstOffset, scanner.take(UInt8(ascii: ",")), let start = scanner.transition(),
              scanner.take(UInt8(ascii: ",")), let end = scanner.transition(), scanner.atEnd else { return nil }
        daylight = (Zone(abbreviation: dstName, offset: dstOffset), start, end)
    }

    /// The zone in effect at `unixSeconds`.
    func zone(at unixSeconds: Int64) -> Zone {
        guard let daylight else { return standard }
        let year = CivilTime(unixSeconds: unixSeconds, offsetSeconds: standard.offset).year
        for y in [year - 1, year, year + 1] {
            let start = instant(daylight.start, year: y, offsetInEffect: standard.offset)
            let end = instant(daylight.end, year: y, offsetInEffect: daylight.zone.offset)
            if start < end {
                if unixSeconds >= start && unixSeconds < end { return daylight.zone }
            } else if y == year && (unixSeconds >= start || unixSeconds < end) {
                return daylight.zone   // southern hemisphere: daylight time spans the new year
            }
        }
        return standard
    }

    private func instant(_ rule: (DateRule, Int), year: Int, offsetInEffect: Int) -> Int64 {
        let day: Int
        switch rule.0 {
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilTime.daysSince1970(year: year, month: month, day: 1)
            let firstWeekday = ((first % 7) + 7 + 4) % 7
            var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            while dayOfMonth > CivilTime.daysIn(month: month, year: year) { dayOfMonth -= 7 }
            day = first + dayOfMonth - 1
        case .julianNoLeap(let n):
            let jan1 = CivilTime.daysSince1970(year: year, month: 1, day: 1)
            day = jan1 + n - 1 + (CivilTime.isLeap(year) && n >= 60 ? 1 : 0)
        case .zeroBasedDay(let n):
            day = CivilTime.daysSince1970(year: year, month: 1, day: 1) + n
        }
        return Int64(day) * 86_400 + Int64(rule.1) - Int64(offsetInEffect)
    }

    /// Reads the pieces of a POSIX TZ string.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position >= bytes.count }
        var peekIsOffsetStart: Bool {
            guard let b = peek else { return false }
            return b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || (0x30...0x39).contains(b)
        }
        private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            position += 1
            return true
        }

        /// `CET` (three or more letters) or `<+0530>` (quoted).
        mutating func name() -> String? {
            let start = position
            if take(UInt8(ascii: "<")) {
                while let b = peek, b != UInt8(ascii: ">") { position += 1 }
                guard take(UInt8(ascii: ">")) else { return nil }
                return String(decoding: bytes[(start + 1)..<(position - 1)], as: UTF8.self)
            }
            while let b = peek, (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) { position += 1 }
            return position - start >= 3 ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds (hours up to 167, as RFC 8536 allows for transition times).
        mutating func offset() -> Int? {
            var sign = 1
            if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
            guard let hours = number(), hours <= 167 else { return nil }
            var seconds = hours * 3600
            if take(UInt8(ascii: ":")) {
                guard let minutes = number(), minutes < 60 else { return nil }
                seconds += minutes * 60
                if take(UInt8(ascii: ":")) {
                    guard let s = number(), s < 60 else { return nil }
                    seconds += s
                }
            }
            return sign * seconds
        }

        /// `Mm.w.d[/time]`, `Jn[/time]` or `n[/time]`; the time defaults to 02:00.
        mutating func transition() -> (DateRule, Int)? {
            let rule: DateRule
            if take(UInt8(ascii: "M")) {
                guard let m = number(), (1...12).contains(m), take(UInt8(ascii: ".")), let w = number(), (1...5).contains(w),
                      take(UInt8(ascii: ".")), let d = number(), (0...6).contains(d) else { return nil }
                rule = .monthWeekDay(month: m, week: w, weekday: d)
            } else if take(UInt8(ascii: "J")) {
                guard let n = number(), (1...365).contains(n) else { return nil }
                rule = .julianNoLeap(n)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                rule = .zeroBasedDay(n)
            }
            guard take(UInt8(ascii: "/")) else { return (rule, 7200) }
            guard let time = offset() else { return nil }
            return (rule, time)
        }

        private mutating func number() -> Int? {
            let start = position
            var value = 0
            while let b = peek, (0x30...0x39).contains(b), position - start < 4 {
                value = value * 10 + Int(b - 0x30)
                position += 1
            }
            return position > start ? value : nil
        }
    }
}
