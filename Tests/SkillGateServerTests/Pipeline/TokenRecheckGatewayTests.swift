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
        let run = try await Self.streamRevokedAfterThreeTicks(surface.path, surface.body) { h in
            let tokens = h.gateway.services.tokens
            return { try tokens.revoke(name: "agent-test") }
        }
        #expect(run.body.contains(surface.errorMarker), "\(surface.path): \(run.body.suffix(400))")
        #expect(run.body.contains("revoked"))
        #expect(!run.body.contains(surface.endMarker))
        #expect(run.ticks < 60, "\(surface.path) relayed the whole stream")
        #expect(run.afterRevocation < .milliseconds(2500), "\(surface.path) went on \(run.afterRevocation) after the revocation")
        let log = try #require(run.log)
        #expect(log["error"]?.stringValue?.contains("revoked") == true)
        // A stream that ended in an error: a warning with that outcome, though its status was 200.
        #expect(log["status"]?.intValue == 200)
        #expect(log["level"]?.stringValue == "warn")
        #expect(log["outcome"]?.stringValue == "authentication")
    }

    /// A token revoked before the stream's first event arrived (a second and more after the request was authenticated,
    /// so the re-check is due at that event): the stream ends at its first event with the surface's error event (or
    /// before it, by the sweep of decision 0141), and none of the upstream's text reaches the client (the first event is
    /// relayed from the request's setup, decision 0063).
    @Test(arguments: [0, 1])
    func aTokenRevokedBeforeTheFirstEventEndsTheStreamThere(_ index: Int) async throws {
        let surface = Self.surfaces[index]
        let revoke = Mutex<(@Sendable () -> Void)?>(nil)
        let upstream = AgentUpstream(tool: "none", slowText: (5, .milliseconds(10)), firstEventDelay: .milliseconds(1300),
                                     beforeFirstEvent: { revoke.locked { $0 }?() })
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        let tokens = h.gateway.services.tokens
        revoke.locked { $0 = { _ = try? tokens.revoke(name: "agent-test") } }
        let response = try await h.post(surface.path, surface.body)
        await h.stop()
        let log = await h.logLines().last
        // Stopped at its first event (200, the error event), or before it by the once-a-second sweep of decision 0141 (the
        // surface's 401): either way nothing of the upstream's text reached the client.
        let atFirstEvent = response.status == 200 && response.body.contains(surface.errorMarker)
        let beforeIt = response.status == 401
        #expect((atFirstEvent || beforeIt) && response.body.contains("revoked"), "\(surface.path): \(response.status) \(response.body.suffix(400))")
        #expect(!response.body.contains("tick") && !response.body.contains(surface.endMarker))
        #expect(log?["error"]?.stringValue?.contains("revoked") == true)
        #expect(log?["outcome"]?.stringValue == "authentication")
    }

    /// `skillgate tokens revoke` runs in another process: the gateway sees it when its 2 s cache
    /// entry expires, and the stream stops at the next check after that.
    @Test func aRevocationByAnotherProcessStopsTheStreamToo() async throws {
        let surface = Self.surfaces[0]
        let run = try await Self.streamRevokedAfterThreeTicks(surface.path, surface.body) { h in
            let cli = try GatewayServer.openTokenService(config: try GatewayConfig.load(path: h.directory + "/skillgate.json"))
            return { try cli.revoke(name: "agent-test") }
        }
        #expect(run.body.contains(surface.errorMarker) && run.body.contains("revoked"))
        #expect(!run.body.contains(surface.endMarker))
        #expect(run.afterRevocation < .milliseconds(4500), "went on \(run.afterRevocation) after the revocation")
    }

    @Test(arguments: [0, 1, 2])
    func revokingMidAgentRunStopsBeforeTheNextStep(_ index: Int) async throws {
        // The skill revokes the caller's token while it runs (like an operator at that moment).
        let (h, skill) = try AgentGatewayHarness.revokingMidRun()
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

    /// What a revoked stream did: the body the client got, how many text deltas it held, how long the gateway went on
    /// after the revocation (until the upstream saw it leave), and the request's log line.
    struct RevokedRun {
        var body: String
        var ticks: Int
        var afterRevocation: Duration
        var log: JSONValue?
    }

    /// Streams `body` to `path` from an upstream that sends 80 deltas ("tick "), one every 100 ms (8 s unstopped), and
    /// runs the revocation `makeRevoke` returns right after the third. The upstream revokes, not the test's reader, so
    /// a reader that is slow to get its bytes (a loaded parallel run) cannot let the whole stream through first.
    /// `beforeStop` sees the gateway after the stream ended, before it stops.
    static func streamRevokedAfterThreeTicks(_ path: String, _ body: JSONValue,
                                             makeRevoke: (AgentGatewayHarness) throws -> @Sendable () throws -> Void,
                                             beforeStop: (AgentGatewayHarness) async throws -> Void = { _ in }) async throws -> RevokedRun {
        let revoke = Mutex<(@Sendable () throws -> Void)?>(nil)
        let revokedAt = Mutex<ContinuousClock.Instant?>(nil)
        let upstream = AgentUpstream(tool: "none", slowText: (80, .milliseconds(100))) { tick in
            guard tick == 3, let run = revoke.locked({ $0 }) else { return }
            try? run()
            revokedAt.locked { $0 = .now }
        }
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        revoke.locked { $0 = try? makeRevoke(h) }
        let response = try await h.post(path, body)
        let inspected: (any Error)?
        do { try await beforeStop(h); inspected = nil } catch { inspected = error }
        await h.stop()
        if let inspected { throw inspected }
        #expect(response.status == 200)
        let revoked = try #require(revokedAt.locked { $0 }, "the upstream never revoked the token: \(response.body.suffix(400))")
        let left = try #require(upstream.disconnectedAt, "the gateway never left the upstream's stream")
        return RevokedRun(body: response.body, ticks: response.body.components(separatedBy: "tick").count - 1,
                          afterRevocation: left - revoked, log: await h.logLines().last)
    }
}
