import Foundation
import Testing
import SkillGateHTTP
@testable import SkillGateServer

/// A stream's finish is held until the provider's usage, which follows it, has been read (decision 0146): a client that
/// leaves on reading its `finish_reason` is charged what the provider reported. Before, leaving then ended the upstream
/// transfer before the usage came, and the request was charged an estimate of the text relayed, nothing for a
/// reasoning model's hidden tokens: an attack round paid $0.054 for answers whose usage said $40.10.
@Suite struct FinishHeldForUsageTests {
    static func chunk(_ json: String) -> String { "data: \(json)\n\n" }
    static let head = #"{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","#

    @Test func aClientThatLeavesOnTheFinishIsChargedTheReportedUsage() async throws {
        let answer = Self.chunk(Self.head + #""choices":[{"index":0,"delta":{"role":"assistant","content":"Hello there"},"finish_reason":null}]}"#)
            + Self.chunk(Self.head + #""choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#)
        let usage = Self.chunk(Self.head + #""choices":[],"usage":{"prompt_tokens":100,"completion_tokens":20000,"total_tokens":20100,"completion_tokens_details":{"reasoning_tokens":19980}}}"#)
            + "data: [DONE]\n\n"
        let upstream = try UpstreamDouble([.sseWrites([Array(answer.utf8), Array(usage.utf8)], pause: .milliseconds(400))])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"], idleSeconds: 10)
        let port = gateway.server.boundPort, token = gateway.token
        let body = String(decoding: ResilienceGateway.body(model: "light", stream: true), as: UTF8.self)
        let seen = try await RawSocket.run {
            let socket = try RawSocket(port: port, receiveTimeout: 10)
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let seen = socket.read(until: #""finish_reason":"stop""#, count: 1)
            socket.close()  // leaves on the finish, before anything after it
            return seen
        }
        let line = await gateway.logLines().first { ($0["path"] as? String) == "/v1/chat/completions" }
        await gateway.stop()
        await upstream.stop()
        #expect(seen.contains("Hello there") && seen.contains(#""finish_reason":"stop""#), "\(seen.suffix(300))")
        #expect(line?["output_tokens"] as? Int == 20_000, "charged other than the provider's usage: \(String(describing: line))")
        #expect(line?["input_tokens"] as? Int == 100, "\(String(describing: line))")
        #expect(line?["usage_estimated"] == nil, "\(String(describing: line))")
    }

    /// The hold is short (`finishHeldForUsage`): a provider that keeps the stream open after its finish, with no usage
    /// (and no `[DONE]`), does not hold the client's finish for the upstream idle timeout (an attack round measured 120 s,
    /// and 600 s with comments resetting the idle timer); and a usage chunk that came is handed on at once, not at a
    /// `[DONE]` that does not come, so a client leaving on the finish is charged it.
    @Test(arguments: [false, true])
    func aProviderThatStaysOpenAfterItsFinishHoldsItBriefly(_ sendsUsage: Bool) async throws {
        var events = [Self.chunk(Self.head + #""choices":[{"index":0,"delta":{"role":"assistant","content":"Hello there"},"finish_reason":null}]}"#),
                      Self.chunk(Self.head + #""choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#)]
        if sendsUsage { events.append(Self.chunk(Self.head + #""choices":[],"usage":{"prompt_tokens":5000,"completion_tokens":7000,"total_tokens":12000}}"#)) }
        let sse = Array((events.joined() + ": ping\n\n" + "data: [DONE]\n\n").utf8)
        // Everything up to the comment, then 60 s of silence (the comment and [DONE] come after it), the idle timeout
        // longer still: unbounded, the hold would end with the silence. The bound below is far from both and from the
        // hold's second, as a loaded parallel run can take seconds over the request itself.
        let upstream = try UpstreamDouble([.ssePaused(sse, after: events.count, pause: .seconds(60))])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"], idleSeconds: 90)
        let port = gateway.server.boundPort, token = gateway.token
        let body = String(decoding: ResilienceGateway.body(model: "light", stream: true), as: UTF8.self)
        let clock = ContinuousClock()
        let began = clock.now
        let seen = try await RawSocket.run {
            let socket = try RawSocket(port: port, receiveTimeout: 70)
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let seen = socket.read(until: #""finish_reason":"stop""#, count: 1)
            socket.close()
            return seen
        }
        let took = clock.now - began
        let line = await gateway.logLines().first { ($0["path"] as? String) == "/v1/chat/completions" }
        await gateway.stop()
        await upstream.stop()
        #expect(seen.contains(#""finish_reason":"stop""#), "\(seen.suffix(300))")
        #expect(took < .seconds(40), "the finish was held \(took)")
        if sendsUsage {
            #expect(line?["output_tokens"] as? Int == 7_000 && line?["usage_estimated"] == nil, "\(String(describing: line))")
        }
    }
}
