import Foundation
import Testing
import SkillGateTestSupport
import SkillGateHTTP
@testable import SkillGateServer

/// Several keys for one provider (`UP_KEY`, `UP_KEY_2`) through the real gateway: calls spread over
/// them, a key the provider rate-limits or refuses cools down on its own, and no secret is logged.
@Suite(.serialized) struct GatewayKeyPoolTests {
    typealias R = OpenAIRecordings
    static let keyA = "sk-pool-a-0123456789abcdef"
    static let keyB = "sk-pool-b-0123456789abcdef"
    static let keys = [("UP_KEY", keyA), ("UP_KEY_2", keyB)]

    private func keysSeen(_ upstream: UpstreamDouble) -> [String] {
        upstream.requests.map { String(($0.headers["authorization"] ?? "").dropFirst("Bearer ".count)) }
    }

    @Test func sequentialRequestsAreSpreadOverTheKeys() async throws {
        let up = try UpstreamDouble([R.text])
        let gw = try ResilienceGateway(providers: [("up-a", up.baseURL)], tier: ["up-a/m"], keys: Self.keys)
        for _ in 0..<6 {
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200)
        }
        let seen = keysSeen(up)
        #expect(seen.filter { $0 == Self.keyA }.count == 3 && seen.filter { $0 == Self.keyB }.count == 3, "\(seen.count) requests")
        await gw.stop()
        await up.stop()
    }

    /// 429 (the key's rate limit), 401 (a wrong or revoked key) and 403 (the key's project or region is refused: OpenAI's
    /// `unsupported_country_region_territory`, which a key of another account may pass; decision 0115).
    @Test(arguments: [429, 401, 403])
    func aRefusedKeyCoolsDownAndTheRequestSucceedsWithTheOther(status: Int) async throws {
        let clock = ManualClock()
        let refusal: UpstreamDouble.Reply = switch status {
        case 429: R.rateLimited(retryAfter: "20")
        case 401: .json(status: 401, body: Array(#"{"error":{"message":"Incorrect API key provided: sk-pool-***cdef. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#.utf8), headers: [:])
        default: .json(status: 403, body: Array(#"{"error":{"code":"unsupported_country_region_territory","message":"Country, region, or territory not supported","param":null,"type":"request_forbidden"}}"#.utf8), headers: [:])
        }
        let up = try UpstreamDouble([R.text], byKey: [Self.keyA: refusal])
        let gw = try ResilienceGateway(providers: [("up-a", up.baseURL)], tier: ["up-a/m"],
                                       resilience: #"{"cooldown":{"after_failures":1,"seconds":60}}"#, clock: clock, keys: Self.keys)
        // Whichever key the first request takes, no request fails: a refused key is swapped at once.
        for _ in 0..<5 {
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200, "the pool's other key answers")
        }
        let seen = keysSeen(up)
        #expect(seen.filter { $0 == Self.keyA }.count == 1, "the refused key is tried once, then cools down: \(seen.count) calls")
        #expect(seen.filter { $0 == Self.keyB }.count == 5)

        let lines = await gw.logLines(atLeast: 5)
        let attempts = lines.compactMap { $0["attempts"] as? [String] }.first { $0.count == 2 } ?? []
        // The attempt shows the status the client would have got: 429, or 502 for a refused key.
        #expect(attempts.first?.hasPrefix("up-a/m [UP_KEY]: \(status == 429 ? 429 : 502) ") == true, "\(attempts)")
        #expect(attempts.last == "up-a/m [UP_KEY_2]: 200 ok", "\(attempts)")
        #expect(gw.server.services.metrics.render().contains(#"skillgate_key_failures_total{model="up-a/m",key="UP_KEY"} 1"#))
        #expect(gw.server.services.executor.health.snapshot("up-a/m").consecutiveFailures == 0,
                "a refused key is not a failure of the deployment")

        // After the cooldown (Retry-After 20 s for the 429, the resilience cooldown of 60 s for the 401 and 403) the key is used again.
        clock.advance(by: .seconds(61))
        let before = keysSeen(up).count
        _ = try await gw.send(ResilienceGateway.body(model: "light"))
        _ = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(keysSeen(up).dropFirst(before).contains(Self.keyA), "the cooled key is back in the rotation")

        let log = (try? String(contentsOfFile: gw.directory + "/gateway.log", encoding: .utf8)) ?? ""
        #expect(!log.isEmpty)
        #expect(!log.contains(Self.keyA) && !log.contains(Self.keyB) && !log.contains("0123456789abcdef"), "no key reaches the log")
        await gw.stop()
        await up.stop()
    }

    /// `skillgate_key_failures_total` counts refusals of a key, nothing else (decision 0146's round of documentation
    /// checks): a provider's 500 and its 400 for the client's own request failed attempts made with a pooled key, but
    /// refused no key; before, each counted there, so an outage or one client's bad requests fired the key-refused alert
    /// and broke the rotation check ("stays flat"). They count in `skillgate_upstream_attempts_total`.
    @Test func failuresThatRefuseNoKeyAreNotKeyFailures() async throws {
        let badRequest: UpstreamDouble.Reply = .json(status: 400, body: Array(#"{"error":{"message":"Invalid value for 'temperature'.","type":"invalid_request_error","param":"temperature","code":null}}"#.utf8), headers: [:])
        let up = try UpstreamDouble([R.serverError, badRequest])
        let gw = try ResilienceGateway(providers: [("up-a", up.baseURL)], tier: ["up-a/m"], resilience: #"{"max_attempts":1}"#, keys: Self.keys)
        let statuses = [try await gw.send(ResilienceGateway.body(model: "light")).status, try await gw.send(ResilienceGateway.body(model: "light")).status]
        // A request is counted just after its answer went out (decision 0059): wait (bounded) for the second one's.
        let attempts = #"skillgate_upstream_attempts_total{model="up-a/m",outcome="failed"} 2"#
        var metrics = gw.server.services.metrics.render()
        let deadline = ContinuousClock.now + .seconds(5)
        while !metrics.contains(attempts) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            metrics = gw.server.services.metrics.render()
        }
        await gw.stop()
        await up.stop()
        #expect(statuses == [502, 400] || statuses == [500, 400], "\(statuses)")
        #expect(metrics.contains(attempts), "\(metrics)")
        #expect(!metrics.contains("skillgate_key_failures_total{"), "a failure that refused no key was counted as a key's")
    }

    @Test func whenEveryKeyIsRefusedTheClientGetsTheProvidersAnswer() async throws {
        let up = try UpstreamDouble([R.rateLimited(retryAfter: "1")])
        let gw = try ResilienceGateway(providers: [("up-a", up.baseURL)], tier: ["up-a/m"],
                                       resilience: #"{"max_attempts":2,"deadline_seconds":1}"#, keys: Self.keys)
        let r = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(r.status == 429)
        let seen = keysSeen(up)
        #expect(Set(seen) == [Self.keyA, Self.keyB], "both keys were tried before giving up")
        #expect(!String(decoding: r.body, as: UTF8.self).contains("sk-pool"))
        await gw.stop()
        await up.stop()
    }

    /// Three keys all rate-limited: `max_attempts` bounds the request's upstream calls, key swaps included (it made
    /// three calls per attempt, nine in all, before; decision 0110).
    @Test(arguments: [1, 2, 3])
    func keySwapsCountAgainstMaxAttempts(maxAttempts: Int) async throws {
        let up = try UpstreamDouble([R.rateLimited(retryAfter: "1")])
        let keys = Self.keys + [("UP_KEY_3", "sk-pool-c-0123456789abcdef")]
        let gw = try ResilienceGateway(providers: [("up-a", up.baseURL)], tier: ["up-a/m"],
                                       resilience: #"{"max_attempts":\#(maxAttempts),"deadline_seconds":5,"max_wait_seconds":5}"#, keys: keys)
        let r = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(r.status == 429)
        let seen = keysSeen(up)
        #expect(seen.count == maxAttempts, "\(seen.count) upstream calls for max_attempts \(maxAttempts)")
        #expect(Set(seen).count == maxAttempts, "each call took another key")
        if maxAttempts < 3 {
            #expect(gw.server.services.executor.health.snapshot("up-a/m").consecutiveFailures == 0,
                    "the budget ended the request while another key was ready: no failure of the deployment")
        }
        await gw.stop()
        await up.stop()
    }

    /// The operator replaces a refused key's secret (`skillgate keys set UP_KEY ...`): the new secret is used at once,
    /// not after the refused one's cooldown (decision 0110).
    @Test func aNewSecretUnderARefusedKeysNameIsUsedAtOnce() async throws {
        let clock = ManualClock()
        let refusal: UpstreamDouble.Reply = .json(status: 401, body: Array(#"{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#.utf8), headers: [:])
        let up = try UpstreamDouble([R.text], byKey: [Self.keyA: refusal])
        let gw = try ResilienceGateway(providers: [("up-a", up.baseURL)], tier: ["up-a/m"],
                                       resilience: #"{"cooldown":{"after_failures":1,"seconds":600}}"#, clock: clock, keys: Self.keys)
        for _ in 0..<3 {
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200)
        }
        #expect(keysSeen(up).filter { $0 == Self.keyA }.count == 1, "the refused key cooled down")
        let renewed = "sk-pool-a-renewed-0123456789"
        try gw.server.services.keys.set("UP_KEY", secret: renewed)
        for _ in 0..<4 {
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200)
        }
        #expect(keysSeen(up).filter { $0 == renewed }.count == 2, "the new secret takes its turn at once: \(keysSeen(up).count) calls")
        await gw.stop()
        await up.stop()
    }
}
