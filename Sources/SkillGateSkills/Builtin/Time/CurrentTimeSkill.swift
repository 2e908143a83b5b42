import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// `current_time`: the date, time, weekday and UTC offset now, in an IANA time zone (default UTC), read from the
/// system's time zone database (`ZoneInfo`).
public struct CurrentTimeSkill: Skill {
    public let id = "builtin.current_time"
    public let name = "current_time"
    public let description = "Returns the current date, time, weekday and UTC offset. Pass an IANA time zone such as \"Europe/Berlin\" or \"America/New_York\"; the default is UTC."
    public let parameters: JSONValue = [
        "type": "object",
        "properties": ["timezone": ["type": "string", "description": "IANA time zone name, e.g. \"Asia/Tokyo\"; default \"UTC\""]],
        "additionalProperties": false,
    ]
    public let version = "1.0"
    public let timeout: Duration = .seconds(2)
    public let requiresConfirmation = false
    public let annotations = SkillAnnotations.readOnly("Current time", openWorld: false)
    private let now: @Sendable () -> Date

    /// `now` supplies the instant (tests pin it).
    public init(now: @escaping @Sendable () -> Date = { Date() }) { self.now = now }

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        let requested = arguments["timezone"]?.stringValue?.trimmingWhitespace() ?? ""
        let zoneName = requested.isEmpty ? "UTC" : requested
        let isUTC = zoneName.uppercased() == "UTC"
        let zone = isUTC ? nil : ZoneInfo(identifier: zoneName)
        guard isUTC || zone != nil else {
            return SkillResult(text: "Unknown time zone \"\(zoneName)\". Use an IANA name such as \"UTC\", \"Europe/Berlin\", \"America/New_York\" or \"Asia/Tokyo\".", isError: true)
        }
        let shownName = isUTC ? "UTC" : zoneName
        let date = now()
        let unix = Int64(date.timeIntervalSince1970.rounded(.down))
        let type = zone?.localTimeType(at: unix)
        let offset = type?.offset ?? 0
        let offsetText = Self.offsetText(offset)
        let abbreviation = isUTC ? "UTC" : (type?.abbreviation).flatMap { $0.isEmpty ? nil : $0 } ?? offsetText
        let local = CivilTime(unixSeconds: unix, offsetSeconds: offset)
        let weekday = CivilTime.weekdayNames[local.weekday]
        let clock = Self.twoDigits(local.hour) + ":" + Self.twoDigits(local.minute) + ":" + Self.twoDigits(local.second)
        let text = "\(weekday), \(local.day) \(CivilTime.monthNames[local.month - 1]) \(local.year), \(clock) in \(shownName) (UTC\(offsetText), \(abbreviation))"
        let isoDate = String(local.year) + "-" + Self.twoDigits(local.month) + "-" + Self.twoDigits(local.day)
        let payload: JSONValue = [
            "iso8601": .string(isoDate + "T" + clock + (offset == 0 ? "Z" : offsetText)),
            "unix": .int(unix),
            "timezone": .string(shownName),
            "utc_offset_seconds": .int(offset),
            "weekday": .string(weekday),
        ]
        return SkillResult(text: text, payload: payload)
    }

    /// `+05:30`, `-08:00`, `+00:00`.
    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let h = minutes / 60, m = minutes % 60
        return sign + (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }
}
