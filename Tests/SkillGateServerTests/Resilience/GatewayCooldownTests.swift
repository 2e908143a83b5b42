import Foundation
import Testing
import SkillGateTestSupport
import SkillGateHTTP
@testable import SkillGateServer

/// Cooldown and recovery through the real gateway, with an injected clock.
@Suite(.serialized) struct GatewayCooldownTests {
    typealias R = OpenAIRecordings

    @Test func aFailingDeploymentIsSkippedDuringItsCooldownAndProbedAfterIt() async throws {
        let clock = ManualClock()
        let a = try UpstreamDouble([R.serverError, R.serverError, R.text])
        let b = try UpstreamDouble([R.text])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"cooldown":{"after_failures":2,"seconds":30}}"#, clock: clock)
        for _ in 0..<2 {
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200 && r.headers["x-skillgate-provider"] == "up-b")
        }
        #expect(a.requestCount == 2)

        let skipped = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(skipped.headers["x-skillgate-provider"] == "up-b")
        #expect(a.requestCount == 2, "up-a is cooling down: not called")
        let attempts = await gw.logLines(atLeast: 3).last?["attempts"] as? [String] ?? []
        #expect(attempts.first?.hasPrefix("up-a/m: skipped (cooling down, 30 s left)") == true, "\(attempts)")

        clock.advance(by: .seconds(30))
        let probe = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(probe.headers["x-skillgate-provider"] == "up-a", "after the cooldown a probe goes to up-a, which has recovered")
        let again = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(again.headers["x-skillgate-provider"] == "up-a")
        #expect(a.requestCount == 4 && b.requestCount == 3)
        await gw.stop()
        await a.stop()
        await b.stop()
    }
}
