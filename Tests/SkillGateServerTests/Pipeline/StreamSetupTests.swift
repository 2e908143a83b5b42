import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer
import Testing

/// A streamed chat request is set up (prepare, route, the upstream call up to its first event) in a child task and
/// relayed in the handler's task (decision 0033). The child must still end with the request: a client that leaves
/// while the upstream's head is pending cancels the upstream call, and a stream that opens is relayed whole. Both tasks
/// stay on the request's event loop, so the upstream transfer runs on its libcurl lane (decisions 0035, 0036).
@Suite struct StreamSetupTests {
    static let streamedQuestion: JSONValue = ["model": "light", "messages": [["role": "user", "content": "what time is it?"]], "stream": true]

    @Test func aClientLeavingDuringTheStreamsSetupCancelsTheUpstreamCall() async throws {
        // No server-side skill is visible, so the answer is a relayed stream, not the agent loop.
        let upstream = AgentUpstream(tool: "clock", hang: true)
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        let request = h.detachedPost("/v1/chat/completions", Self.streamedQuestion)
        try await AgentGatewayTests.waitUntil { !upstream.requests.isEmpty }
        request.cancel()
        _ = await request.result
        try await AgentGatewayTests.waitUntil { upstream.sawDisconnect }
        await h.stop()
        #expect(upstream.sawDisconnect, "the upstream call made in the setup task outlived its client")
    }

    @Test func anOpenedStreamIsRelayedWholeAfterItsSetup() async throws {
        let upstream = AgentUpstream(tool: "clock", slowText: (chunks: 5, every: .milliseconds(20)))
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        let response = try await h.post("/v1/chat/completions", Self.streamedQuestion)
        await h.stop()
        #expect(response.status == 200, "\(response.body)")
        let data = response.body.split(separator: "\n").filter { $0.hasPrefix("data: ") }
        #expect(data.last == "data: [DONE]")
        let text = data.dropLast().compactMap { try? JSONValue.parse(String($0.dropFirst(6))) }
            .compactMap { $0["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue }.joined()
        #expect(text == String(repeating: "tick ", count: 5))
    }

    /// What the upstream sent together leaves the gateway together (decision 0063): a slow answer's first event is sent
    /// from the setup before its state is freed (one early send on a loop with the request alone in flight), and the
    /// rest follow as they come; a short answer whose events arrive at once is relayed whole in the setup and leaves in
    /// one send at the end of the loop's batch (no early send).
    @Test(arguments: [false, true])
    func theFirstEventsLeaveFromTheSetupInOneSend(slow: Bool) async throws {
        let upstream = slow ? AgentUpstream(tool: "clock", slowText: (chunks: 3, every: .milliseconds(20)))
                            : AgentUpstream(tool: "clock", textAtOnce: "It is noon.")
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        let before = h.gateway.server.statistics.streamWritesSentAtOnce
        let response = try await h.post("/v1/chat/completions", Self.streamedQuestion)
        let sentAtOnce = h.gateway.server.statistics.streamWritesSentAtOnce - before
        await h.stop()
        #expect(response.status == 200, "\(response.body)")
        #expect(response.body.hasSuffix("data: [DONE]\n\n"), "\(response.body.suffix(200))")
        #expect(slow ? response.body.components(separatedBy: "tick").count == 4 : response.body.contains("noon"), "\(response.body)")
        #expect(sentAtOnce == (slow ? 1 : 0))
    }

    /// An upstream stream with an answer but no content (one chunk that only finishes, then `data: [DONE]`): the
    /// translator opens and closes the answer (a start, and the finish), so the client gets a 200 with the surface's
    /// closing event, and the log line has status 200 and no error. (This test sent `data: [DONE]` alone until decision
    /// 0129, which made a stream with no chunk at all a cut: see the next test.)
    @Test(arguments: [("/v1/chat/completions", "data: [DONE]"), ("/v1/messages", "event: message_stop")])
    func anUpstreamStreamWithoutContentEndsWithTheSurfacesClose(path: String, closing: String) async throws {
        let upstream = AgentUpstream(tool: "clock", contentlessStream: true)
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        let response = try await h.post(path, Self.streamedBody(path))
        await h.stop()
        let log = await h.logLines().last
        #expect(response.status == 200, "\(response.body)")
        #expect(response.body.contains(closing), "\(response.body)")
        #expect(log?["status"]?.intValue == 200 && log?["error"] == nil, "\(String(describing: log))")
    }

    /// An upstream stream with no event at all (`data: [DONE]` alone) ended before its first event without an answer: a
    /// cut (decision 0129), tried again on the deployment until its third failure cools it down (`cooldown.after_failures`
    /// 3, as for three cut connections), then a 502 `upstream_unavailable` in the surface's shape that says what to do.
    /// (Before, the client got an empty answer with a 200.)
    @Test(arguments: ["/v1/chat/completions", "/v1/messages"])
    func anUpstreamStreamWithoutEventsIsACut(path: String) async throws {
        let upstream = AgentUpstream(tool: "clock", emptyStream: true)
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        let response = try await h.post(path, Self.streamedBody(path))
        await h.stop()
        let log = await h.logLines().last
        #expect(response.status == 502, "\(response.body)")
        #expect(response.body.contains("ended its stream before its first event") && response.body.contains("Retry the request"),
                "\(response.body)")
        #expect(upstream.requests.count == 3, "tried again until the deployment cooled down, as after a cut")
        #expect(log?["status"]?.intValue == 502 && log?["outcome"]?.stringValue == "upstream_unavailable", "\(String(describing: log))")
    }

    static func streamedBody(_ path: String) -> JSONValue {
        path == "/v1/messages"
            ? ["model": "light", "max_tokens": 100, "messages": [["role": "user", "content": "what time is it?"]], "stream": true]
            : streamedQuestion
    }

    @Test func aStreamedRequestsUpstreamCallRunsOnItsEventLoopsLane() async throws {
        let upstream = AgentUpstream(tool: "clock", slowText: (chunks: 3, every: .milliseconds(5)))
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        let streamed = try await h.post("/v1/chat/completions", Self.streamedQuestion)
        let onLanes = h.gateway.http.transfersOnServerEventLoops
        await h.stop()
        #expect(streamed.status == 200, "\(streamed.body)")
        #expect(upstream.requests.count == 1)
        #expect(onLanes == 1, "the streamed request's upstream call left its event loop (handed to the client's own thread)")
    }
}
