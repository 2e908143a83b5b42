import SkillGateCore
import SkillGateState
import Synchronization

/// Re-checks the caller's token while its answer runs, so a revocation stops streams and agent
/// runs already under way, not only new requests (decisions 0023, 0142).
///
/// `check()` (between agent steps) asks `TokenService.currentStanding` at once: the cache where the caller runs, the
/// store off the event loop when the cache cannot tell. `checkIfDue()` (per stream chunk or agent event) asks at most
/// once per `interval`, and only the cache: a clock read and an uncontended lock, never a wait on the store. When the
/// cache cannot tell, `RevocationWatch`'s once-a-second sweep reads the store off the request's path and stops the
/// answer if the token was revoked. A revoked token throws `TokenRecheck.revoked`, which the surfaces send as their
/// error event before closing the stream. A store that cannot be read stops nothing (`TokenStanding.unknown`): a
/// database outage must not end every answer under way with a false "revoked".
final class TokenRecheck: Sendable {
    private let tokens: TokenService
    /// What authenticated the request (the token's record and digest).
    let grant: TokenGrant
    private let interval: Duration
    private let lastChecked: Mutex<ContinuousClock.Instant>

    init(tokens: TokenService, grant: TokenGrant, interval: Duration = .seconds(1)) {
        self.tokens = tokens
        self.grant = grant
        self.interval = interval
        lastChecked = Mutex(.now)
    }

    /// Throws `revoked` when the token is no longer valid. Awaits the store (off the caller's event loop) only when
    /// the cache cannot tell (decision 0086); runs on when the store cannot be read either.
    func check() async throws(GatewayError) {
        lastChecked.locked { $0 = .now }
        if await tokens.currentStanding(of: grant) == .revoked { throw Self.revoked }
    }

    /// Throws `revoked` when `interval` has passed since the last check and the token service's cache holds the token
    /// as revoked; else nothing. Never reads the store (the revocation sweep does, decision 0142).
    func checkIfDue() throws(GatewayError) {
        guard isDue() else { return }
        if tokens.cachedStanding(of: grant) == .revoked { throw Self.revoked }
    }

    /// Whether `interval` has passed since the last check; if so, this one counts as the last.
    private func isDue() -> Bool {
        let now = ContinuousClock.Instant.now
        return lastChecked.locked { last in
            guard now - last >= interval else { return false }
            last = now
            return true
        }
    }

    /// The token's limits as the token cache holds its record now: a change through any process (`skillgate tokens
    /// update`) is seen within the cache's lifetime (decision 0150); the limits it was authenticated with when the cache
    /// holds no answer (the store unreadable) or holds a revocation (which `check` reports).
    var currentLimits: TokenLimits { tokens.cachedLimits(of: grant) ?? grant.token.limits }

    /// The error a stopped answer ends with (in the surface's error-event shape).
    static let revoked = GatewayError(domain: .policy, kind: .authentication, status: 401,
                                      message: "the SkillGate token of this request was revoked while the answer ran, so it was stopped; ask the operator for a valid token (`skillgate tokens list` shows the active ones)")
}
