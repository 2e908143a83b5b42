import Testing
import SkillGateCore
@testable import SkillGateServer

/// Settings that work against each other are warned about, not refused (decision 0108): a first-byte timeout not below
/// the resilience deadline leaves a tier's fallback no time when the first deployment hangs.
@Suite struct ConfigWarningsTests {
    static func load(_ extra: String) throws -> GatewayConfig {
        let json = try JSONValue.parse(#"{"tiers":{"light":["a/m1","b/m1"],"strong":["c/m2"]}\#(extra)}"#)
        return try GatewayConfig(json: json, file: "test.json", baseDirectory: "/tmp")
    }

    @Test func theDefaultsLeaveTheFallbackHalfTheDeadline() throws {
        let config = try Self.load("")
        #expect(config.upstreamTimeouts.firstByteSeconds * 2 <= config.resilience.deadlineSeconds)
        #expect(config.warnings.isEmpty, "\(config.warnings)")
    }

    @Test(arguments: [
        (#","upstream_timeouts":{"first_byte_seconds":120}"#, true),
        (#","resilience":{"deadline_seconds":60}"#, true),
        (#","resilience":{"deadline_seconds":60},"upstream_timeouts":{"first_byte_seconds":30}"#, false),
        (#","resilience":{"deadline_seconds":300},"upstream_timeouts":{"first_byte_seconds":120}"#, false),
    ])
    func aFirstByteTimeoutNotBelowTheDeadlineIsWarnedAbout(_ extra: String, _ warned: Bool) throws {
        let warnings = try Self.load(extra).warnings
        #expect(warnings.isEmpty != warned, "\(warnings)")
        if warned {
            #expect(warnings.first?.contains("tier light") == true && warnings.first?.contains("first_byte_seconds") == true)
        }
    }

    /// Tiers of one deployment each have no fallback to starve: nothing to warn about.
    @Test func tiersWithoutFallbacksAreNotWarnedAbout() throws {
        let json = try JSONValue.parse(#"{"tiers":{"light":["a/m1"]},"upstream_timeouts":{"first_byte_seconds":120}}"#)
        #expect(try GatewayConfig(json: json, file: "test.json", baseDirectory: "/tmp").warnings.isEmpty)
    }
}
