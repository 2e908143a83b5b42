import SkillGateCore
import SkillGateState
import Synchronization

/// Re-checks the caller's token while its answer runs, so a revocation stops streams and agent
/// runs already under way, not only new requests (decision 0023).
///
/// `check()` asks `TokenService.stillValid` at once (between agent steps); `checkIfDue()` asks
/// at most once per `interval` and otherwise costs a clock read and an uncontended lock (per stream chunk or agent
/// event). The service caches lookups (2 s in the gateway), so a check is a dictionary lookup
/// most of the time; when the cache cannot tell, the store is read off the event loop and the check awaits it. A revoked token throws `TokenRecheck.revoked`, which the surfaces send as
/// their error event before closing the stream.
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
    /// the cache cannot tell (decision 0086).
    func check() async throws(GatewayError) {
        lastChecked.withLock { $0 = .now }
        guard await tokens.stillValid(grant) else { throw Self.revoked }
    }

    /// `check()` when `interval` has passed since the last check; else nothing.
    func checkIfDue() async throws(GatewayError) {
        guard isDue() else { return }
        guard await tokens.stillValid(grant) else { throw Self.revoked }
    }

    /// Whether `interval` has passed since the last check; if so, this one counts as the last.
    private func isDue() -> Bool {
        let now = ContinuousClock.Instant.now
        return lastChecked.withLock { last in
            guard now - last >= interval else { return false }
            last = now
            return true
        }
    }

    /// The error a stopped answer ends with (in the surface's error-event shape).
    static let revoked = GatewayError(domain: .policy, kind: .authentication, status: 401,
                                      message: "the SkillGate token of this request was revoked while the answer ran, so it was stopped; ask the operator for a valid token (`skillgate tokens list` shows the active ones)")
}
