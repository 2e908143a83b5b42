import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// A stream that ends before its usage came (the client left; providers send usage last) is charged what it used,
/// estimated from the request's input and the output relayed, not nothing (decision 0104): on the chat surfaces' relay
/// and in an agent run's streamed model call. Before, a client could spend
/// past any budget or token limit by leaving each stream just before its end.
@Suite(.serialized) struct AbandonedStreamChargeTests {
    static let messages: JSONValue = [["role": "user", "content": "count slowly, in one long answer please"]]

    /// The surfaces whose streams are relayed, each with a streamed body.
    static let surfaces: [(path: String, body: JSONValue)] = [
        ("/v1/chat/completions", ["model": "light", "stream": true, "messages": messages]),
        ("/v1/messages", ["model": "light", "max_tokens": 100, "stream": true, "messages": messages]),
        ("/v1/responses", ["model": "light", "stream": true, "input": "count slowly, in one long answer please"]),
        // An agent run's streamed model call (its text deltas are `text.delta` events).
        ("/v1/agent", ["messages": messages]),
    ]

    @Test(arguments: [0, 1, 2, 3])
    func aStreamTheClientLeavesIsChargedWhatItUsed(_ index: Int) async throws {
        let (path, body) = Self.surfaces[index]
        // 40 deltas of "tick ", one every 50 ms, and no usage at all until the end (the upstream never sends one here).
        let h = try AgentGatewayHarness(skills: [], upstream: AgentUpstream(tool: "none", slowText: (40, .milliseconds(50))))
        let port = h.gateway.boundPort, token = h.token
        let payload = body.serialized()
        let read = try await RawSocket.run {
            let socket = try RawSocket(port: port, receiveTimeout: 10)
            socket.send("POST \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(payload.utf8.count)\r\n\r\n\(payload)")
            let seen = socket.read(until: "tick", count: 3)
            socket.close()
            return seen
        }
        #expect(read.contains("tick"), "\(read.suffix(300))")
        // The gateway leaves the upstream's stream once it sees the client gone.
        let deadline = ContinuousClock.now + .seconds(10)
        while h.upstream.disconnectedAt == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(h.upstream.disconnectedAt != nil, "the gateway relayed the whole stream to a client that left")

        // The request is accounted for once its relay has ended, a moment after the upstream saw it leave.
        let spent = try await ledgerSpend(of: h.gateway, until: deadline)
        await h.stop()
        let log = try #require(await h.logLines().last)
        #expect(log["usage_estimated"]?.boolValue == true, "\(log)")
        let input = log["input_tokens"]?.intValue ?? 0, output = log["output_tokens"]?.intValue ?? 0
        // The input: the prompt's 39 bytes (and the Responses surface's, the same text) are at least 10 tokens.
        #expect(input >= 10, "\(log)")
        // The output: at least the three deltas the client saw (15 bytes), at most the 40 the upstream had (200 bytes).
        #expect(output >= 4 && output <= 50, "\(log)")
        #expect(spent.requests == 1 && spent.inputTokens == input && spent.outputTokens == output, "\(spent)")
    }

    /// A stream whose usage came is charged the usage the provider reported, and says nothing of estimates.
    @Test func aStreamWhoseUsageCameIsChargedIt() async throws {
        let h = try GatewayLoopbackTests.Harness()
        let r = try await h.post("/v1/chat/completions", #"{"model":"light","stream":true,"messages":[{"role":"user","content":"What time is it?"}]}"#)
        let log = await h.log()
        await h.stop()
        #expect(r.status == 200)
        let line = try #require(log.split(separator: "\n").last { $0.contains("\"request_id\"") })
        #expect(line.contains("\"input_tokens\"") && !line.contains("usage_estimated"), "\(line)")
    }
}
