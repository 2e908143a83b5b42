import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// A complete streamed answer ends the client's stream normally although the upstream keeps its stream open (decision
/// 0154): its finish and usage came (or the finish and the usage's short hold passed), and nothing of the answer comes
/// after them. An attack round saw such a stream held open until the upstream's idle timeout (120 s by default; 600 s,
/// the total timeout, with `: ping` comments), then ended with a timeout error: the SDK raised after the whole answer,
/// the log said 504 mid-stream, and two such answers cooled the deployment down.
@Suite struct CompleteAnswerEndsTheStreamTests {
    static func chunk(_ json: String) -> String { "data: \(json)\n\n" }
    static let head = #"{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","#
    static func anthropic(_ type: String, _ json: String) -> String { "event: \(type)\ndata: \(json)\n\n" }

    /// What the upstream sends: the answer, then 60 s of silence (the idle timeout is 90 s), then its end.
    enum Upstream: CaseIterable {
        case openAIWithUsage, openAIWithoutUsage, anthropicWithoutMessageStop

        var answer: [String] {
            switch self {
            case .openAIWithUsage, .openAIWithoutUsage:
                var events = [chunk(head + #""choices":[{"index":0,"delta":{"role":"assistant","content":"Hello there"},"finish_reason":null}]}"#),
                              chunk(head + #""choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#)]
                if self == .openAIWithUsage {
                    events.append(chunk(head + #""choices":[],"usage":{"prompt_tokens":5000,"completion_tokens":7000,"total_tokens":12000}}"#))
                }
                return events
            case .anthropicWithoutMessageStop:
                return [anthropic("message_start", #"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":5000,"output_tokens":1}}}"#),
                        anthropic("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
                        anthropic("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello there"}}"#),
                        anthropic("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
                        anthropic("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":7000}}"#)]
            }
        }

        /// The stream's end, after the silence.
        var end: String {
            self == .anthropicWithoutMessageStop ? anthropic("message_stop", #"{"type":"message_stop"}"#) : ": ping\n\n" + "data: [DONE]\n\n"
        }

        var wireFormat: String { self == .anthropicWithoutMessageStop ? "anthropic-messages" : "openai-chat" }
        var reportsUsage: Bool { self != .openAIWithoutUsage }
    }

    /// Each surface, and the proper end of its stream.
    static let surfaces: [(path: String, body: String, end: String)] = [
        ("/v1/chat/completions", #"{"model":"light","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}"#, "data: [DONE]"),
        ("/v1/messages", #"{"model":"light","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}"#, "event: message_stop"),
        ("/v1/responses", #"{"model":"light","stream":true,"input":"hi"}"#, "response.completed"),
    ]

    @Test(arguments: Upstream.allCases, 0..<3)
    func aCompleteAnswerEndsTheClientsStreamNormally(_ upstreamKind: Upstream, _ surface: Int) async throws {
        let (path, body, end) = Self.surfaces[surface]
        let answer = upstreamKind.answer
        let sse = Array((answer.joined() + upstreamKind.end).utf8)
        let upstream = try UpstreamDouble([.ssePaused(sse, after: answer.count, pause: .seconds(60))])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"], idleSeconds: 90,
                                            wireFormats: ["up-a": upstreamKind.wireFormat])
        let (seen, closed, took) = try await Self.streamOverRawSocket(gateway, path: path, body: body)
        // Unbounded, the stream would end with the total timeout (30 s) in its 60 s of silence; bounded, after the usage's hold
        // (1 s) at most. The bound is far from both, as a loaded parallel run can take seconds over the request itself.
        let line = await gateway.logLines().first { ($0["path"] as? String) == path }
        await gateway.stop()
        await upstream.stop()
        #expect(closed && took < .seconds(25), "the complete answer's stream ended after \(took)")
        #expect(seen.contains("Hello there") && seen.contains(end), "\(seen.suffix(600))")
        #expect(!seen.contains(#""error":{"#), "a complete answer ended with an error: \(seen.suffix(600))")
        #expect(line?["status"] as? Int == 200 && line?["error"] == nil && line?["level"] as? String == "info", "\(String(describing: line))")
        let attempts = (line?["attempts"] as? [String])?.joined(separator: "; ") ?? ""
        #expect(attempts == "up-a/m: 200 ok", "the attempt should be a success, not a failure mid-stream: \(attempts)")
        if upstreamKind.reportsUsage {
            #expect(line?["output_tokens"] as? Int == 7_000 && line?["usage_estimated"] == nil, "\(String(describing: line))")
        }
    }

    /// A stream the gateway reads whole before it relays it (a model whose answers escalate, to check it first) and an
    /// agent run's model call end with the complete answer too. Before, the escalating stream was read until the upstream's
    /// idle timeout, then thrown away for the stronger tier's answer; the agent run waited as long.
    @Test(arguments: [("/v1/chat/completions", true), ("/v1/agent", false)])
    func anAnswerReadWholeOrByAnAgentRunEndsWithTheAnswer(_ path: String, _ escalate: Bool) async throws {
        let h = try AgentGatewayHarness(skills: [], upstream: AgentUpstream(tool: "none", openAfterAnswer: "Hello there"), escalate: escalate)
        let (headers, line) = try await Self.expectTheAnswerEndsTheRun(h, path: path)
        if escalate {
            #expect(headers["x-skillgate-model"] == "up/light-native", "\(headers)")
            #expect(line?["output_tokens"]?.intValue == 7 && line?["escalations"] == nil, "\(String(describing: line))")
        }
    }
}

extension CompleteAnswerEndsTheStreamTests {
    /// Posts `body` to `path` on `gateway` over a raw socket (`Connection: close`) and reads until the gateway closes it
    /// (at most 70 s): what came, whether it closed, and how long it took.
    static func streamOverRawSocket(_ gateway: ResilienceGateway, path: String, body: String) async throws -> (seen: String, closed: Bool, took: Duration) {
        let port = gateway.server.boundPort, token = gateway.token
        let clock = ContinuousClock()
        let began = clock.now
        let (seen, closed) = try await RawSocket.run {
            let socket = try RawSocket(port: port, receiveTimeout: 70)
            socket.send("POST \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return socket.readAll()
        }
        return (seen, closed, clock.now - began)
    }

    /// Streams "hi" to `path` through `h`, whose upstream sends "Hello there" and keeps its stream open, waits (at most
    /// 20 s) for the gateway to let go of that stream, stops the gateway, and checks what every read-whole and agent case
    /// checks: a 200 within 40 s with the answer and no error event, and the upstream's stream let go of. Returns the
    /// reply's headers and the request's log line for the case's own checks.
    static func expectTheAnswerEndsTheRun(_ h: AgentGatewayHarness, path: String) async throws -> (headers: HTTPHeaders, line: JSONValue?) {
        let body: JSONValue = ["model": "light", "stream": true, "messages": [["role": "user", "content": "hi"]]]
        let clock = ContinuousClock()
        let began = clock.now
        let (status, headers, text) = try await h.post(path, body)
        let took = clock.now - began
        let deadline = ContinuousClock.now + .seconds(20)
        while !h.upstream.sawDisconnect, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let sawDisconnect = h.upstream.sawDisconnect
        await h.stop()
        let line = await h.logLines().last
        // The default idle timeout is 120 s: the bound is far from it and from the holds' seconds.
        #expect(status == 200 && took < .seconds(40), "\(status) after \(took): \(text.suffix(400))")
        #expect(text.contains("there") && !text.contains(#""error":{"#), "\(text.suffix(400))")
        #expect(sawDisconnect, "the upstream's open stream was not let go of")
        return (headers, line)
    }
}
