import Foundation
import SkillGateState
@testable import SkillGateServer

/// What `gateway`'s ledger holds of every token's requests, flushed and read again until it holds a request or
/// `deadline` passes: a request is accounted for a moment after its client and its upstream saw it end.
func ledgerSpend(of gateway: GatewayServer, until deadline: ContinuousClock.Instant) async throws -> UsageSummary {
    var spent = UsageSummary()
    while true {
        await gateway.flushLedger()
        spent = try gateway.services.tokens.store.usageSummary(tokenId: nil, since: Date(timeIntervalSince1970: 0))
        if spent.requests > 0 || ContinuousClock.now >= deadline { return spent }
        try await Task.sleep(for: .milliseconds(20))
    }
}
