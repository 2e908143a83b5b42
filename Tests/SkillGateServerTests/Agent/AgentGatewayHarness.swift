import Foundation
import Synchronization
import SkillGateCore
import SkillGateHTTP
import SkillGateSkills
@testable import SkillGateServer
import SkillGateTestSupport

/// An OpenAI-compatible upstream double on 127.0.0.1 that plays an agent's model: it calls
/// `tool` (arguments `{}`) until the conversation holds a tool result, then answers
/// "Result: <the last tool result>". With `hang`, it never answers (the request stays open).
/// With `slowText`, a streamed answer is text only: `chunks` deltas of "tick ", one every `every`; `afterTick` is told
/// the count after each one is written.
final class AgentUpstream: HTTPHandler {
    let tool: String
    let hang: Bool
    /// Answers every request with this HTTP status (an OpenAI-shaped error).
    let failStatus: Int?
    let slowText: (chunks: Int, every: Duration)?
    let afterTick: (@Sendable (Int) -> Void)?
    /// A slow stream's wait between its head and its first event, and what runs at its start.
    let firstEventDelay: Duration
    let beforeFirstEvent: (@Sendable () -> Void)?
    /// Streams answer with `data: [DONE]` alone: no event at all.
    let emptyStream: Bool
    /// Streams answer with one chunk that only finishes (`finish_reason` `stop`, no content), then `data: [DONE]`.
    let contentlessStream: Bool
    /// Streams answer with this text, every event and the end in one write (a short answer arriving whole).
    let textAtOnce: String?
    /// Streams answer with these bytes, as recorded (`Tests/Fixtures/openai/*.sse`).
    let recordedStream: [UInt8]?
    /// Streams answer with this text, its finish and its usage (in 40, out 7), then keep the stream open without
    /// `[DONE]` until the gateway leaves (a complete answer whose stream is not ended, decision 0154).
    let openAfterAnswer: String?
    /// Whether that stream sends its usage (without it, the answer is complete only once the usage's hold passed).
    let openAfterAnswerUsage: Bool
    /// Plays a text-only model behind the prompt-tools adapter: it writes its call in `<tool_call>` tags, and finds the
    /// tool's result in a `<tool_response>` block. The first `malformedFirst` requests get a call that cannot be read.
    let promptTools: Bool
    let malformedFirst: Int
    /// Calls `tool` at every turn, never answering with text, each answer after this long (a model that loops until the
    /// run's budget or `max_iterations` stops it).
    let callsForever: Duration?
    /// Streamed answers are text deltas of 64 KiB, one after another, until the gateway leaves (or 96 MiB were sent):
    /// an upstream that streams without end.
    let flood: Bool
    private let received = Mutex<[JSONValue]>([])
    private let gone = Mutex<ContinuousClock.Instant?>(nil)

    init(tool: String, hang: Bool = false, failStatus: Int? = nil, slowText: (chunks: Int, every: Duration)? = nil,
         afterTick: (@Sendable (Int) -> Void)? = nil, firstEventDelay: Duration = .zero,
         beforeFirstEvent: (@Sendable () -> Void)? = nil, emptyStream: Bool = false, contentlessStream: Bool = false, textAtOnce: String? = nil,
         recordedStream: [UInt8]? = nil, promptTools: Bool = false, malformedFirst: Int = 0, callsForever: Duration? = nil,
         flood: Bool = false, openAfterAnswer: String? = nil, openAfterAnswerUsage: Bool = true) {
        self.openAfterAnswer = openAfterAnswer
        self.openAfterAnswerUsage = openAfterAnswerUsage
        self.callsForever = callsForever
        self.flood = flood
        self.tool = tool
        self.hang = hang
        self.failStatus = failStatus
        self.slowText = slowText
        self.afterTick = afterTick
        self.firstEventDelay = firstEventDelay
        self.beforeFirstEvent = beforeFirstEvent
        self.emptyStream = emptyStream
        self.contentlessStream = contentlessStream
        self.textAtOnce = textAtOnce
        self.recordedStream = recordedStream
        self.promptTools = promptTools
        self.malformedFirst = malformedFirst
    }

