import Foundation
import Testing
import SkillGateCore
@testable import SkillGateSkills

@Suite struct CurrentTimeSkillTests {
    // 2026-11-30T07:54:50Z, a Monday.
    let skill = CurrentTimeSkill(now: { Date(timeIntervalSince1970: 1_796_025_290) })
    let context = SkillContext(tokenName: "t", requestId: "r")

    @Test func defaultsToUTC() async throws {
        let r = try await skill.execute([:], context: context)
        #expect(!r.isError)
        #expect(r.text.hasPrefix("Monday, 30 November 2026, 07:54:50 in UTC (UTC+00:00"), "\(r.text)")
        #expect(r.payload?["iso8601"] == "2026-11-30T07:54:50Z")
        #expect(r.payload?["unix"]?.intValue == 1_796_025_290)
    }

    @Test(arguments: [("Asia/Kolkata", "13:24:50", "+05:30", "2026-11-30T13:24:50+05:30"),
                      ("America/New_York", "02:54:50", "-05:00", "2026-11-30T02:54:50-05:00"),
                      ("Europe/Berlin", "08:54:50", "+01:00", "2026-11-30T08:54:50+01:00")])
    func timeZones(zone: String, time: String, offset: String, iso: String) async throws {
        let r = try await skill.execute(["timezone": .string(zone)], context: context)
        #expect(!r.isError)
        #expect(r.text.contains(time) && r.text.contains("UTC\(offset)") && r.text.contains(zone) && r.text.contains("Monday"))
        #expect(r.payload?["iso8601"]?.stringValue == iso)
    }

    @Test func unknownZoneIsAnErrorNamingExamples() async throws {
        let r = try await skill.execute(["timezone": "Mars/Olympus"], context: context)
        #expect(r.isError)
        #expect(r.text.contains("Mars/Olympus") && r.text.contains("Europe/Berlin"))
    }

    @Test func offsetText() {
        #expect(CurrentTimeSkill.offsetText(0) == "+00:00")
        #expect(CurrentTimeSkill.offsetText(-9000) == "-02:30")
        #expect(CurrentTimeSkill.offsetText(20700) == "+05:45")
    }
}
