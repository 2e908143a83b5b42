import SkillGateCore

/// Which upstream failures make SkillGate try again, and which count against a deployment's health.
public enum FailureClassifier {
    /// Whether the next deployment of the plan (or the same one later) may succeed: connect errors,
    /// timeouts before the first byte, 429, 5xx, "overloaded" (`GatewayError.isRetryable`), and a
    /// provider whose key is missing from the key store (503 `upstream_unavailable`, gateway domain),
    /// which another deployment may not need.
    public static func movesOn(_ error: GatewayError) -> Bool {
        error.isRetryable || (error.kind == .upstreamUnavailable && error.domain == .gateway)
    }

    /// Whether the failure says the deployment itself is unhealthy (and counts towards a cooldown).
    /// A missing key is configuration, not health; a 4xx means the deployment answered.
    public static func countsAgainstHealth(_ error: GatewayError) -> Bool {
        error.isRetryable && error.domain == .provider
    }
}
