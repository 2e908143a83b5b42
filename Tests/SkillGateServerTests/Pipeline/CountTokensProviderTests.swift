import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
import SkillGateState
@testable import SkillGateServer

/// `POST /v1/messages/count_tokens` (decision 0132) and `POST /v1/responses/input_tokens` (decision 0136) when the
/// deployment the request would go to first counts itself: the provider's own count, asked at its format's count
/// endpoint (Anthropic's `/messages/count_tokens`, Gemini's `:countTokens`, OpenAI's `/responses/input_tokens`) with only
/// the members that endpoint takes; when that count fails, the gateway's estimate, with a note in the log; and a
/// deployment that does not count (an OpenAI-compatible API, `count_tokens: false`) is never asked. The upstream doubles
/// answer in each provider's own shapes.
@Suite struct CountTokensProviderTests {
    /// A provider format, with its count endpoint's answers.
    enum Format: String, CaseIterable, CustomTestStringConvertible {
        case anthropic = "anthropic-messages", gemini, openai = "openai-chat"

        var testDescription: String { rawValue }

        /// The count, as the provider answers it.
        var counted: UpstreamDouble.Reply {
            switch self {
            case .anthropic: .json(status: 200, body: Array(#"{"input_tokens":1234}"#.utf8), headers: [:])
            case .gemini: .json(status: 200, body: Array(#"{"totalTokens":1234,"promptTokensDetails":[{"modality":"TEXT","tokenCount":1234}]}"#.utf8), headers: [:])
            case .openai: .json(status: 200, body: Array(#"{"object":"response.input_tokens","input_tokens":1234}"#.utf8), headers: [:])
            }
        }

        /// A refusal of the count, as the provider words it.
        var failed: UpstreamDouble.Reply {
            switch self {
            case .anthropic: .json(status: 529, body: Array(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#.utf8), headers: [:])
            case .gemini: .json(status: 503, body: Array(#"{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}"#.utf8), headers: [:])
            case .openai: OpenAIRecordings.serverError
            }
        }

        /// The path the count is asked at (the double's base URL ends in `/v1`).
        var countPath: String {
            switch self {
            case .anthropic: "/v1/messages/count_tokens"
            case .gemini: "/v1/models/m:countTokens"
            case .openai: "/v1/responses/input_tokens"
            }
        }

        /// Checks the count request's body: only the members the endpoint takes.
        func expectCountBody(_ seen: UpstreamDouble.Seen) throws {
            let sent = try #require(seen.json)
            switch self {
            case .anthropic:
                #expect(Set(sent.keys) == ["model", "system", "messages", "tools"], "only what the count endpoint takes: \(sent.keys.sorted())")
                #expect(sent["model"] as? String == "m" && seen.headers["anthropic-version"] != nil)
            case .gemini:
                #expect(Set(sent.keys) == ["generateContentRequest"], "\(sent.keys.sorted())")
                let inner = try #require(sent["generateContentRequest"] as? [String: Any])
                #expect(Set(inner.keys) == ["model", "contents", "systemInstruction", "tools"], "no generationConfig: \(inner.keys.sorted())")
                #expect(inner["model"] as? String == "models/m")
            case .openai:
                #expect(Set(sent.keys) == ["model", "input", "tools"], "only what the count endpoint takes: \(sent.keys.sorted())")
                #expect(sent["model"] as? String == "m")
                let tool = try #require((sent["tools"] as? [[String: Any]])?.first)
                #expect(tool["type"] as? String == "function" && tool["name"] as? String == "read_file" && tool["strict"] as? Bool == false
                        && tool["parameters"] != nil, "a Responses function tool: \(tool)")
                let input = try #require(sent["input"] as? [[String: Any]])
                #expect(input.map { $0["role"] as? String } == ["system", "user"], "\(input)")
            }
        }
    }

    /// The gateway's two count endpoints, each with a request as its client sends it (with members that only shape an
    /// answer, which no count endpoint takes).
    enum Endpoint: String, CaseIterable, CustomTestStringConvertible {
        case messages = "/v1/messages/count_tokens?beta=true", responses = "/v1/responses/input_tokens"

        var testDescription: String { rawValue }

        var body: String {
            switch self {
            case .messages: #"""
                {"model":"light","system":"You are a coding agent.","max_tokens":1024,"temperature":0.2,"stop_sequences":["END"],
                 "metadata":{"user_id":"u1"},
                 "tools":[{"name":"read_file","description":"Read a file","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}],
                 "messages":[{"role":"user","content":"Summarise README.md"}]}
                """#
            case .responses: #"""
                {"model":"light","instructions":"You are a coding agent.","max_output_tokens":1024,"temperature":0.2,"store":false,
                 "tools":[{"type":"function","name":"read_file","description":"Read a file","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}],
                 "input":"Summarise README.md"}
                """#
            }
        }

        /// The answer for `tokens`, in the endpoint's shape.
        func answer(_ tokens: Int) -> JSONValue {
            switch self {
            case .messages: ["input_tokens": .int(tokens)]
            case .responses: ["object": "response.input_tokens", "input_tokens": .int(tokens)]
            }
        }

        /// The gateway's estimate of `body`.
        var estimate: Int {
            get throws {
                switch self {
                case .messages: ContextTokenEstimate.inputTokens(of: try AnthropicMessagesFormat.decodeCountTokensRequest(Array(body.utf8)))
                case .responses: ContextTokenEstimate.inputTokens(of: try OpenAIResponsesFormat.decodeInboundRequest(Array(body.utf8)).request)
                }
            }
        }
    }

    static func count(_ gw: ResilienceGateway, _ endpoint: Endpoint) async throws -> (status: Int, headers: HTTPHeaders, json: JSONValue) {
        let r = try await gw.http.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(gw.server.boundPort)\(endpoint.rawValue)",
                                                   headers: ["authorization": "Bearer \(gw.token)", "content-type": "application/json",
                                                             "anthropic-version": "2023-06-01"],
                                                   body: Array(endpoint.body.utf8)))
        return (r.status, r.headers, (try? JSONValue.parse(r.body)) ?? .null)
    }

    /// A gateway whose light tier is `up-a/m`, of `wireFormat`, in front of a double answering `reply`.
    static func withGateway(_ reply: UpstreamDouble.Reply, wireFormat: String, countTokens: Bool? = nil, providerSettings: String? = nil,
                            _ body: (ResilienceGateway, UpstreamDouble) async throws -> Void) async throws {
        let double = try UpstreamDouble([reply])
        let gw = try ResilienceGateway(providers: [("up-a", double.baseURL)], tier: ["up-a/m"], wireFormats: ["up-a": wireFormat],
                                       countTokens: countTokens.map { ["up-a": $0] } ?? [:], providerSettings: providerSettings)
        do {
            try await body(gw, double)
        } catch {
            Issue.record(error)
        }
        await gw.stop()
        await double.stop()
    }

    /// Each format's deployment counts itself for either endpoint (OpenAI's only because its file says it has the count,
    /// as `Providers/openai.json` does): the double's count comes back in the endpoint's shape, marked `provider`, asked at
    /// the format's count endpoint with only the members it takes, and the log line names the deployment.
    @Test(arguments: Format.allCases, Endpoint.allCases)
    func eachFormatsDeploymentCountsItself(_ format: Format, _ endpoint: Endpoint) async throws {
        try await Self.withGateway(format.counted, wireFormat: format.rawValue, countTokens: format == .openai ? true : nil) { gw, double in
            let r = try await Self.count(gw, endpoint)
            #expect(r.status == 200 && r.json == endpoint.answer(1234) && r.headers["x-skillgate-token-count"] == "provider", "\(r.json)")
            let seen = try #require(double.requests.first)
            #expect(double.requestCount == 1 && seen.path == format.countPath, "\(seen.path)")
            try format.expectCountBody(seen)
            let line = await gw.logLines().last ?? [:]
            #expect(line["model"] as? String == "up-a/m" && line["status"] as? Int == 200 && line["surface"] == nil, "\(line)")
        }
    }

    /// A count the provider refuses (overloaded, a server error) is answered with the estimate, and the log says why.
    @Test(arguments: Format.allCases, Endpoint.allCases)
    func aFailedCountIsAnsweredWithTheEstimate(_ format: Format, _ endpoint: Endpoint) async throws {
        try await Self.withGateway(format.failed, wireFormat: format.rawValue, countTokens: format == .openai ? true : nil) { gw, double in
            let r = try await Self.count(gw, endpoint)
            let estimate = try endpoint.estimate
            #expect(r.status == 200 && r.headers["x-skillgate-token-count"] == "estimated", "\(r.json)")
            #expect(r.json == endpoint.answer(estimate), "the estimate, with the tool-use prompt: \(r.json)")
            #expect(double.requestCount == 1)
            let line = await gw.logLines().last ?? [:]
            let attempts = line["attempts"] as? [String] ?? []
            #expect(attempts.count == 1 && attempts.first?.hasPrefix("up-a/m: token count failed (5") == true
                        && attempts.first?.hasSuffix("; estimated") == true, "\(line)")
            #expect(line["model"] == nil, "no deployment answered: \(line)")
        }
    }

    /// When the first deployment's count fails, the plan's next deployment counts (decision 0146's "Not done" of
    /// decision 0136: only the first was asked, and the estimate answered): its count, the log naming it, and the first's
    /// failure noted.
    @Test(arguments: Endpoint.allCases)
    func aFallbackDeploymentCountsWhenTheFirstCannot(_ endpoint: Endpoint) async throws {
        let failing = try UpstreamDouble([Format.anthropic.failed])
        let counting = try UpstreamDouble([Format.anthropic.counted])
        let gw = try ResilienceGateway(providers: [("up-a", failing.baseURL), ("up-b", counting.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       wireFormats: ["up-a": Format.anthropic.rawValue, "up-b": Format.anthropic.rawValue])
        let r = try await Self.count(gw, endpoint)
        let line = await gw.logLines().last ?? [:]
        await gw.stop()
        await failing.stop()
        await counting.stop()
        #expect(r.headers["x-skillgate-token-count"] == "provider" && r.json == endpoint.answer(1234), "\(r.json)")
        #expect(failing.requestCount == 1 && counting.requestCount == 1)
        #expect(line["model"] as? String == "up-b/m", "\(line)")
        #expect((line["attempts"] as? [String])?.first?.hasPrefix("up-a/m: token count failed (5") == true, "\(line)")
    }

    /// Who does not count is not asked: an OpenAI-compatible API (the OpenAI format's default: Groq, vLLM and the others
    /// have no `/responses/input_tokens`), a provider whose file says `count_tokens: false`, and one the config turns off.
    @Test(arguments: [
        ("openai-chat", nil, nil),
        ("anthropic-messages", false, nil),
        ("gemini", nil, #"{"up-a":{"count_tokens":false}}"#),
    ] as [(String, Bool?, String?)], Endpoint.allCases)
    func aDeploymentThatDoesNotCountIsNotAsked(_ setting: (String, Bool?, String?), _ endpoint: Endpoint) async throws {
        let (format, file, config) = setting
        let unused = UpstreamDouble.Reply.json(status: 500, body: Array(#"{"error":{"message":"asked"}}"#.utf8), headers: [:])
        try await Self.withGateway(unused, wireFormat: format, countTokens: file, providerSettings: config) { gw, double in
            let r = try await Self.count(gw, endpoint)
            let estimate = try endpoint.estimate
            #expect(r.status == 200 && r.headers["x-skillgate-token-count"] == "estimated" && r.json == endpoint.answer(estimate), "\(r.json)")
            #expect(double.requestCount == 0, "\(double.requests.map(\.path))")
            let line = await gw.logLines().last ?? [:]
            #expect(line["attempts"] == nil && line["model"] == nil, "\(line)")
        }
    }

    /// A gateway in front of one OpenAI deployment that counts (its Responses count), at $1,000 a million tokens each
    /// way, answering `replies` in order (a chat answer costs $0.379), with the test token's day budget $0.000001: one
    /// answer uses it up. A day's budget, not a minute's requests, so a loaded run cannot straddle its window.
    static func withPricedGateway(_ replies: [UpstreamDouble.Reply], _ body: (ResilienceGateway, UpstreamDouble) async throws -> Void) async throws {
        let double = try UpstreamDouble(replies)
        let gw = try ResilienceGateway(providers: [("up-a", double.baseURL)], tier: ["up-a/m"], countTokens: ["up-a": true],
                                       modelPrice: #"{"input_per_mtok":1000.0,"output_per_mtok":1000.0}"#)
        do {
            _ = try gw.server.services.tokens.updateLimits(name: "resilience-test", TokenLimits(budgetUSDPerDay: 0.000001))
            try await body(gw, double)
        } catch {
            Issue.record(error)
        }
        await gw.stop()
        await double.stop()
    }

    /// A token over one of its limits gets the estimate without a provider call (decision 0146): counts take no slot and
    /// are never charged, but a token cut off by its budget or its minute's requests must not go on calling the
    /// provider's count endpoint. Before, an attacker's token over its limits made 100 provider counts.
    @Test(arguments: Endpoint.allCases)
    func aTokenOverItsLimitsIsEstimatedWithoutAskingTheProvider(_ endpoint: Endpoint) async throws {
        try await Self.withPricedGateway([Format.openai.counted, OpenAIRecordings.text, Format.openai.counted]) { gw, double in
            let within = try await Self.count(gw, endpoint)
            let chat = try await gw.send(ResilienceGateway.body(model: "light"))  // uses the day's budget up
            let over = try await Self.count(gw, endpoint)
            #expect(chat.status == 200)
            #expect(within.headers["x-skillgate-token-count"] == "provider" && within.json == endpoint.answer(1234))
            #expect(over.status == 200 && over.headers["x-skillgate-token-count"] == "estimated", "\(over.json)")
            #expect(over.json == endpoint.answer(try endpoint.estimate))
            #expect(double.requests.filter { $0.path == Format.openai.countPath }.count == 1, "the provider was asked for a token over its limits")
            let line = await gw.logLines(atLeast: 3).last ?? [:]
            #expect((line["attempts"] as? [String])?.contains { $0.contains("budget_usd_per_day") } == true, "\(line)")
        }
    }

    /// The same on a gateway that has not seen the token yet (after a restart, or another instance on the same state):
    /// its spend is read from the ledger before the count is judged. Before, such a gateway asked the provider for a
    /// token over its limits every time (an attack round's five of five).
    @Test func aTokenOverItsLimitsIsJudgedOnTheLedgerByAGatewayThatHasNotSeenIt() async throws {
        try await Self.withPricedGateway([OpenAIRecordings.text, Format.openai.counted]) { gw, double in
            let chat = try await gw.send(ResilienceGateway.body(model: "light"))  // the day's budget, used up through this gateway
            // Its ledger row is queued as its answer goes out; under a loaded parallel run, wait until it is written.
            let store = gw.server.services.tokens.store
            let tokenId = try #require(gw.server.services.tokens.authenticate(gw.token)?.id)
            let day = LimitWindows.dayStart(LimitWindows.day(Date()))
            for _ in 0..<200 where (try? store.usageSummary(tokenId: tokenId, since: day))?.costMicrodollars ?? 0 < 1 {
                await gw.server.flushLedger()
                try await Task.sleep(for: .milliseconds(25))
            }
            let other = try GatewayServer(config: try GatewayConfig.load(path: gw.directory + "/skillgate.json"), logFD: -1)
            try other.start()
            let before = double.requestCount
            let r = try await gw.http.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(other.boundPort)\(Endpoint.messages.rawValue)",
                                                       headers: ["authorization": "Bearer \(gw.token)", "content-type": "application/json",
                                                                 "anthropic-version": "2023-06-01"],
                                                       body: Array(Endpoint.messages.body.utf8)))
            await other.shutdown()
            #expect(chat.status == 200)
            #expect(r.status == 200 && r.headers["x-skillgate-token-count"] == "estimated", "\(String(decoding: r.body, as: UTF8.self))")
            #expect(double.requestCount == before, "the other gateway asked the provider for a token over its limits")
        }
    }

    /// `providers.<id>.count_tokens: true` in the config turns the count on for an OpenAI-format provider whose file does
    /// not declare it (a server that has OpenAI's count, behind a base URL of the operator's).
    @Test func theConfigTurnsTheCountOn() async throws {
        try await Self.withGateway(Format.openai.counted, wireFormat: "openai-chat", providerSettings: #"{"up-a":{"count_tokens":true}}"#) { gw, double in
            let r = try await Self.count(gw, .responses)
            #expect(r.status == 200 && r.json == Endpoint.responses.answer(1234) && r.headers["x-skillgate-token-count"] == "provider", "\(r.json)")
            #expect(double.requests.map(\.path) == [Format.openai.countPath])
        }
    }
}
