import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// The ledger's running totals count a request against requests per minute exactly when the live counters did: when it
/// was admitted against its limits (decision 0146). So what the gateway reads back (every second, after a restart, and
/// in the other instances on one database) agrees with what it counted. Before, the totals counted every row but the
/// `rate_limited` ones: requests refused before admission (unreadable, out of scope) used a token's minute once read
/// back, and requests the provider refused with its own 429 (admitted, and counted live) were forgotten after a restart.
@Suite struct AdmittedRequestsInTheLedgerTests {
    @Test func theTotalsCountWhatWasAdmitted() async throws {
        let upstream = try UpstreamDouble([OpenAIRecordings.rateLimited(retryAfter: "1")])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"], resilience: #"{"max_attempts":1}"#)
        let tokens = gateway.server.services.tokens
        _ = try tokens.updateLimits(name: "resilience-test", TokenLimits(requestsPerMinute: 50))
        let tokenId = try #require(tokens.authenticate(gateway.token)?.id)
        let minute = LimitWindows.minuteStart(LimitWindows.minute(Date()))

        let unreadable = try await gateway.send(Array("{".utf8))
        let outOfScope = try await gateway.http.send(HTTPRequest(
            method: "POST", url: gateway.url,
            headers: ["authorization": "Bearer \(gateway.token)", "content-type": "application/json", "x-skillgate-scenario": "nope"],
            body: ResilienceGateway.body(model: "light")))
        var refusedByTheProvider: [Int] = []
        for _ in 0..<3 { refusedByTheProvider.append(try await gateway.send(ResilienceGateway.body(model: "light")).status) }
        await gateway.server.flushLedger()
        let totals = try tokens.store.usageSummary(tokenId: tokenId, since: minute)
        await gateway.stop()
        await upstream.stop()
        #expect(unreadable.status == 400 && outOfScope.status == 404)
        #expect(refusedByTheProvider == [429, 429, 429])
        #expect(totals.requests == 3, "the totals count \(totals.requests) requests; the gateway admitted 3")
    }
}
