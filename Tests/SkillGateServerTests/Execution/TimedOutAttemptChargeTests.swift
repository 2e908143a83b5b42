import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// An attempt the gateway gave up on after the provider had its request (no head within the first-byte timeout) is
/// charged an estimate of its input, under the deployment that timed out, marked estimated (decision 0130): the provider
/// most likely read and billed the prompt. Before, only a client that left was charged (decision 0126), and a token
/// could send long prompts to a deployment that hangs at no cost.
@Suite(.serialized) struct TimedOutAttemptChargeTests {
    typealias R = OpenAIRecordings
    static let prompt = LeftDuringAttemptChargeTests.prompt  // 1,840 bytes: at least 460 tokens
    static let messages: JSONValue = [["role": "user", "content": .string(prompt)]]

    /// Each surface, whole or streamed, with the fallback's answer in the matching shape.
    static let requests: [(path: String, body: JSONValue, stream: Bool)] = [
        ("/v1/chat/completions", ["model": "light", "messages": messages], false),
        ("/v1/chat/completions", ["model": "light", "stream": true, "messages": messages], true),
        ("/v1/messages", ["model": "light", "max_tokens": 100, "stream": true, "messages": messages], true),
        ("/v1/responses", ["model": "light", "input": .string(prompt)], false),
    ]

