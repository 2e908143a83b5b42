import Foundation
import SkillGateCore

/// `current_time`: the date, time, weekday and UTC offset now, in an IANA time zone (default UTC).
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
    private let now: @Sendable () -> Date

    /// `now` supplies the instant (tests pin it).
    public init(now: @escaping @Sendable () -> Date = { Date() }) { self.now = now }

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        let requested = arguments["timezone"]?.stringValue?.trimmingCharacters(in: .whitespaces) ?? ""
        let zoneName = requested.isEmpty ? "UTC" : requested
        guard let zone = TimeZone(identifier: zoneName) else {
            return SkillResult(text: "Unknown time zone \"\(zoneName)\". Use an IANA name such as \"UTC\", \"Europe/Berlin\", \"America/New_York\" or \"Asia/Tokyo\".", isError: true)
        }
        // Foundation names UTC "GMT"; answer in the name that was asked for.
        let isUTC = zone.identifier == "GMT" && zoneName.uppercased() == "UTC"
        let shownName = isUTC ? "UTC" : zone.identifier
        let date = now()
        let offset = zone.secondsFromGMT(for: date)
        let offsetText = Self.offsetText(offset)
        let abbreviation = isUTC ? "UTC" : zone.abbreviation(for: date) ?? offsetText
        let text = "\(Self.format(date, zone, "EEEE, d MMMM yyyy, HH:mm:ss")) in \(shownName) (UTC\(offsetText), \(abbreviation))"
        let payload: JSONValue = [
            "iso8601": .string(Self.format(date, zone, "yyyy-MM-dd'T'HH:mm:ss") + (offset == 0 ? "Z" : offsetText)),
            "unix": .int(Int64(date.timeIntervalSince1970.rounded(.down))),
            "timezone": .string(shownName),
            "utc_offset_seconds": .int(offset),
            "weekday": .string(Self.format(date, zone, "EEEE")),
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

    private static func format(_ date: Date, _ zone: TimeZone, _ pattern: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.calendar = Calendar(identifier: .gregorian)
        f.timeZone = zone
        f.dateFormat = pattern
        return f.string(from: date)
    }
}
