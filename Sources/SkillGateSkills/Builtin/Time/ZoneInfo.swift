import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SkillGateCore

/// An IANA time zone read from the system's TZif files (`/usr/share/zoneinfo`, Debian package `tzdata`;
/// RFC 8536): the UTC offset and abbreviation in effect at any instant. Foundation's `TimeZone` needs ICU for
/// named zones, which a statically linked gateway does not carry.
struct ZoneInfo: Sendable {
    struct LocalTimeType: Sendable { var offset: Int; var isDaylight: Bool; var abbreviation: String }

    let identifier: String
    private let transitions: [Int64]
    private let typeOfTransition: [Int]
    private let types: [LocalTimeType]
    private let rule: PosixTimeZoneRule?

    /// Where the TZif files live.
    static let directory = "/usr/share/zoneinfo"

    /// The zone named `identifier` (`Europe/Zurich`, `UTC`), or `nil` when the name is not a plain IANA name
    /// or no valid file exists for it. Names are checked before any file is opened: letters, digits, `_`, `-`,
    /// `+` and single `/` between parts, no `.` — a model-chosen argument cannot walk the file system.
    init?(identifier: String, directory: String = ZoneInfo.directory) {
        guard Self.isPlainName(identifier),
              let data = FileManager.default.contents(atPath: directory + "/" + identifier),
              let parsed = Self.parse(Array(data)) else { return nil }
        self.identifier = identifier
        (transitions, typeOfTransition, types, rule) = parsed
    }

    /// Offset east of UTC in seconds and the abbreviation (`CET`, `EDT`, `IST`, `+0530`) at `unixSeconds`.
    func localTimeType(at unixSeconds: Int64) -> LocalTimeType {
        if let last = transitions.last, unixSeconds >= last, let rule {
            let zone = rule.zone(at: unixSeconds)
            return LocalTimeType(offset: zone.offset, isDaylight: zone.offset != rule.standard.offset, abbreviation: zone.abbreviation)
        }
        guard let first = transitions.first, unixSeconds >= first else {
            if transitions.isEmpty, let rule {
                let zone = rule.zone(at: unixSeconds)
                return LocalTimeType(offset: zone.offset, isDaylight: false, abbreviation: zone.abbreviation)
            }
            return types[0]
        }
        var low = 0, high = transitions.count - 1   // last transition at or before the instant
        while low < high {
            let mid = (low + high + 1) / 2
            if transitions[mid] <= unixSeconds { low = mid } else { high = mid - 1 }
        }
        return types[typeOfTransition[low]]
    }

    static func isPlainName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64, !name.hasPrefix("/"), !name.hasSuffix("/"), !name.contains("//") else { return false }
        return name.utf8.allSatisfy { b in
            (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: "/")
        }
    }

    /// Transitions, their type indices, the types and the footer rule of a TZif file (version 2 or later uses
    /// the 64-bit block; version 1 the 32-bit one).
    static func parse(_ bytes: [UInt8]) -> ([Int64], [Int], [LocalTimeType], PosixTimeZoneRule?)? {
        guard let first = Header(bytes, at: 0) else { return nil }
        var start = 44, wide = false, header = first
        if first.version >= 2 {
            start = 44 + first.dataLength(timeSize: 4)
            guard let second = Header(bytes, at: start) else { return nil }
            header = second
            start += 44
            wide = true
        }
        let timeSize = wide ? 8 : 4
        let end = start + header.dataLength(timeSize: timeSize)
        guard header.typeCount > 0, end <= bytes.count else { return nil }
        var p = start
        var transitions: [Int64] = []
        for _ in 0..<header.transitionCount {
            transitions.append(wide ? Int64(bitPattern: bigEndian(bytes, p, 8)) : Int64(Int32(bitPattern: UInt32(bigEndian(bytes, p, 4)))))
            p += timeSize
        }
        var indices: [Int] = []
        for _ in 0..<header.transitionCount {
            guard Int(bytes[p]) < header.typeCount else { return nil }
            indices.append(Int(bytes[p]))
            p += 1
        }
        let abbreviationsStart = p + header.typeCount * 6
        var types: [LocalTimeType] = []
        for _ in 0..<header.typeCount {
            let offset = Int(Int32(bitPattern: UInt32(bigEndian(bytes, p, 4))))
            let index = abbreviationsStart + Int(bytes[p + 5])
            guard index < abbreviationsStart + header.charCount else { return nil }
            var stop = index
            while stop < abbreviationsStart + header.charCount, bytes[stop] != 0 { stop += 1 }
            types.append(LocalTimeType(offset: offset, isDaylight: bytes[p + 4] != 0,
                                       abbreviation: String(decoding: bytes[index..<stop], as: UTF8.self)))
            p += 6
        }
        var rule: PosixTimeZoneRule?
        if wide, end < bytes.count, bytes[end] == 0x0A, let close = bytes[(end + 1)...].firstIndex(of: 0x0A), close > end + 1 {
            rule = PosixTimeZoneRule(String(decoding: bytes[(end + 1)..<close], as: UTF8.self))
        }
        return (transitions, indices, types, rule)
    }

    private struct Header {
        var version: Int, utIndicatorCount: Int, standardIndicatorCount: Int, leapCount: Int
        var transitionCount: Int, typeCount: Int, charCount: Int

        init?(_ bytes: [UInt8], at offset: Int) {
            guard offset + 44 <= bytes.count, bytes[offset..<(offset + 4)].elementsEqual("TZif".utf8) else { return nil }
            version = bytes[offset + 4] == 0 ? 1 : Int(bytes[offset + 4]) - 0x30
            let counts = (0..<6).map { Int(bigEndian(bytes, offset + 20 + $0 * 4, 4)) }
            (utIndicatorCount, standardIndicatorCount, leapCount, transitionCount, typeCount, charCount) =
                (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
            guard counts.allSatisfy({ $0 < 1 << 20 }) else { return nil }
        }

        func dataLength(timeSize: Int) -> Int {
            transitionCount * (timeSize + 1) + typeCount * 6 + charCount + leapCount * (timeSize + 4)
                + standardIndicatorCount + utIndicatorCount
        }
    }
}

private func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
    var value: UInt64 = 0
    for i in 0..<count { value = value << 8 | UInt64(bytes[at + i]) }
    return value
}