    static func post(_ gw: ResilienceGateway, _ path: String, _ body: JSONValue, token: String? = nil) async throws -> (status: Int, text: String) {
        let request = HTTPRequest(method: "POST", url: "http://127.0.0.1:\(gw.server.boundPort)\(path)",
                                  headers: ["authorization": "Bearer \(token ?? gw.token)", "content-type": "application/json",
                                            "anthropic-version": "2023-06-01"],
                                  body: body.serializedBytes(),
                                  timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(30), idle: .seconds(30), total: .seconds(60)))
        let response = try await gw.http.stream(request)
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes += chunk }
        return (response.status, String(decoding: bytes, as: UTF8.self))
    }

    /// `up-a` sends no head within the first-byte timeout (1.5 s), `up-b` answers.
    static func withGateway(stream: Bool, _ body: (ResilienceGateway, UpstreamDouble, UpstreamDouble) async throws -> Void) async throws {
        let good = stream ? R.streamedText : R.text
        let a = try UpstreamDouble([.delayed(.seconds(6), good)])
        let b = try UpstreamDouble([good])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"], firstByteSeconds: 1.5)
        do {
            try await body(gw, a, b)
        } catch {
            Issue.record(error)
        }
        await gw.stop()
        await a.stop()
        await b.stop()
    }

    @Test(arguments: 0..<4)
    func anAttemptThatTimedOutAfterItsRequestWentOutIsChargedItsInput(_ index: Int) async throws {
        let (path, body, stream) = Self.requests[index]
        try await Self.withGateway(stream: stream) { gw, a, b in
            let reply = try await Self.post(gw, path, body)
            #expect(reply.status == 200 && reply.text.contains(stream ? " London" : "Galaxy Day"), "the fallback's answer: \(reply.text)")
            #expect(a.requestCount == 1 && b.requestCount == 1)
            let line = await gw.logLines().last ?? [:]
            let attempts = line["attempts"] as? [String] ?? []
            #expect(attempts.first == "up-a/m: 504 upstream_timeout" && attempts.last?.hasPrefix("up-b/m: 200 ok") == true, "\(line)")
            // The timed-out attempt: the prompt's 460 tokens at least, no output, beside the answer's own usage.
            let unusable = line["unusable_input_tokens"] as? Int ?? 0
            #expect(unusable >= 460 && unusable < 600 && line["unusable_output_tokens"] as? Int == 0, "\(line)")
            #expect(line["usage_estimated"] as? Bool == true, "\(line)")
            let answered = line["input_tokens"] as? Int ?? 0
            #expect(stream || answered == 16, "the fallback's reported usage stays the answer's: \(line)")
            let spent = try await ledgerSpend(of: gw.server, until: .now + .seconds(10))
            #expect(spent.requests == 1 && spent.inputTokens == answered + unusable, "\(spent)")
        }
    }

    /// When every attempt times out (two on the one deployment), the failed request is charged each attempt's estimate.
    @Test func aRequestWhoseEveryAttemptTimedOutIsChargedEachAttempt() async throws {
        let a = try UpstreamDouble([.delayed(.seconds(6), R.text)])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL)], tier: ["up-a/m"], resilience: #"{"max_attempts":2,"backoff":{"initial_ms":10,"max_ms":20}}"#,
                                       firstByteSeconds: 1)
        let reply = try await Self.post(gw, "/v1/chat/completions", ["model": "light", "messages": Self.messages])
        #expect(reply.status == 504, "\(reply.text)")
        #expect(a.requestCount == 2)
        let line = await gw.logLines().last ?? [:]
        let unusable = line["unusable_input_tokens"] as? Int ?? 0
        #expect(unusable >= 2 * 460 && line["input_tokens"] == nil && line["usage_estimated"] as? Bool == true, "\(line)")
        let spent = try await ledgerSpend(of: gw.server, until: .now + .seconds(10))
        #expect(spent.requests == 1 && spent.inputTokens == unusable, "\(spent)")
        await gw.stop()
        await a.stop()
    }

    /// What was charged counts against the token's limits: with `tokens_per_minute` at 400, a request whose first attempt
    /// timed out (then answered with 379 tokens by the fallback) uses the minute up, and the next one is refused.
    @Test func theChargeCountsAgainstTheTokensLimit() async throws {
        try await Self.withGateway(stream: false) { gw, a, b in
            let limited = try gw.server.services.tokens.create(name: "limited", limits: TokenLimits(tokensPerMinute: 400)).token
            let body: JSONValue = ["model": "light", "messages": Self.messages]
            let first = try await Self.post(gw, "/v1/chat/completions", body, token: limited)
            #expect(first.status == 200, "\(first.text)")
            _ = try await ledgerSpend(of: gw.server, until: .now + .seconds(10))
            let next = try await Self.post(gw, "/v1/chat/completions", body, token: limited)
            #expect(next.status == 429, "\(next.text)")
            #expect(a.requestCount == 1 && b.requestCount == 1, "the next request never reached an upstream")
        }
    }

    /// An agent run's model call: each deployment that timed out gets a call row of its own, at its own price (decision
    /// 0123's rows for failed attempts), and the run row holds them.
    @Test func anAgentRunsTimedOutCallsAreChargedUnderTheirDeployments() async throws {
        let h = try AgentGatewayHarness(skills: [], upstream: AgentUpstream(tool: "none", hang: true), lightFallback: true, firstByteSeconds: 1)
        _ = try await h.post("/v1/agent", ["model": "light", "messages": Self.messages])
        let spent = try await ledgerSpend(of: h.gateway, until: .now + .seconds(10))
        let rows = try h.gateway.services.tokens.store.usageReport(since: Date(timeIntervalSince1970: 0), by: .model)
        await h.stop()
        let log = try #require(await h.logLines().last)
        let unusable = log["unusable_input_tokens"]?.intValue ?? 0
        #expect(unusable >= 2 * 460 && log["usage_estimated"]?.boolValue == true, "\(log)")
        #expect(spent.inputTokens == unusable, "\(spent)")
        let native = try #require(rows.first { $0.key == "up/light-native" }, "\(rows)")
        let fallback = try #require(rows.first { $0.key == "up/light-fallback" }, "\(rows)")
        #expect(native.inputTokens >= 460 && fallback.inputTokens >= 460 && native.outputTokens == 0, "\(rows)")
        // Each at its own price: 1,000 and 3,000 US dollars per million tokens.
        #expect(native.costMicrodollars == Int64(native.inputTokens) * 1_000 && fallback.costMicrodollars == Int64(fallback.inputTokens) * 3_000,
                "\(rows)")
    }
}
