import Foundation
import Testing
@testable import SkillGateSkills

/// The TZif reader against Foundation's ICU-backed `TimeZone` (which the tests link; the gateway does not):
/// the same UTC offset for every zone at instants spread over 1975–2060, across many transitions and beyond
/// the files' last transition, where the POSIX rule in the footer decides.
@Suite struct ZoneInfoTests {
    static let zones = ["Europe/Zurich", "Europe/London", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo",
                        "America/St_Johns", "Asia/Kolkata", "Asia/Tokyo", "Asia/Kathmandu", "Australia/Sydney",
                        "Australia/Lord_Howe", "Pacific/Auckland", "Pacific/Chatham", "Africa/Casablanca", "Asia/Tehran",
                        "America/Santiago", "Europe/Dublin", "UTC", "Etc/GMT+5"]

    @Test(arguments: zones)
    func offsetsAgreeWithFoundation(zone: String) throws {
        let ours = try #require(ZoneInfo(identifier: zone))
        let theirs = try #require(TimeZone(identifier: zone))
        var mismatches: [String] = []
        var t: Int64 = 157_766_400   // 1975-01-01
        while t < 2_840_140_800 {   // 2060-01-01
            let expected = theirs.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
            let got = ours.localTimeType(at: t).offset
            if got != expected { mismatches.append("\(t): \(got) vs \(expected)") }
            t += 86_400 * 7 + 3_613   // weekly, drifting through the hours of the day
        }
        #expect(mismatches.isEmpty, "\(zone): \(mismatches.prefix(5))")
    }

    @Test func abbreviationsComeFromTheFile() throws {
        let zurich = try #require(ZoneInfo(identifier: "Europe/Zurich"))
        #expect(zurich.localTimeType(at: 1_796_025_290).abbreviation == "CET")     // 2026-11-30
        #expect(zurich.localTimeType(at: 1_782_864_000).abbreviation == "CEST")    // 2026-07-01
        #expect(try #require(ZoneInfo(identifier: "Asia/Kolkata")).localTimeType(at: 1_796_025_290).abbreviation == "IST")
    }

    @Test(arguments: ["../etc/passwd", "/etc/passwd", "Europe/../../etc/passwd", "Europe//Zurich", "Europe/Zurich/",
                      "Mars/Olympus", "", ".", "Europe/Zurich\u{0}", "Europe/Zürich", String(repeating: "A", count: 80)])
    func namesThatAreNoPlainZoneAreRefused(name: String) {
        #expect(ZoneInfo(identifier: name) == nil)
    }

    @Test func aTruncatedOrForeignFileIsRefused() throws {
        let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Zurich"))
        for cut in [0, 10, 44, 60, bytes.count / 2] {
            _ = ZoneInfo.parse(Array(bytes.prefix(cut)))   // must not trap
        }
        #expect(ZoneInfo.parse(Array(bytes.prefix(43))) == nil)
        #expect(ZoneInfo.parse(Array("not a tzif file at all, just some text that is long enough".utf8)) == nil)
    }

    @Test(arguments: [("CET-1CEST,M3.5.0,M10.5.0/3", Int64(1_782_864_000), 7200), ("CET-1CEST,M3.5.0,M10.5.0/3", Int64(1_796_025_290), 3600),
                      ("IST-5:30", Int64(1_796_025_290), 19_800), ("<-03>3", Int64(0), -10_800),
                      ("AEST-10AEDT,M10.1.0,M4.1.0/3", Int64(1_796_025_290), 39_600), ("AEST-10AEDT,M10.1.0,M4.1.0/3", Int64(1_782_864_000), 36_000),
                      ("EST5EDT,M3.2.0,M11.1.0", Int64(1_782_864_000), -14_400)])
    func posixRules(rule: String, at unixSeconds: Int64, offset: Int) throws {
        let parsed = try #require(PosixTimeZoneRule(rule))
        #expect(parsed.zone(at: unixSeconds).offset == offset)
    }
}
