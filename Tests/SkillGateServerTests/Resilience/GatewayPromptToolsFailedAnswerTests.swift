import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// A prompt-tools model (no native tool calling) that writes a `<tool_call>` the gateway cannot read, through the real
/// gateway (decision 0120), over upstream doubles speaking the OpenAI Chat wire format as a text-only model answers:
/// the malformed call is tried again before the client sees anything, on every client surface, whole and streamed;
/// when every attempt ends so, the client gets a 502 in its own error shape saying what to do; a fallback deployment
/// answers instead and the failing one is not cooled down; once text went out, the stream ends with the surface's
/// error event.
@Suite(.serialized) struct GatewayPromptToolsFailedAnswerTests {
    typealias Surface = GatewayFailedAnswerTests.Surface

    /// A broken call: the arguments' object never closes.
    static let malformedText = "<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Paris\"\n</tool_call>"
    static let goodText = "<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
    static let usage: JSONValue = ["prompt_tokens": 412, "completion_tokens": 31, "total_tokens": 443]

    /// A whole Chat Completions answer of a text-only model whose text is `text`.
    static func whole(_ text: String) -> UpstreamDouble.Reply {
        let body: JSONValue = ["id": "chatcmpl-pt1", "object": "chat.completion", "created": 1_733_500_000, "model": "qwen2.5-7b-instruct",
                               "choices": [["index": 0, "message": ["role": "assistant", "content": .string(text)], "finish_reason": "stop"]],
                               "usage": usage]
        return .json(status: 200, body: body.serializedBytes(), headers: [:])
    }

    /// The same answer streamed: the role chunk, `pieces` of text, the finish, the usage chunk, `[DONE]`.
    static func streamed(_ pieces: [String]) -> UpstreamDouble.Reply {
        func chunk(_ delta: JSONValue, finish: JSONValue = .null) -> JSONValue {
            ["id": "chatcmpl-pt1", "object": "chat.completion.chunk", "created": 1_733_500_000, "model": "qwen2.5-7b-instruct",
             "choices": [["index": 0, "delta": delta, "finish_reason": finish]]]
        }
        var chunks = [chunk(["role": "assistant", "content": ""])] + pieces.map { chunk(["content": .string($0)]) }
        chunks.append(chunk([:], finish: "stop"))
        chunks.append(["id": "chatcmpl-pt1", "object": "chat.completion.chunk", "created": 1_733_500_000, "model": "qwen2.5-7b-instruct",
                       "choices": [], "usage": usage])
        return .sse(Array((chunks.map { "data: \($0.serialized())\n\n" }.joined() + "data: [DONE]\n\n").utf8))
    }

    static func pieces(_ text: String) -> [String] {
        stride(from: 0, to: text.count, by: 9).map { String(Array(text)[$0..<min($0 + 9, text.count)]) }
    }

    static func malformed(stream: Bool) -> UpstreamDouble.Reply { stream ? streamed(pieces(malformedText)) : whole(malformedText) }
    static func good(stream: Bool) -> UpstreamDouble.Reply { stream ? streamed(pieces(goodText)) : whole(goodText) }

    /// Runs `body` with a gateway whose light tier is `up-a` (and `up-b` when given), both prompt-tools models.
    static func withGateway(a: [UpstreamDouble.Reply], b: [UpstreamDouble.Reply]? = nil, resilience: String = "{}",
                            _ body: (ResilienceGateway, UpstreamDouble, UpstreamDouble?) async throws -> Void) async throws {
        try await GatewayFailedAnswerTests.withGateway(a: a, b: b, resilience: resilience, wireFormat: "openai-chat", tools: "prompt", body)
    }

