import Foundation
import Testing
import SkillGateTestSupport
import SkillGateHTTP
@testable import SkillGateServer

/// Failures attributed to the client token whose request failed, through the real gateway (decision 0115): one token's
/// requests that the provider cannot serve cool the deployment for that token only; failures of two tokens cool it for
/// all; a deployment cooled because its key was refused is ready once the key has a new secret.
@Suite(.serialized) struct GatewayCallerCooldownTests {
    typealias R = OpenAIRecordings
    /// A request the provider answers with a 500, whoever sends it.
    static let poisoned = ResilienceGateway.body(model: "light", messages: #"[{"role":"user","content":"POISON"}]"#)
    static let plain = ResilienceGateway.body(model: "light")

    private static func twoUpstreams() throws -> (UpstreamDouble, UpstreamDouble) {
        (try UpstreamDouble([R.text], byBodyContaining: ["POISON": R.serverError]), try UpstreamDouble([R.text]))
    }

    @Test func oneTokensFailingRequestsCoolTheDeploymentForThatTokenOnly() async throws {
        let clock = ManualClock()
        let (a, b) = try Self.twoUpstreams()
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"cooldown":{"after_failures":2,"seconds":600}}"#, clock: clock)
        for _ in 0..<2 {
            let r = try await gw.send(Self.poisoned)
            #expect(r.status == 200 && r.headers["x-skillgate-provider"] == "up-b", "the failure falls back")
        }
        #expect(a.requestCount == 2)
        let health = gw.server.services.executor.health
        #expect(health.snapshot("up-a/m").cooledUntil == nil, "not cooled for everyone")
        #expect(health.snapshot("up-a/m").cooledCallers == 1)

        let other = try await gw.send(Self.plain, token: gw.otherToken)
        #expect(other.headers["x-skillgate-provider"] == "up-a", "another token's request still goes to up-a")
        let same = try await gw.send(Self.plain)
        #expect(same.headers["x-skillgate-provider"] == "up-b", "the failing token's requests skip up-a during its cooldown")
        #expect(a.requestCount == 3)
        let attempts = await gw.logLines(atLeast: 4).last?["attempts"] as? [String] ?? []
        #expect(attempts.first?.hasPrefix("up-a/m: skipped (cooling down, 600 s left)") == true, "\(attempts)")

        let admin = try gw.server.services.tokens.create(name: "console", admin: true).token
        let listed = try await gw.http.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(gw.server.boundPort)/admin/api/cooldowns",
                                                        headers: ["authorization": "Bearer \(admin)"]))
        let rows = (try JSONSerialization.jsonObject(with: Data(listed.body)) as? [String: Any])?["data"] as? [[String: Any]] ?? []
        let row = rows.first { $0["model"] as? String == "up-a/m" }
        #expect(row?["cooling_down"] as? Bool == false && row?["cooling_down_for_tokens"] as? Int == 1, "\(rows)")

        // After the cooldown the token's next request probes up-a again.
        clock.advance(by: .seconds(600))
        let probe = try await gw.send(Self.plain)
        #expect(probe.headers["x-skillgate-provider"] == "up-a")
        #expect(health.snapshot("up-a/m").cooledCallers == 0, "its own success ends the token's cooldown")
        await gw.stop()
        await a.stop()
        await b.stop()
    }

    @Test func failuresOfTwoTokensCoolTheDeploymentForAll() async throws {
        let (a, b) = try Self.twoUpstreams()
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"cooldown":{"after_failures":2,"seconds":600}}"#)
        _ = try await gw.send(Self.poisoned)
        _ = try await gw.send(Self.poisoned, token: gw.otherToken)
        #expect(a.requestCount == 2)
        #expect(gw.server.services.executor.health.snapshot("up-a/m").cooledUntil != nil, "two tokens' failures: the deployment's")
        for token in [gw.token, gw.otherToken] {
            let r = try await gw.send(Self.plain, token: token)
            #expect(r.headers["x-skillgate-provider"] == "up-b")
        }
        #expect(a.requestCount == 2, "up-a cools down for everyone")
        await gw.stop()
        await a.stop()
        await b.stop()
    }

    /// A provider with one key refused it (401): its deployment cooled down. The operator sets a new secret: the
    /// deployment is used at once, not after the cooldown (the pool case is `GatewayKeyPoolTests`).
    @Test func aDeploymentCooledForARefusedKeyIsReadyOnceTheKeyHasANewSecret() async throws {
        let clock = ManualClock()
        let old = "sk-single-old-0123456789", renewed = "sk-single-new-0123456789"
        let refusal: UpstreamDouble.Reply = .json(status: 401, body: Array(#"{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#.utf8), headers: [:])
        let a = try UpstreamDouble([R.text], byKey: [old: refusal]), b = try UpstreamDouble([R.text])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"cooldown":{"after_failures":1,"seconds":600}}"#, clock: clock, keys: [("UP_KEY", old)])
        for _ in 0..<2 {
            let r = try await gw.send(Self.plain)
            #expect(r.status == 200 && r.headers["x-skillgate-provider"] == "up-b")
        }
        #expect(a.requestCount == 1, "the refusal cooled up-a")
        try gw.server.services.keys.set("UP_KEY", secret: renewed)
        let r = try await gw.send(Self.plain)
        #expect(r.headers["x-skillgate-provider"] == "up-a", "the new secret is tried at once")
        #expect(a.requests.last?.headers["authorization"] == "Bearer \(renewed)")
        #expect(gw.server.services.executor.health.snapshot("up-a/m").cooledUntil == nil)
        await gw.stop()
        await a.stop()
        await b.stop()
    }
}
