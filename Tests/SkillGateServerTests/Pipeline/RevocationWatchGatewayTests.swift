import Foundation
import Synchronization
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// A token revoked while its answer runs stops the answer also while nothing passes through it (decision 0141): the
/// gateway's once-a-second sweep stops it, where the re-check of decision 0023 waited for the next event. Each upstream
/// here stays quiet for 8 s after the revocation, which comes within moments of the request's start; the gateway must
/// end the answer within 6 s of the start, as its log line's `total_ms` says (the test's own clock would also count the
/// wait of the test's task for a thread, which a loaded parallel run makes long).
@Suite(.serialized) struct RevocationWatchGatewayTests {
    static let quiet = Duration.seconds(8)

    /// The surfaces, and how each one's error event starts (the agent surface has only streams).
    static let streamSurfaces: [(path: String, body: JSONValue, errorMarker: String)] = [
        ("/v1/chat/completions", ["model": "auto", "stream": true, "messages": [["role": "user", "content": "count"]]], "data: {\"error\":"),
        ("/v1/messages", ["model": "auto", "max_tokens": 100, "stream": true, "messages": [["role": "user", "content": "count"]]], "event: error"),
        ("/v1/agent", ["messages": [["role": "user", "content": "count"]]], "event: run.failed"),
    ]

    /// The upstream answered one event, then says nothing for 8 s (a reasoning model thinking): the stream ends with the
    /// surface's error event a couple of seconds after the revocation, and the gateway leaves the upstream.
    @Test(arguments: [0, 1, 2])
    func aQuietStreamIsStoppedSoonAfterItsTokenIsRevoked(_ index: Int) async throws {
        let surface = Self.streamSurfaces[index]
        let revoker = TokenRevoker()
        let upstream = AgentUpstream(tool: "none", slowText: (3, Self.quiet), afterTick: { tick in
            if tick == 1 { revoker.revoke() }
        })
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        revoker.arm(h.gateway.services.tokens)
        let response = try await h.post(surface.path, surface.body)
        let watched = h.gateway.services.revocations.count
        await h.stop()
        #expect(revoker.revoked)
        #expect(response.status == 200)
        #expect(response.body.contains(surface.errorMarker) && response.body.contains("revoked"), "\(surface.path): \(response.body.suffix(400))")
        #expect(response.body.components(separatedBy: "tick").count - 1 == 1, "one tick before the quiet")
        #expect(watched == 0, "the stopped answer is no longer watched")
        let log = try #require(await h.logLines().last)
        #expect(log["outcome"]?.stringValue == "authentication" && log["error"]?.stringValue?.contains("revoked") == true, "\(log)")
        Self.expectStoppedEarly(log, surface.path)
    }

    /// Revoked while the stream waits for its first event (nothing has reached the client yet): the answer is the
    /// surface's 401, soon, not after the upstream's first event.
    @Test(arguments: [0, 1])
    func aStreamWaitingForItsFirstEventIsStoppedWithA401(_ index: Int) async throws {
        let surface = Self.streamSurfaces[index]
        let revoker = TokenRevoker()
        let upstream = AgentUpstream(tool: "none", slowText: (3, .milliseconds(10)), firstEventDelay: Self.quiet,
                                     beforeFirstEvent: { revoker.revoke() })
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        revoker.arm(h.gateway.services.tokens)
        let response = try await h.post(surface.path, surface.body)
        await h.stop()
        #expect(revoker.revoked)
        #expect(response.status == 401 && response.body.contains("revoked") && !response.body.contains("tick"), "\(response.status) \(response.body)")
        Self.expectStoppedEarly(await h.logLines().last, surface.path)
    }

    /// A whole answer the upstream takes long to give: a 401 soon after the revocation, and the upstream is left.
    @Test func aWholeAnswerIsStoppedWithA401() async throws {
        let upstream = AgentUpstream(tool: "none", hang: true)
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        let revoker = TokenRevoker()
        revoker.arm(h.gateway.services.tokens)
        let revoking = Task {
            while upstream.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            revoker.revoke()
        }
        let response = try await h.post("/v1/chat/completions", ["model": "auto", "messages": [["role": "user", "content": "think long"]]])
        try await revoking.value
        // The upstream notices the gateway's leaving a moment after the client has its answer.
        let deadline = ContinuousClock.now + .seconds(5)
        while !upstream.sawDisconnect, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let left = upstream.sawDisconnect
        await h.stop()
        #expect(revoker.revoked)
        // Without the sweep the upstream's silence lasts until the total timeout (a 504 after 120 s).
        #expect(response.status == 401 && response.body.contains("revoked"), "\(response.status) \(response.body)")
        #expect(left, "the gateway left the upstream")
    }

    /// Sweeps over the answers of a valid token (every 20 ms here) stop none of them.
    @Test func sweepsStopNoAnswerOfAValidToken() async throws {
        let upstream = AgentUpstream(tool: "none", slowText: (2, .milliseconds(300)))
        let h = try AgentGatewayHarness(skills: [], upstream: upstream)
        let watch = h.gateway.services.revocations
        let sweeps = Task {
            while !Task.isCancelled {
                watch.sweep()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        let response = try await h.post("/v1/chat/completions", Self.streamSurfaces[0].body)
        sweeps.cancel()
        let watched = watch.count
        await h.stop()
        #expect(watched == 0, "answers are let go once accounted for: \(watched) watched")
        #expect(response.body.contains("data: [DONE]") && !response.body.contains("revoked"), "a valid token's stream runs to its end: \(response.body.suffix(300))")
    }

    /// The answer ended within 6 s of the request's start, by the gateway's own account (its log line's `total_ms`);
    /// unstopped, it would have waited for the upstream's 8 s of quiet.
    static func expectStoppedEarly(_ log: JSONValue?, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let total = log?["total_ms"]?.doubleValue ?? .infinity
        #expect(total < 6_000, "\(path) took \(total) ms", sourceLocation: sourceLocation)
    }
}

/// Revokes the harness's token (`agent-test`) when a test or the upstream double says so, from any thread, and
/// remembers whether it did.
final class TokenRevoker: Sendable {
    private let state = Mutex<(tokens: TokenService?, revoked: Bool)>((nil, false))

    /// The service to revoke through, once the harness exists.
    func arm(_ tokens: TokenService) { state.locked { $0.tokens = tokens } }

    func revoke() {
        guard let tokens = state.locked({ $0.tokens }), (try? tokens.revoke(name: "agent-test")) != nil else { return }
        state.locked { $0.revoked = true }
    }

    var revoked: Bool { state.locked { $0.revoked } }
}
