import Testing
import SkillGateCore

/// `retryAfter` comes from an upstream's header: whatever it says, what the gateway keeps is a finite number of seconds
/// from 0 to 31 days (a monthly budget's longest wait), so turning it into a `Retry-After` of whole seconds, or a wait, cannot trap.
@Suite struct GatewayErrorRetryAfterTests {
    @Test(arguments: [(Double.infinity, nil), (-.infinity, nil), (.nan, nil), (-5, nil), (1e300, GatewayError.maxRetryAfter),
                      (99_999_999, GatewayError.maxRetryAfter), (0, 0), (1.5, 1.5), (3_600, 3_600), (31 * 86_400, 31 * 86_400)] as [(Double, Double?)])
    func whatAnUpstreamSaysIsKeptFiniteAndWithinAnHour(_ said: Double, _ kept: Double?) {
        let made = GatewayError(domain: .provider, kind: .rateLimited, status: 429, message: "slow down", retryAfter: said)
        #expect(made.retryAfter == kept)
        var set = GatewayError(domain: .provider, kind: .rateLimited, status: 429, message: "slow down")
        set.retryAfter = said
        #expect(set.retryAfter == kept)
        if let kept { #expect(Int(kept.rounded(.up)) >= 0) }
    }
}
