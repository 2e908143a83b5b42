import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// A gateway whose PostgreSQL hangs rather than refuses (decision 0163): a request that needs the database — a
/// response continued by `previous_response_id`, a stored response retrieved — gets the 503 of an unreadable state
/// database within the store's answer timeout (`state.query_timeout_seconds`, 1 s here) and a reconnection attempt,
/// and the gateway stops at once afterwards. Before, each such request waited for as long as the database hung (here
/// until the hop let its bytes go, 30 s later), holding the store's lock for every other reader.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct HungDatabaseGatewayTests {
    @Test func requestsThatNeedTheDatabaseGetA503WhileItHangs() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let hop = try PostgresCommitInterceptor(upstreamPort: UInt16(try #require(URLComponents(string: db.url)?.port)))
        defer {
            hop.stall(false)
            hop.stop()
        }
        let h = try TeamHarness(extraConfig: #","state":{"postgres_url":"\#(hop.url(through: db.url))","query_timeout_seconds":1}"#, start: nil)
        let first = try await h.post("/v1/responses", #"{"model":"light","input":"Hi"}"#)
        let id = try #require(try JSONValue.parse(first.body)["id"]?.stringValue, "\(first.status) \(first.body)")
        try await offThePool { h.server.services.responses.flush() }

        hop.stall(true)
        // Goes on by itself 30 s later, so a gateway without the bound fails this test rather than hanging it.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 30)
            hop.stall(false)
        }
        let started = ContinuousClock.now
        let chained = try await h.post("/v1/responses", #"{"model":"light","input":"Again","previous_response_id":"\#(id)"}"#)
        let chainedTook = ContinuousClock.now - started
        let retrieved = try await h.get("/v1/responses/\(id)")
        let bothTook = ContinuousClock.now - started
        hop.stall(false)
        let stopping = ContinuousClock.now
        await h.stop()
        let stopTook = ContinuousClock.now - stopping

        let chainedBody = String(decoding: chained.body, as: UTF8.self)
        // The archive's read (or, on a loaded machine whose token cache expired meanwhile, the token's) could not be made.
        #expect(chained.status == 503, "\(chained.status) \(chainedBody)")
        #expect(retrieved.status == 503, "\(retrieved.status) \(String(decoding: retrieved.body, as: UTF8.self))")
        // Bounds far from both sides: 1 s answer timeout, 5 s connect timeout, against 30 s held.
        #expect(chainedTook < .seconds(15), "the chained request waited \(chainedTook)")
        #expect(bothTook < .seconds(25), "the two requests waited \(bothTook)")
        #expect(stopTook < .seconds(20), "the gateway took \(stopTook) to stop")
    }
}
