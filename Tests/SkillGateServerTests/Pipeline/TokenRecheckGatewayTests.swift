import Foundation
import Synchronization
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateSkills
@testable import SkillGateServer

/// Revocation stops answers already under way (decision 0023): a stream ends with the surface's
/// error event within about a second, and an agent run takes no further step.
@Suite(.serialized) struct TokenRecheckGatewayTests {
    static let messages: JSONValue = [["role": "user", "content": "count slowly"]]

    /// The surfaces with a body that streams, and how each one's error event starts.
    static let surfaces: [(path: String, body: JSONValue, errorMarker: String, endMarker: String)] = [
        ("/v1/chat/completions", ["model": "auto", "stream": true, "messages": messages], "data: {\"error\":", "data: [DONE]"),
        ("/v1/messages", ["model": "auto", "max_tokens": 100, "stream": true, "messages": messages], "event: error", "event: message_stop"),
        ("/v1/agent", ["messages": messages], "event: run.failed", "event: run.completed"),
    ]

    @Test(arguments: [0, 1, 2])
    func revokingMidStreamEndsItWithTheSurfacesErrorEvent(_ index: Int) async throws {
        let surface = Self.surfaces[index]
        // 60 chunks, one every 100 ms: unstopped, the stream would run for 6 s.
        let h = try AgentGatewayHarness(skills: [], upstream: AgentUpstream(tool: "none", slowText: (60, .milliseconds(100))))
        let tokens = h.gateway.services.tokens
        let (body, afterRevocation) = try await Self.stream(h, surface.path, surface.body) { try tokens.revoke(name: "agent-test") }
        await h.stop()
        #expect(body.contains(surface.errorMarker), "\(surface.path): \(body.suffix(400))")
        #expect(body.contains("revoked"))
        #expect(!body.contains(surface.endMarker))
        #expect(afterRevocation < .milliseconds(2500), "\(surface.path) ended \(afterRevocation) after the revocation")
        let log = try #require(h.logLines().last)
        #expect(log["error"]?.stringValue?.contains("revoked") == true)
        // A stream that ended in an error: a warning with that outcome, though its status was 200.
        #expect(log["status"]?.intValue == 200)
        #expect(log["level"]?.stringValue == "warn")
        #expect(log["outcome"]?.stringValue == "authentication")
    }

    /// `skillgate tokens revoke` runs in another process: the gateway sees it when its 2 s cache
    /// entry expires, and the stream stops at the next check after that.
    @Test func aRevocationByAnotherProcessStopsTheStreamToo() async throws {
        let h = try AgentGatewayHarness(skills: [], upstream: AgentUpstream(tool: "none", slowText: (80, .milliseconds(100))))
        let cli = try GatewayServer.openTokenService(config: try GatewayConfig.load(path: h.directory + "/skillgate.json"))
        let surface = Self.surfaces[0]
        let (body, afterRevocation) = try await Self.stream(h, surface.path, surface.body) { try cli.revoke(name: "agent-test") }
        await h.stop()
        #expect(body.contains(surface.errorMarker) && body.contains("revoked"))
        #expect(!body.contains(surface.endMarker))
        #expect(afterRevocation < .milliseconds(4500), "ended \(afterRevocation) after the revocation")
    }

    @Test(arguments: [0, 1, 2])
    func revokingMidAgentRunStopsBeforeTheNextStep(_ index: Int) async throws {
        let revoke = Mutex<(@Sendable () -> Void)?>(nil)
        // The skill revokes the caller's token while it runs (like an operator at that moment).
        let skill = TestSkill("revoker") { _ in
            revoke.withLock { $0 }?()
            return SkillResult(text: "done")
        }
        let h = try AgentGatewayHarness(skills: [skill], upstream: AgentUpstream(tool: "revoker"))
        let tokens = h.gateway.services.tokens
        revoke.withLock { $0 = { _ = try? tokens.revoke(name: "agent-test") } }
        let surface = Self.surfaces[index]
        let r = try await h.post(surface.path, surface.body)
        await h.stop()
        #expect(skill.runs.count == 1)
        #expect(h.upstream.requests.count == 1, "no model call after the revocation")
        #expect(r.body.contains(surface.errorMarker), "\(surface.path): \(r.body.suffix(400))")
        #expect(r.body.contains("revoked"))
        #expect(!r.body.contains(surface.endMarker))
        if surface.path == "/v1/agent" {
            let names = AgentGatewayHarness.events(r.body).map(\.name)
            #expect(names == ["run.started", "route.selected", "skill.started", "skill.finished", "run.failed"])
        }
    }

    /// Streams `body` to `path`; once the first text arrived, runs `revoke`. Returns the whole body
    /// and how long the stream went on after the revocation.
    static func stream(_ h: AgentGatewayHarness, _ path: String, _ body: JSONValue,
                       revoke: () throws -> Void) async throws -> (body: String, afterRevocation: Duration) {
        let headers: HTTPHeaders = ["authorization": "Bearer \(h.token)", "content-type": "application/json"]
        let response = try await h.client.stream(HTTPRequest(url: "http://127.0.0.1:\(h.gateway.boundPort)\(path)", headers: headers,
                                                             body: body.serializedBytes()))
        #expect(response.status == 200)
        var bytes: [UInt8] = [], revokedAt: ContinuousClock.Instant?
        for try await chunk in response.body {
            bytes += chunk
            if revokedAt == nil, String(decoding: bytes, as: UTF8.self).contains("tick") {
                try revoke()
                revokedAt = .now
            }
        }
        return (String(decoding: bytes, as: UTF8.self), revokedAt.map { .now - $0 } ?? .seconds(999))
    }
}
