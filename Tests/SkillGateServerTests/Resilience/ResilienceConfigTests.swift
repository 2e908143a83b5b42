import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer

@Suite struct ResilienceConfigTests {
    private func load(_ json: String) throws -> GatewayConfig {
        try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: "/etc/skillgate")
    }

    @Test func defaultsKeepTheTierOrderAndRetryModestly() throws {
        let r = try load("{}").resilience
        #expect(r.balance == .ordered)
        #expect(r.policy == RetryPolicy(maxAttempts: 4, deadline: .seconds(120), backoffInitial: .milliseconds(250), backoffMax: .seconds(4),
                                        maxWait: .seconds(5), cooldownAfterFailures: 3, cooldown: .seconds(30)))
        #expect(r.stickyToolCalls == 10_000)
    }

    @Test func readsEverySetting() throws {
        let r = try load(#"""
        {"resilience":{"max_attempts":2,"deadline_seconds":10,"max_wait_seconds":1.5,"backoff":{"initial_ms":50,"max_ms":400},
         "cooldown":{"after_failures":5,"seconds":60},"balance":"least_in_flight","weights":{"openai/x":2.5},"sticky_tool_calls":0}}
        """#).resilience
        #expect(r.maxAttempts == 2 && r.deadlineSeconds == 10 && r.maxWaitSeconds == 1.5)
        #expect(r.backoffInitialMs == 50 && r.backoffMaxMs == 400)
        #expect(r.cooldownAfterFailures == 5 && r.cooldownSeconds == 60)
        #expect(r.balance == .leastInFlight && r.weights == ["openai/x": 2.5] && r.stickyToolCalls == 0)
    }

    @Test(arguments: [
        (#"{"resilience":{"retries":3}}"#, "$.resilience.retries", "unknown key"),
        (#"{"resilience":{"balance":"random"}}"#, "$.resilience.balance", "least_in_flight"),
        (#"{"resilience":{"max_attempts":0}}"#, "$.resilience.max_attempts", "between 1 and 20"),
        (#"{"resilience":{"deadline_seconds":0}}"#, "$.resilience.deadline_seconds", "positive"),
        (#"{"resilience":{"backoff":{"initial_ms":500,"max_ms":100}}}"#, "$.resilience.backoff.max_ms", "at least initial_ms"),
        (#"{"resilience":{"cooldown":{"after_failures":-1}}}"#, "$.resilience.cooldown.after_failures", "0 (never cool down)"),
        (#"{"resilience":{"weights":{"openai/x":0}}}"#, "$.resilience.weights.openai/x", "positive weight"),
        (#"{"resilience":{"sticky_tool_calls":-5}}"#, "$.resilience.sticky_tool_calls", "0 (off)"),
    ])
    func badSettingsNameTheirPath(_ json: String, _ path: String, _ fragment: String) {
        do {
            _ = try load(json)
            Issue.record("expected an error at \(path)")
        } catch let error as JSONShapeError {
            #expect(error.path == path, "\(error)")
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
