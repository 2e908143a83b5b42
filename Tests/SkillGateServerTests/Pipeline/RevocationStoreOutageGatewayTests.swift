import Foundation
import Synchronization
import Testing
import SkillGateCore
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// A token store that cannot be read stops no answer under way (decision 0142): with the gateway's PostgreSQL gone
/// (every connection cut, new ones refused) while a stream runs, the stream goes on to its end. Neither the re-check
/// at each event (decision 0023) nor the once-a-second sweep (0141) may take a store they cannot read for a
/// revocation; only new requests get the 503 of an unreadable store meanwhile.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct RevocationStoreOutageGatewayTests {
    /// Twelve events 400 ms apart: the outage outlasts the token cache's 2 s lifetime and several sweeps.
    static let events = 12

    @Test(arguments: [0, 1, 2])
    func aStreamRunsToItsEndWhileTheTokenStoreIsDown(_ index: Int) async throws {
        let surface = RevocationWatchGatewayTests.streamSurfaces[index]
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let hop = try PostgresCommitInterceptor(upstreamPort: UInt16(try #require(URLComponents(string: db.url)?.port)))
        defer { hop.stop() }
        let outage = Mutex(false)
        let upstream = AgentUpstream(tool: "none", slowText: (Self.events, .milliseconds(400)), afterTick: { tick in
            guard tick == 1 else { return }
            hop.refuseConnections(true)
            hop.cutOpenConnections()
            outage.locked { $0 = true }
        })
        let h = try AgentGatewayHarness(skills: [], upstream: upstream,
                                        extraConfig: #","state":{"postgres_url":"\#(hop.url(through: db.url))"}"#)
        let response = try await h.post(surface.path, surface.body)
        // A new request meanwhile: the store cannot say whether its token is valid once the cache stops vouching.
        let newRequest = try await h.post("/v1/chat/completions", ["model": "auto", "messages": [["role": "user", "content": "hi"]]])
        hop.refuseConnections(false)  // back, so the shutdown's last ledger write does not wait out its retries
        await h.stop()
        #expect(outage.locked { $0 }, "the database went down during the stream")
        #expect(response.status == 200)
        #expect(response.body.components(separatedBy: "tick").count - 1 == Self.events,
                "\(surface.path): every event came: \(response.body.suffix(400))")
        #expect(!response.body.contains("revoked") && !response.body.contains(surface.errorMarker),
                "\(surface.path): the outage was not taken for a revocation: \(response.body.suffix(400))")
        #expect(newRequest.status == 503, "a new request during the outage: \(newRequest.status) \(newRequest.body)")
    }
}