    var requests: [JSONValue] { received.locked { $0 } }
    /// Whether a held request saw its client (the gateway) disconnect.
    var sawDisconnect: Bool { gone.locked { $0 != nil } }
    /// When a held request or a slow stream first saw the gateway disconnect.
    var disconnectedAt: ContinuousClock.Instant? { gone.locked { $0 } }

    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        guard let body = try? JSONValue.parse(request.body) else { return responder.respond(status: 400, headers: [:], body: []) }
        let ordinal = received.locked { $0.append(body); return $0.count }
        if hang {
            while !responder.isClientGone && !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            noteDisconnect()
            return
        }
        if let failStatus {
            let error: JSONValue = ["error": ["message": "the model refused the request", "type": "invalid_request_error"]]
            return responder.respond(status: failStatus, headers: ["content-type": "application/json"], body: error.serializedBytes())
        }
        let model = body["model"]?.stringValue ?? ""
        if emptyStream || contentlessStream, body["stream"]?.boolValue == true {
            let finishing: JSONValue = ["id": "chatcmpl-up", "object": "chat.completion.chunk", "created": 1, "model": .string(model),
                                        "choices": [["index": 0, "delta": [:], "finish_reason": "stop"]]]
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            try? await responder.write(Array(((contentlessStream ? "data: \(finishing.serialized())\n\n" : "") + "data: [DONE]\n\n").utf8))
            return responder.end()
        }
        if let recordedStream, body["stream"]?.boolValue == true {
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            try? await responder.write(recordedStream)
            return responder.end()
        }
        if let textAtOnce, body["stream"]?.boolValue == true {
            let bytes = ScriptedUpstream.chunks(.text(textAtOnce), model: model).map { "data: \($0.serialized())\n\n" }.joined()
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            try? await responder.write(Array((bytes + "data: [DONE]\n\n").utf8))
            return responder.end()
        }
        if let openAfterAnswer, body["stream"]?.boolValue == true {
            let usage: JSONValue = ["id": "chatcmpl-up", "object": "chat.completion.chunk", "created": 1, "model": .string(model), "choices": [],
                                    "usage": ["prompt_tokens": 40, "completion_tokens": 7, "total_tokens": 47]]
            let bytes = (ScriptedUpstream.chunks(.text(openAfterAnswer), model: model) + (openAfterAnswerUsage ? [usage] : []))
                .map { "data: \($0.serialized())\n\n" }.joined()
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            try? await responder.write(Array(bytes.utf8))
            while !responder.isClientGone && !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            noteDisconnect()
            return responder.end()
        }
        if let slowText, body["stream"]?.boolValue == true {
            return await streamSlowly(slowText, model: model, responder)
        }
        if flood, body["stream"]?.boolValue == true {
            let delta: JSONValue = ["id": "chatcmpl-up", "object": "chat.completion.chunk", "created": 1, "model": .string(model),
                                    "choices": [["index": 0, "delta": ["content": .string(String(repeating: "x", count: 64 << 10))], "finish_reason": .null]]]
            let event = Array("data: \(delta.serialized())\n\n".utf8)
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            for _ in 0..<(96 * 16) where !responder.isClientGone {
                do { try await responder.write(event) } catch { break }
            }
            try? await responder.write(Array("data: [DONE]\n\n".utf8))
            return responder.end()
        }
        let messages = body["messages"]?.arrayValue ?? []
        var answer: ScriptedAnswer = messages.last?["role"]?.stringValue == "tool"
            ? .text("Result: " + (messages.last?["content"]?.stringValue ?? "?")) : .toolCall(name: tool, arguments: "{}")
        if let callsForever {
            try? await Task.sleep(for: callsForever)
            answer = .toolCall(name: tool, arguments: "{}")
        }
        if promptTools {
            answer = ordinal <= malformedFirst ? .text(#"<tool_call>{"name": "\#(tool)", "arguments": {</tool_call>"#)
                : (messages.contains { $0["role"] != "system" && $0.serialized().contains("<tool_response>") } ? .text("Result: done")
                    : .text(#"<tool_call>{"name": "\#(tool)", "arguments": {}}</tool_call>"#))
        }
        if body["stream"]?.boolValue == true {
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            for chunk in ScriptedUpstream.chunks(answer, model: model) {
                try? await responder.write(Array("data: \(chunk.serialized())\n\n".utf8))
            }
            try? await responder.write(Array("data: [DONE]\n\n".utf8))
            responder.end()
        } else {
            responder.respond(status: 200, headers: ["content-type": "application/json"], body: ScriptedUpstream.completion(answer, model: model).serializedBytes())
        }
    }
}

extension AgentUpstream {
    private func noteDisconnect() {
        gone.locked { $0 = $0 ?? .now }
    }

    private func streamSlowly(_ slow: (chunks: Int, every: Duration), model: String, _ responder: HTTPResponder) async {
        func chunk(_ delta: JSONValue, _ finish: JSONValue = .null) -> [UInt8] {
            let json: JSONValue = ["id": "chatcmpl-up", "object": "chat.completion.chunk", "created": 1, "model": .string(model),
                                   "choices": [["index": 0, "delta": delta, "finish_reason": finish]]]
            return Array("data: \(json.serialized())\n\n".utf8)
        }
        do {
            try await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            beforeFirstEvent?()
            if firstEventDelay > .zero { try await Task.sleep(for: firstEventDelay) }
            try await responder.write(chunk(["role": "assistant", "content": ""]))
            for tick in stride(from: 1, through: slow.chunks, by: 1) {
                if responder.isClientGone { return noteDisconnect() }
                try await responder.write(chunk(["content": "tick "]))
                afterTick?(tick)
                try await Task.sleep(for: slow.every)
            }
            try await responder.write(chunk([:], "stop"))
            try await responder.write(Array("data: [DONE]\n\n".utf8))
        } catch {
            if responder.isClientGone { noteDisconnect() }
        }
        responder.end()
    }
}

/// A real gateway with test server skills in front of an `AgentUpstream`. Scenario `chat` (the
/// default) shows the pack `tools` = the skills' names plus `open_map` (a client tool).
final class AgentGatewayHarness {
    let upstream: AgentUpstream
    let upstreamServer: HTTPServer
    let gateway: GatewayServer
    let client = HTTPClient()
    let token: String
    let directory: String
    let logPath: String

    /// `lightTools`: the light model's `tools` (`prompt`: behind the prompt-tools adapter, with an upstream that plays one).
    /// `lightFallback`: the light tier has a second deployment, `up/light-fallback` (the same `tools`), tried after
    /// `up/light-native`; the two are priced 1,000 and 3,000 US dollars per million tokens (in and out alike).
    /// `firstByteSeconds`: the upstreams' first-byte timeout (`upstream_timeouts.first_byte_seconds`), the default when nil.
    /// `escalate`: scenario `chat` escalates unusable answers (a streamed answer of the light model is then read whole
    /// and checked before its first byte goes out).
    /// `maxIterations`: `agent.max_iterations`. `maxAnswerMiB`: `limits.max_answer_mib`.
    /// `extraConfig`: more members of the config's top level, each with its leading comma (`,"state":{...}`).
    init(skills: [any Skill], upstream: AgentUpstream, lightTools: String = "native", lightFallback: Bool = false,
         firstByteSeconds: Double? = nil, escalate: Bool = false, maxIterations: Int = 4, maxAnswerMiB: Int? = nil,
         extraConfig: String = "") throws {
        self.upstream = upstream
        upstreamServer = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: upstream)
        try upstreamServer.start()
        directory = NSTemporaryDirectory() + "skillgate-agent-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/Providers", withIntermediateDirectories: true)
        let catalog = #"""
        {"id":"up","display_name":"Upstream double","wire_format":"openai-chat","base_url":"http://127.0.0.1:\#(upstreamServer.boundPort)/v1","auth":"none",
         "models":[{"id":"light-native","tier":"light","tools":"\#(lightTools)"\#(lightFallback ? Self.price(1_000) : "")},\#(lightFallback ? Self.fallbackModel(lightTools) : "")
                   {"id":"strong-native","tier":"strong","tools":"native"}]}
        """#
        try catalog.writeAtomically(toFile: directory + "/Providers/up.json")
        let pack = (skills.map(\.name) + ["open_map"]).map { "\"\($0)\"" }.joined(separator: ",")
        // Long connection timeouts: the write-stall timeout (the shortest of them, 10 s by default) cuts
        // a stream whose client reads nothing, and a loaded parallel run can leave this test's client
        // unscheduled for seconds.
        let config = #"""
        {"listen":"127.0.0.1:0","state_dir":"state","key_file":"keys/keys.json","providers_dir":"Providers",
         "tiers":{"light":["up/light-native"\#(lightFallback ? ",\"up/light-fallback\"" : "")],"strong":["up/strong-native"]},"default_model":"light",
         "skill_packs":{"tools":[\#(pack)]},"scenarios":{"chat":{"skill_packs":["tools"]\#(escalate ? ",\"escalate\":true" : "")}},"default_scenario":"chat",
         "agent":{"max_iterations":\#(maxIterations)},\#(firstByteSeconds.map { #""upstream_timeouts":{"first_byte_seconds":\#($0)},"# } ?? "")
         "limits":{"header_timeout_seconds":60,"body_timeout_seconds":60\#(maxAnswerMiB.map { ",\"max_answer_mib\":\($0)" } ?? "")}\#(extraConfig)}
        """#
        try config.writeAtomically(toFile: directory + "/skillgate.json")
        let loaded = try GatewayConfig.load(path: directory + "/skillgate.json")
        token = try GatewayServer.openTokenService(config: loaded).create(name: "agent-test").token
        logPath = directory + "/requests.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        gateway = try GatewayServer(config: loaded, logFD: open(logPath, O_WRONLY | O_APPEND), serverSkills: try SkillRegistry(skills))
        try gateway.start()
    }

    private static func price(_ perMillion: Int) -> String {
        #","price":{"input_per_mtok":\#(perMillion),"output_per_mtok":\#(perMillion)}"#
    }

    private static func fallbackModel(_ tools: String) -> String {
        #"{"id":"light-fallback","tier":"light","tools":"\#(tools)"\#(price(3_000))},"#
    }

    func post(_ path: String, _ body: JSONValue, token: String? = nil) async throws -> (status: Int, headers: HTTPHeaders, body: String) {
        try await Self.post(client, port: gateway.boundPort, token: token ?? self.token, path, body)
    }

    /// A request from a task that must not capture the harness.
    func detachedPost(_ path: String, _ body: JSONValue) -> Task<Void, any Error> {
        let client = self.client
        let port = gateway.boundPort
        let token = self.token
        let operation: @Sendable () async throws -> Void = { try await AgentGatewayHarness.fire(client, port: port, token: token, path, body) }
        return Task(operation: operation)
    }

    private static func fire(_ client: HTTPClient, port: Int, token: String, _ path: String, _ body: JSONValue) async throws {
        let headers: HTTPHeaders = ["authorization": "Bearer \(token)", "content-type": "application/json"]
        _ = try await client.send(HTTPRequest(url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: body.serializedBytes()))
    }

    static func post(_ client: HTTPClient, port: Int, token: String, _ path: String, _ body: JSONValue) async throws -> (status: Int, headers: HTTPHeaders, body: String) {
        let headers: HTTPHeaders = ["authorization": "Bearer \(token)", "content-type": "application/json"]
        let response = try await client.send(HTTPRequest(url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: body.serializedBytes()))
        return (response.status, response.headers, String(decoding: response.body, as: UTF8.self))
    }

    /// The log as it was when `stop()` removed the temporary directory.
    private var finalLog: String?

    func logLines() async -> [JSONValue] {
        if finalLog == nil { await gateway.flushLog() }
        let text = finalLog ?? (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }.filter { $0["request_id"] != nil }
    }

    func stop() async {
        await gateway.shutdown()
        await upstreamServer.shutdown(deadline: .seconds(2))
        client.shutdown()
        finalLog = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `(event, data)` pairs of an SSE body with `event:` lines.
    static func events(_ body: String) -> [(name: String, data: JSONValue)] {
        body.components(separatedBy: "\n\n").compactMap { block in
            var name: String?, data: JSONValue?
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = try? JSONValue.parse(String(line.dropFirst(6))) }
            }
            guard let name, let data else { return nil }
            return (name, data)
        }
    }
}

extension AgentGatewayHarness {
    /// A harness whose one skill, `revoker`, revokes the caller's token while it runs (as an operator might at that
    /// moment), before an upstream that calls it: the run's next step finds the token revoked.
    static func revokingMidRun() throws -> (AgentGatewayHarness, TestSkill) {
        let revoke = Mutex<(@Sendable () -> Void)?>(nil)
        let skill = TestSkill("revoker") { _ in
            revoke.locked { $0 }?()
            return SkillResult(text: "done")
        }
        let h = try AgentGatewayHarness(skills: [skill], upstream: AgentUpstream(tool: "revoker"))
        let tokens = h.gateway.services.tokens
        revoke.locked { $0 = { _ = try? tokens.revoke(name: "agent-test") } }
        return (h, skill)
    }
}