    @Test(arguments: Surface.allCases, [false, true])
    func aMalformedCallIsTriedAgainAndTheClientGetsTheGoodOne(_ surface: Surface, _ stream: Bool) async throws {
        try await Self.withGateway(a: [Self.malformed(stream: stream), Self.good(stream: stream)]) { gw, da, _ in
            let reply = try await GatewayFailedAnswerTests.send(gw, surface, stream: stream)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.text.contains("weather") && reply.text.contains("Paris"), "the good answer's call: \(reply.text)")
            #expect(!reply.text.contains("malformed") && !reply.text.contains("tool_call>"), "\(reply.text)")
            #expect(da.requestCount == 2)
            let line = await gw.logLines().last ?? [:]
            let attempts = line["attempts"] as? [String] ?? []
            #expect(attempts.first == "up-a/m: 502 upstream_error (malformed_tool_call)" && attempts.count == 2
                        && attempts.last?.hasPrefix("up-a/m: 200 ok") == true, "\(line)")
            if stream {
                // Given up at the call, before the usage chunk: estimated, and the line says so.
                #expect((line["unusable_input_tokens"] as? Int ?? 0) > 0 && line["usage_estimated"] as? Bool == true, "\(line)")
            } else {
                #expect(line["unusable_input_tokens"] as? Int == 412 && line["unusable_output_tokens"] as? Int == 31, "\(line)")
            }
        }
    }

    @Test(arguments: Surface.allCases, [false, true])
    func whenEveryAttemptIsMalformedTheClientGetsA502InItsOwnShape(_ surface: Surface, _ stream: Bool) async throws {
        try await Self.withGateway(a: [Self.malformed(stream: stream)], resilience: #"{"max_attempts":2}"#) { gw, da, _ in
            let reply = try await GatewayFailedAnswerTests.send(gw, surface, stream: stream)
            #expect(da.requestCount == 2)
            try GatewayFailedAnswerTests.expectEveryAttemptFailed(reply, surface, code: "malformed_tool_call",
                                                                  saying: ["<tool_call>", "Retry the request", "native tool calling"])
            let line = await gw.logLines().last ?? [:]
            #expect(line["status"] as? Int == 502 && (line["unusable_input_tokens"] as? Int ?? 0) > 0, "\(line)")
            if !stream { #expect(line["unusable_input_tokens"] as? Int == 2 * 412, "\(line)") }
        }
    }

    @Test(arguments: [false, true])
    func aFallbackDeploymentAnswersAndTheFailingOneIsNotCooledDown(_ stream: Bool) async throws {
        try await Self.withGateway(a: [Self.malformed(stream: stream)], b: [Self.good(stream: stream)],
                                   resilience: #"{"cooldown":{"after_failures":1,"seconds":600}}"#) { gw, da, db in
            for _ in 0..<3 {
                let reply = try await GatewayFailedAnswerTests.send(gw, .chat, stream: stream)
                #expect(reply.status == 200 && reply.text.contains("Paris"), "\(reply.text)")
            }
            #expect(da.requestCount == 3, "up-a is tried first every time: a malformed call does not cool it down")
            #expect(db?.requestCount == 3)
            let admin = try gw.server.services.tokens.create(name: "console", admin: true).token
            let listed = try await gw.http.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(gw.server.boundPort)/admin/api/cooldowns",
                                                            headers: ["authorization": "Bearer \(admin)"]))
            let rows = (try JSONSerialization.jsonObject(with: Data(listed.body)) as? [String: Any])?["data"] as? [[String: Any]] ?? []
            let row = rows.first { $0["model"] as? String == "up-a/m" }
            #expect(row == nil || (row?["cooling_down"] as? Bool == false && row?["consecutive_failures"] as? Int == 0), "\(rows)")
        }
    }

    /// Once the answer's text went out, nothing is retried: the stream ends with the surface's error event.
    @Test(arguments: Surface.allCases)
    func afterTextWentOutTheStreamEndsWithTheSurfacesErrorEvent(_ surface: Surface) async throws {
        let reply = Self.streamed(["Let me look that up.\n"] + Self.pieces(Self.malformedText))
        try await Self.withGateway(a: [reply, Self.good(stream: true)]) { gw, da, _ in
            let reply = try await GatewayFailedAnswerTests.send(gw, surface, stream: true)
            #expect(reply.status == 200)
            #expect(reply.text.contains("Let me look that up."), "\(reply.text)")
            switch surface {
            case .chat: #expect(reply.text.contains(#""code":"malformed_tool_call""#), "\(reply.text)")
            case .messages: #expect(reply.text.contains("event: error") && reply.text.contains("<tool_call>"), "\(reply.text)")
            case .responses: #expect(reply.text.contains("response.failed") && reply.text.contains(#""code":"malformed_tool_call""#), "\(reply.text)")
            }
            #expect(da.requestCount == 1, "nothing was retried")
            let line = await gw.logLines().last ?? [:]
            #expect(line["attempts"] as? [String] == ["up-a/m: 200, then 502 upstream_error mid-stream (malformed_tool_call)"], "\(line)")
        }
    }
}

extension GatewayPromptToolsFailedAnswerTests {
    /// A pool of two keys while a call fails (decisions 0110, 0117, 0120): the first key is rate-limited, the second
    /// key's answer is a malformed call, the retry (the first key cooling down) gets the good call. Each attempt is logged
    /// with its key, the failed answer's tokens are counted once, and the failed answer cools neither the key nor the
    /// deployment.
    @Test func aKeyRotationDuringRetriesCountsEachAttemptOnce() async throws {
        let keyA = GatewayKeyPoolTests.keyA, keyB = GatewayKeyPoolTests.keyB
        let up = try UpstreamDouble([Self.malformed(stream: false), Self.good(stream: false)],
                                    byKey: [keyA: OpenAIRecordings.rateLimited(retryAfter: "30")])
        let gw = try ResilienceGateway(providers: [("up-a", up.baseURL)], tier: ["up-a/m"],
                                       resilience: #"{"cooldown":{"after_failures":1,"seconds":60}}"#, keys: GatewayKeyPoolTests.keys,
                                       wireFormats: ["up-a": "openai-chat"], toolModes: ["up-a": "prompt"])
        let reply = try await GatewayFailedAnswerTests.send(gw, .chat, stream: false)
        #expect(reply.status == 200 && reply.text.contains("weather") && reply.text.contains("Paris"), "\(reply.text)")
        let line = await gw.logLines().last ?? [:]
        let attempts = line["attempts"] as? [String] ?? []
        let keys = up.requests.map { String(($0.headers["authorization"] ?? "").dropFirst("Bearer ".count)) }
        // Whichever key goes first: the rate-limited key once, the other key twice (the malformed call, then the good one).
        #expect(keys.filter { $0 == keyA }.count == 1 && keys.filter { $0 == keyB }.count == 2, "\(keys.count) calls")
        #expect(attempts.filter { $0.hasPrefix("up-a/m [UP_KEY]: 429") }.count == 1
                    && attempts.filter { $0 == "up-a/m [UP_KEY_2]: 502 upstream_error (malformed_tool_call)" }.count == 1
                    && attempts.last?.hasPrefix("up-a/m [UP_KEY_2]: 200 ok") == true, "\(attempts)")
        #expect(line["unusable_input_tokens"] as? Int == 412 && line["input_tokens"] as? Int == 412, "counted once each: \(line)")
        #expect(gw.server.services.executor.health.snapshot("up-a/m").consecutiveFailures == 0, "neither failure is the deployment's")
        await gw.stop()
        await up.stop()
    }
}
