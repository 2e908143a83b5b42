import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
import Synchronization
@testable import SkillGateServer

/// A request whose client leaves while a deployment has it (before the whole answer, or before a stream's first event)
/// is charged an estimate of the input it sent, marked estimated (decision 0126). The provider has the prompt and may
/// bill it; before, such a request was charged nothing, so a token (one taken out of an app, say) could send long prompts
/// to an expensive model and leave each one early, past any budget or token limit.
@Suite(.serialized) struct LeftDuringAttemptChargeTests {
    static let prompt = String(repeating: "tell me everything about the weather in Oslo, ", count: 40)  // 1,840 bytes
    static let messages: JSONValue = [["role": "user", "content": .string(prompt)]]

    /// Each surface, whole and streamed, and an agent run (its model call is the one left).
    static let requests: [(path: String, body: JSONValue)] = [
        ("/v1/chat/completions", ["model": "light", "messages": messages]),
        ("/v1/chat/completions", ["model": "light", "stream": true, "messages": messages]),
        ("/v1/messages", ["model": "light", "max_tokens": 100, "stream": true, "messages": messages]),
        ("/v1/responses", ["model": "light", "input": .string(prompt)]),
        ("/v1/agent", ["messages": messages]),
    ]

    @Test(arguments: 0..<5)
    func aClientThatLeavesWhileTheUpstreamHasItsRequestIsChargedItsInput(_ index: Int) async throws {
        let (path, body) = Self.requests[index]
        let h = try AgentGatewayHarness(skills: [], upstream: AgentUpstream(tool: "none", hang: true))
        let port = h.gateway.boundPort, token = h.token, upstream = h.upstream
        let payload = body.serialized()
        try await RawSocket.run {
            let socket = try RawSocket(port: port, receiveTimeout: 10)
            socket.send("POST \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(payload.utf8.count)\r\n\r\n\(payload)")
            // Leave once the upstream holds the request.
            let deadline = ContinuousClock.now + .seconds(10)
            while upstream.requests.isEmpty, ContinuousClock.now < deadline { usleep(5_000) }
            socket.close()
        }
        #expect(upstream.requests.count == 1)
        let deadline = ContinuousClock.now + .seconds(10)
        while !upstream.sawDisconnect, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(upstream.sawDisconnect, "the gateway kept the upstream's request after its client left")
        let spent = try await ledgerSpend(of: h.gateway, until: deadline)
        await h.stop()
        let log = try #require(await h.logLines().last)
        #expect(log["status"] == 499, "\(log)")
        #expect(log["usage_estimated"]?.boolValue == true, "\(log)")
        // The prompt alone is 1,840 bytes: at least 460 tokens; nothing came out.
        let input = log["input_tokens"]?.intValue ?? 0
        #expect(input >= 460, "\(log)")
        #expect(log["output_tokens"]?.intValue == 0, "\(log)")
        #expect(spent.requests == 1 && spent.inputTokens == input, "\(spent)")
    }

    /// A stream of a model whose answers escalate is read whole before its first byte goes out (it is checked first):
    /// a client that leaves while the gateway reads it is charged the output read so far beside its input, estimated as a
    /// relayed stream's is (decision 0128). Before, only the input: the provider bills what it wrote, so asking for a long
    /// answer and leaving just before its end spent the output unseen by any limit. Over Chat Completions and an agent
    /// run (whose model calls are streamed).
    @Test(arguments: [("/v1/chat/completions", true), ("/v1/agent", false)])
    func aClientThatLeavesWhileAnEscalatingStreamIsReadIsChargedTheOutputRead(_ path: String, _ streamField: Bool) async throws {
        // The light model (the one whose answers escalate); an agent run's model calls are streamed anyway.
        let body: JSONValue = streamField ? ["model": "light", "stream": true, "messages": Self.messages] : ["model": "light", "messages": Self.messages]
        let ticks = Mutex(0)
        let h = try AgentGatewayHarness(skills: [], upstream: AgentUpstream(tool: "none", slowText: (chunks: 1000, every: .milliseconds(10)),
                                                                            afterTick: { n in ticks.locked { $0 = n } }),
                                        escalate: true)
        let port = h.gateway.boundPort, token = h.token, upstream = h.upstream
        let payload = body.serialized()
        try await RawSocket.run {
            let socket = try RawSocket(port: port, receiveTimeout: 10)
            socket.send("POST \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(payload.utf8.count)\r\n\r\n\(payload)")
            // Leave once the upstream has written 300 of its 1,000 "tick " deltas (1,500 bytes, about 375 tokens), three
            // seconds in: what counts is what the gateway had read, and the whole suite running in parallel can keep the
            // task reading it waiting for a second or two (the check needs 40 of them read).
            let deadline = ContinuousClock.now + .seconds(20)
            while ticks.locked({ $0 }) < 300, ContinuousClock.now < deadline { usleep(5_000) }
            socket.close()
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !upstream.sawDisconnect, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(upstream.sawDisconnect, "the gateway kept reading the upstream after its client left")
        let spent = try await ledgerSpend(of: h.gateway, until: deadline)
        await h.stop()
        let log = try #require(await h.logLines().last)
        #expect(log["status"] == 499 && log["usage_estimated"]?.boolValue == true, "\(log)")
        #expect((log["input_tokens"]?.intValue ?? 0) >= 460, "\(log)")
        #expect((log["output_tokens"]?.intValue ?? 0) >= 50, "the output read before the client left: \(log)")
        #expect(spent.outputTokens == log["output_tokens"]?.intValue, "\(spent)")
    }

    /// What was charged counts against the token's limits: with `tokens_per_minute` at 400, the request left early uses
    /// the minute up, and the next one is refused (before, it was answered, and so every next one).
    @Test func theChargeCountsAgainstTheTokensLimit() async throws {
        let h = try AgentGatewayHarness(skills: [], upstream: AgentUpstream(tool: "none", hang: true))
        let limited = try h.gateway.services.tokens.create(name: "limited", limits: TokenLimits(tokensPerMinute: 400)).token
        let port = h.gateway.boundPort, upstream = h.upstream
        let payload = (["model": "light", "messages": Self.messages] as JSONValue).serialized()
        let request = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(limited)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(payload.utf8.count)\r\n\r\n\(payload)"
        try await RawSocket.run {
            let socket = try RawSocket(port: port, receiveTimeout: 10)
            socket.send(request)
            let deadline = ContinuousClock.now + .seconds(10)
            while upstream.requests.isEmpty, ContinuousClock.now < deadline { usleep(5_000) }
            socket.close()
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !upstream.sawDisconnect, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        // The first request is accounted for a moment after the upstream saw it leave. A deadline of its own: under a
        // loaded stress run the wait above can use most of its ten seconds, and the next request must find the charge.
        _ = try await ledgerSpend(of: h.gateway, until: ContinuousClock.now + .seconds(30))
        let next = try await RawSocket.run {
            let socket = try RawSocket(port: port, receiveTimeout: 3)
            defer { socket.close() }
            socket.send(request)
            return socket.read(until: "\r\n\r\n", count: 1)
        }
        await h.stop()
        #expect(next.hasPrefix("HTTP/1.1 429"), "\(next.prefix(200))")
        #expect(upstream.requests.count == 1)
    }
}
