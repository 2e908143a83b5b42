import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// A Gemini answer that ends with `MALFORMED_FUNCTION_CALL` through the real gateway (decision 0117), over upstream
/// doubles sending Gemini's wire format: it is tried again before the client sees anything, on every client surface,
/// whole and streamed; when every attempt ends so, the client gets a 502 in its own error shape saying what to do; a
/// fallback deployment answers instead; the deployment is not cooled down; once text went out, the stream ends with the
/// surface's error event.
///
/// Failed answers: `Tests/Fixtures/gemini/skillgate-*malformed-function-call.*` (written by hand after the documented
/// format, see PROVENANCE). Good answers: the recorded `google-tool-call.json` (a call to `weather`) and
/// `test_google_streaming_tool_call_thought_signature.0.response.sse` (a call to `get_country`).
@Suite(.serialized) struct GatewayFailedAnswerTests {
    static func fixture(_ name: String) -> [UInt8] { RefusalRecordings.fixture("gemini/\(name)") }

    static var malformedWhole: UpstreamDouble.Reply { .json(status: 200, body: fixture("skillgate-malformed-function-call.json"), headers: [:]) }
    static var malformedStream: UpstreamDouble.Reply { .sse(fixture("skillgate-malformed-function-call.sse")) }
    static var goodWhole: UpstreamDouble.Reply { .json(status: 200, body: fixture("google-tool-call.json"), headers: [:]) }
    static var goodStream: UpstreamDouble.Reply { .sse(fixture("test_google_streaming_tool_call_thought_signature.0.response.sse")) }

