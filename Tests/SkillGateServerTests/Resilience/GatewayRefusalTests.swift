import Foundation
import Testing
import SkillGateHTTP
import SkillGateTestSupport
@testable import SkillGateServer

/// A provider that refuses the gateway's key or the catalog's model id, through the real gateway against upstream
/// doubles speaking each wire format (decision 0106): the next deployment answers, and the refusing one cools down.
@Suite(.serialized) struct GatewayRefusalTests {
    typealias R = OpenAIRecordings
    typealias Refused = RefusalRecordings

    /// Runs `body` with a gateway whose light tier is `up-a/m` (speaking `format`), then `up-b/m` (OpenAI).
    func withGateway(a: [UpstreamDouble.Reply], format: String = "openai-chat", b: [UpstreamDouble.Reply] = [R.text],
                     tier: [String] = ["up-a/m", "up-b/m"], resilience: String = "{}",
                     _ body: (ResilienceGateway, UpstreamDouble, UpstreamDouble) async throws -> Void) async throws {
        try await ResilienceGateway.withTwoUpstreams(a: a, b: b, tier: tier, resilience: resilience, formatA: format, body)
    }

    static let refusals: [(String, String, UpstreamDouble.Reply, String)] = [
        ("OpenAI 401", "openai-chat", Refused.openAIBadKey, "up-a/m: 502 upstream_error"),
        ("OpenAI 403", "openai-chat", Refused.openAIForbidden, "up-a/m: 502 upstream_error"),
        ("OpenAI 404 model_not_found", "openai-chat", Refused.openAIRetiredModel, "up-a/m: 404 not_found"),
        ("Anthropic 401", "anthropic-messages", Refused.anthropicBadKey, "up-a/m: 502 upstream_error"),
        ("Anthropic 404 not_found_error", "anthropic-messages", Refused.anthropicUnknownModel, "up-a/m: 404 not_found"),
        ("Gemini API_KEY_INVALID", "gemini", Refused.geminiBadKey, "up-a/m: 502 upstream_error"),
        ("Gemini 404 NOT_FOUND", "gemini", Refused.geminiUnknownModel, "up-a/m: 404 not_found"),
    ]

    @Test(arguments: 0..<7)
    func aRefusedKeyOrModelFallsBackToTheNextDeployment(_ i: Int) async throws {
        let (name, format, reply, logged) = Self.refusals[i]
        try await withGateway(a: [reply], format: format) { gw, a, b in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200, "\(name): \(String(decoding: r.body, as: UTF8.self))")
            #expect(r.headers["x-skillgate-provider"] == "up-b", "\(name)")
            #expect(a.requestCount == 1 && b.requestCount == 1, "\(name): one call each")
            let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
            #expect(attempts.count == 2 && attempts[0].hasPrefix(logged) && attempts[1] == "up-b/m: 200 ok", "\(name): \(attempts)")
        }
    }

    @Test func aStreamFallsBackFromARefusedKey() async throws {
        try await withGateway(a: [Refused.openAIBadKey], b: [R.streamedText]) { gw, a, b in
            let (status, text) = try await gw.stream(ResilienceGateway.body(model: "light", stream: true))
            #expect(status == 200 && text.contains("capital") && text.hasSuffix("data: [DONE]\n\n"), "\(text.suffix(300))")
            #expect(a.requestCount == 1 && b.requestCount == 1)
        }
    }

    /// The attack's finding: 10 of 10 requests got 502 from a tier whose second deployment was healthy, and the refusing
    /// one never cooled down. Now each refusal counts against its health like a 5xx.
    @Test(arguments: ["openai-chat", "anthropic-messages"])
    func aDeploymentThatKeepsRefusingCoolsDown(_ format: String) async throws {
        let refusal = format == "openai-chat" ? Refused.openAIBadKey : Refused.anthropicBadKey
        try await withGateway(a: [refusal], format: format, resilience: #"{"cooldown":{"after_failures":2,"seconds":60}}"#) { gw, a, b in
            for _ in 0..<5 {
                let r = try await gw.send(ResilienceGateway.body(model: "light"))
                #expect(r.status == 200 && r.headers["x-skillgate-provider"] == "up-b")
            }
            #expect(a.requestCount == 2, "up-a cooled down after its second refusal: \(a.requestCount) calls")
            #expect(b.requestCount == 5)
            let attempts = await gw.logLines(atLeast: 5).last?["attempts"] as? [String] ?? []
            #expect(attempts.first?.hasPrefix("up-a/m: skipped (cooling down") == true, "\(attempts)")
        }
    }

    @Test func whenNoDeploymentIsLeftTheClientHearsWhichProviderRefusedAndWhatTheOperatorShouldDo() async throws {
        try await withGateway(a: [Refused.openAIBadKey], tier: ["up-a/m"]) { gw, a, _ in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            let text = String(decoding: r.body, as: UTF8.self)
            #expect(r.status == 502, "\(text)")
            #expect(text.contains("up-a rejected SkillGate's API key") && text.contains("skillgate keys set"), "\(text)")
            #expect(a.requestCount == 1, "a refusal is not retried on the same deployment: \(a.requestCount) calls")
        }
    }

    /// The client and the operator are told which key to replace, by its name in the key store (the pool member that
    /// was refused last), never by the provider id the CLI refuses, and never by its secret.
    @Test func theRefusedKeyIsNamedByItsKeyStoreNameAndItsSecretIsNotShown() async throws {
        let secrets = [("UP_KEY", "sk-refused-one-0123456789abcdef"), ("UP_KEY_2", "sk-refused-two-0123456789abcdef")]
        let a = try UpstreamDouble([Refused.openAIBadKey])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL)], tier: ["up-a/m"], keys: secrets)
        let r = try await gw.send(ResilienceGateway.body(model: "light"))
        let text = String(decoding: r.body, as: UTF8.self)
        #expect(r.status == 502, "\(text)")
        #expect(a.requestCount == 2, "each key of the pool is tried once")
        let last = String((a.requests.last?.headers["authorization"] ?? "").dropFirst("Bearer ".count))
        let lastName = secrets.first { $0.1 == last }?.0 ?? "?"
        #expect(text.contains("skillgate keys set \(lastName)`"), "names the key refused last (\(lastName)): \(text)")
        #expect(!text.contains("keys set up-a"), "\(text)")
        #expect(!secrets.contains { text.contains($0.1) }, "no secret in the answer")
        await gw.stop()
        await a.stop()
    }

    /// A 400 the client's own request caused is the same on every deployment: it is passed on, not retried elsewhere.
    @Test func theClientsBadRequestIsStillNotRetriedAcrossDeployments() async throws {
        try await withGateway(a: [Refused.openAIBadInput]) { gw, a, b in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 400, "\(String(decoding: r.body, as: UTF8.self))")
            #expect(a.requestCount == 1 && b.requestCount == 0)
        }
    }
}