    /// A streamed fixture's events, each to be written on its own (Google separates them with CRLF CRLF).
    static func writes(_ name: String) -> [[UInt8]] {
        String(decoding: fixture(name), as: UTF8.self)
            .components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }.map { Array(($0 + "\r\n\r\n").utf8) }
    }

    static func malformed(stream: Bool) -> UpstreamDouble.Reply { stream ? malformedStream : malformedWhole }
    static func good(stream: Bool) -> UpstreamDouble.Reply { stream ? goodStream : goodWhole }
    /// The tool the good answer calls.
    static func calledTool(stream: Bool) -> String { stream ? "get_country" : "weather" }

    enum Surface: String, CaseIterable, Sendable {
        case chat = "/v1/chat/completions", messages = "/v1/messages", responses = "/v1/responses"

        func body(stream: Bool) -> [UInt8] {
            let names = ["weather", "get_country"]
            switch self {
            case .chat:
                let tools = names.map { #"{"type":"function","function":{"name":"\#($0)","parameters":{"type":"object","properties":{}}}}"# }
                return Array(#"{"model":"light","stream":\#(stream),"messages":[{"role":"user","content":"Where is Paris?"}],"tools":[\#(tools.joined(separator: ","))]}"#.utf8)
            case .messages:
                let tools = names.map { #"{"name":"\#($0)","input_schema":{"type":"object","properties":{}}}"# }
                return Array(#"{"model":"light","stream":\#(stream),"max_tokens":100,"messages":[{"role":"user","content":"Where is Paris?"}],"tools":[\#(tools.joined(separator: ","))]}"#.utf8)
            case .responses:
                let tools = names.map { #"{"type":"function","name":"\#($0)","parameters":{"type":"object","properties":{}}}"# }
                return Array(#"{"model":"light","stream":\#(stream),"input":"Where is Paris?","tools":[\#(tools.joined(separator: ","))]}"#.utf8)
            }
        }
    }

    /// The client's answer when both of its two attempts failed: a 502 in its surface's own error shape (the OpenAI
    /// shapes with `code` and the provider), whose message counts the attempts and holds every one of `phrases`.
    static func expectEveryAttemptFailed(_ reply: (status: Int, text: String), _ surface: Surface, code: String, saying phrases: [String]) throws {
        #expect(reply.status == 502, "\(reply.text)")
        let body = try JSONValue.parse(reply.text)
        let error = try #require(body["error"])
        let message = error["message"]?.stringValue ?? ""
        #expect(message.contains("2 attempts ended without a usable answer") && phrases.allSatisfy(message.contains), "\(message)")
        switch surface {
        case .chat, .responses:
            #expect(error["type"]?.stringValue == "upstream_error" && error["code"]?.stringValue == code, "\(reply.text)")
            #expect(error["provider"]?.stringValue == "up-a")
        case .messages:
            #expect(body["type"]?.stringValue == "error" && error["type"]?.stringValue == "api_error", "\(reply.text)")
        }
    }

    static func send(_ gw: ResilienceGateway, _ surface: Surface, stream: Bool) async throws -> (status: Int, text: String) {
        let request = HTTPRequest(method: "POST", url: "http://127.0.0.1:\(gw.server.boundPort)\(surface.rawValue)",
                                  headers: ["authorization": "Bearer \(gw.token)", "content-type": "application/json", "anthropic-version": "2023-06-01"],
                                  body: surface.body(stream: stream),
                                  timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(30), idle: .seconds(30), total: .seconds(60)))
        let response = try await gw.http.stream(request)
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes += chunk }
        return (response.status, String(decoding: bytes, as: UTF8.self))
    }

    /// Runs `body` with a gateway whose light tier is `up-a` (and `up-b` when given), both speaking `wireFormat` (Gemini
    /// here) with `tools` (`native`, or `prompt` for the prompt-tools adapter, `GatewayPromptToolsFailedAnswerTests`).
    static func withGateway(a: [UpstreamDouble.Reply], b: [UpstreamDouble.Reply]? = nil, resilience: String = "{}",
                            wireFormat: String = "gemini", tools: String = "native",
                            _ body: (ResilienceGateway, UpstreamDouble, UpstreamDouble?) async throws -> Void) async throws {
        let da = try UpstreamDouble(a)
        let db = try b.map { try UpstreamDouble($0) }
        var providers = [("up-a", da.baseURL)]
        if let db { providers.append(("up-b", db.baseURL)) }
        let gw = try ResilienceGateway(providers: providers, tier: providers.map { "\($0.0)/m" }, resilience: resilience,
                                       wireFormats: ["up-a": wireFormat, "up-b": wireFormat], toolModes: ["up-a": tools, "up-b": tools])
        do {
            try await body(gw, da, db)
        } catch {
            Issue.record(error)
        }
        await gw.stop()
        await da.stop()
        await db?.stop()
    }

    @Test(arguments: Surface.allCases, [false, true])
    func aFailedAnswerIsTriedAgainAndTheClientGetsTheGoodOne(_ surface: Surface, _ stream: Bool) async throws {
        try await Self.withGateway(a: [Self.malformed(stream: stream), Self.good(stream: stream)]) { gw, da, _ in
            let reply = try await Self.send(gw, surface, stream: stream)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.text.contains(Self.calledTool(stream: stream)), "the good answer's call: \(reply.text)")
            #expect(!reply.text.contains("MALFORMED") && !reply.text.contains("malformed"), "\(reply.text)")
            #expect(da.requestCount == 2)
            let line = await gw.logLines().last ?? [:]
            let attempts = line["attempts"] as? [String] ?? []
            #expect(attempts.first == "up-a/m: 502 upstream_error (malformed_function_call)" && attempts.count == 2
                        && attempts.last?.hasPrefix("up-a/m: 200 ok") == true, "\(line)")
            #expect(line["unusable_input_tokens"] as? Int == 2595, "the failed attempt's tokens are counted: \(line)")
        }
    }

    @Test(arguments: Surface.allCases, [false, true])
    func whenEveryAttemptFailsTheClientGetsA502InItsOwnShape(_ surface: Surface, _ stream: Bool) async throws {
        try await Self.withGateway(a: [Self.malformed(stream: stream)], resilience: #"{"max_attempts":2}"#) { gw, da, _ in
            let reply = try await Self.send(gw, surface, stream: stream)
            #expect(da.requestCount == 2)
            try Self.expectEveryAttemptFailed(reply, surface, code: "malformed_function_call",
                                              saying: ["MALFORMED_FUNCTION_CALL", "simplify the tool schemas", "route the scenario to another model"])
            let line = await gw.logLines().last ?? [:]
            #expect(line["status"] as? Int == 502 && line["unusable_input_tokens"] as? Int == 2 * 2595, "\(line)")
        }
    }

    @Test(arguments: [false, true])
    func aFallbackDeploymentAnswersAndTheFailingOneIsNotCooledDown(_ stream: Bool) async throws {
        try await Self.withGateway(a: [Self.malformed(stream: stream)], b: [Self.good(stream: stream)],
                                   resilience: #"{"cooldown":{"after_failures":1,"seconds":600}}"#) { gw, da, db in
            for _ in 0..<3 {
                let reply = try await Self.send(gw, .chat, stream: stream)
                #expect(reply.status == 200 && reply.text.contains(Self.calledTool(stream: stream)), "\(reply.text)")
            }
            #expect(da.requestCount == 3, "up-a is tried first every time: a failed answer does not cool it down")
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
        let events = Self.writes("skillgate-text-then-malformed-function-call.sse")
        try await Self.withGateway(a: [.sseWrites(events, pause: .milliseconds(200)), Self.goodStream]) { gw, da, _ in
            let reply = try await Self.send(gw, surface, stream: true)
            #expect(reply.status == 200)
            #expect(reply.text.contains("Let me look up the country."), "\(reply.text)")
            switch surface {
            case .chat: #expect(reply.text.contains(#""code":"malformed_function_call""#), "\(reply.text)")
            case .messages: #expect(reply.text.contains("event: error") && reply.text.contains("MALFORMED_FUNCTION_CALL"), "\(reply.text)")
            case .responses: #expect(reply.text.contains("response.failed") && reply.text.contains(#""code":"malformed_function_call""#), "\(reply.text)")
            }
            #expect(da.requestCount == 1, "nothing was retried")
            let line = await gw.logLines().last ?? [:]
            #expect(line["attempts"] as? [String] == ["up-a/m: 200, then 502 upstream_error mid-stream (malformed_function_call)"], "\(line)")
        }
    }

    /// A first chunk of metadata only (as Vertex AI sometimes sends) does not commit the stream: the failed answer after
    /// it is tried again before anything goes out, and the prompt tokens the metadata chunk reported are counted
    /// (decision 0123). Before, the metadata chunk committed the stream and the client got the surface's error event.
    @Test(arguments: Surface.allCases)
    func aFailedAnswerAfterAMetadataOnlyChunkIsTriedAgain(_ surface: Surface) async throws {
        let events = Self.writes("skillgate-metadata-then-malformed-function-call.sse")
        try await Self.withGateway(a: [.sseWrites(events, pause: .milliseconds(200)), Self.goodStream]) { gw, da, _ in
            let reply = try await Self.send(gw, surface, stream: true)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.text.contains("get_country"), "the good answer's call: \(reply.text)")
            #expect(!reply.text.contains("MALFORMED") && !reply.text.contains("malformed"), "\(reply.text)")
            #expect(da.requestCount == 2, "the failed answer was tried again")
            let line = await gw.logLines().last ?? [:]
            let attempts = line["attempts"] as? [String] ?? []
            #expect(attempts.first == "up-a/m: 502 upstream_error (malformed_function_call)" && attempts.count == 2, "\(line)")
            #expect(line["unusable_input_tokens"] as? Int == 2595, "the metadata chunk's usage is counted: \(line)")
        }
    }

    /// A stream ended by a failed answer after its text went out is charged the usage Gemini reported in the failing
    /// chunk (2,595 prompt and 7 answer tokens), which the failed answer carries, not an estimate from the bytes relayed
    /// (decision 0123; before: about 30 prompt tokens, marked estimated).
    @Test func aStreamEndedByAFailedAnswerIsChargedWhatTheProviderReported() async throws {
        try await Self.withGateway(a: [.sseWrites(Self.writes("skillgate-text-then-malformed-function-call.sse"), pause: .milliseconds(100))]) { gw, _, _ in
            let reply = try await Self.send(gw, .chat, stream: true)
            #expect(reply.status == 200 && reply.text.contains(#""code":"malformed_function_call""#), "\(reply.text)")
            let line = await gw.logLines().last ?? [:]
            #expect(line["input_tokens"] as? Int == 2595 && line["output_tokens"] as? Int == 7, "\(line)")
            #expect(line["usage_estimated"] == nil, "the provider's figures, not an estimate: \(line)")
        }
    }

    /// An upstream that sends a chunk of metadata only and then cuts the connection: nothing of an answer went out, so
    /// the stream is not committed and the fallback answers (decision 0123). Before, the metadata chunk committed the
    /// stream to the cut deployment and the client got an error event, the fallback never asked.
    @Test func aStreamCutAfterAMetadataOnlyChunkFallsBack() async throws {
        let metadata = Self.writes("skillgate-metadata-then-malformed-function-call.sse")[0]
        try await Self.withGateway(a: [.dropAfter(prefix: metadata, contentType: "text/event-stream")], b: [Self.goodStream]) { gw, da, db in
            let reply = try await Self.send(gw, .chat, stream: true)
            #expect(reply.status == 200 && reply.text.contains("get_country") && !reply.text.contains(#""error""#), "\(reply.text)")
            #expect(da.requestCount == 1 && db?.requestCount == 1, "the fallback answered")
            let line = await gw.logLines().last ?? [:]
            let attempts = line["attempts"] as? [String] ?? []
            #expect(attempts.count == 2 && attempts.first?.hasPrefix("up-a/m: 502 upstream_unavailable") == true
                        && attempts.last?.hasPrefix("up-b/m: 200 ok") == true, "\(line)")
        }
    }

    /// A chunk of metadata only, then the bare JSON error body Vertex AI sends when it aborts a stream (the form of the
    /// recorded `vertexai-streaming-failure-error-mid-stream.txt`), here `UNAVAILABLE`: nothing went out, so the
    /// fallback answers (decision 0123).
    @Test func aVertexErrorAfterAMetadataOnlyChunkFallsBack() async throws {
        let metadata = Self.writes("skillgate-metadata-then-malformed-function-call.sse")[0]
        let error = Array("{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"The service is currently unavailable.\",\n    \"status\": \"UNAVAILABLE\"\n  }\n}\n".utf8)
        try await Self.withGateway(a: [.sseWrites([metadata, error], pause: .milliseconds(100))], b: [Self.goodStream]) { gw, da, db in
            let reply = try await Self.send(gw, .messages, stream: true)
            #expect(reply.status == 200 && reply.text.contains("get_country") && !reply.text.contains("event: error"), "\(reply.text)")
            #expect(da.requestCount == 1 && db?.requestCount == 1, "the fallback answered")
            let line = await gw.logLines().last ?? [:]
            let attempts = line["attempts"] as? [String] ?? []
            #expect(attempts.first?.hasPrefix("up-a/m: 503 upstream_unavailable") == true && attempts.count == 2, "\(line)")
        }
    }
}
