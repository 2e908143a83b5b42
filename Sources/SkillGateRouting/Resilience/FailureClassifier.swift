import SkillGateCore

/// Which upstream failures make SkillGate try again, and which count against a deployment's health.
public enum FailureClassifier {
    /// Whether the next deployment of the plan (or the same one later) may succeed: connect errors,
    /// timeouts before the first byte, 429, 5xx, "overloaded" (`GatewayError.isRetryable`); a provider
    /// that refused the gateway itself, its key or the catalog's model id (`GatewayError.refusal`); and a
    /// provider whose key is missing from the key store (503 `upstream_unavailable`, gateway domain).
    /// The last two do not depend on the deployment alone, and another deployment may not share them. And an answer
    /// that was a failed attempt (`GatewayError.failedAnswer`, Gemini's `MALFORMED_FUNCTION_CALL`): the model failed at
    /// random, and the same deployment or another may answer the same request (decision 0117).
    public static func movesOn(_ error: GatewayError) -> Bool {
        error.isRetryable || isRefusal(error) || (error.kind == .upstreamUnavailable && error.domain == .gateway)
            || isFailedAnswer(error)
    }

    /// Whether the failure says the deployment itself is unhealthy (and counts towards a cooldown): a
    /// retryable provider failure, or a provider refusing the gateway's key or model id (every request
    /// would be refused the same way until the operator fixes it). A missing key is configuration the
    /// gateway knows without asking; any other 4xx means the deployment answered a bad request, and a failed answer
    /// that it answered (decision 0117). A call that timed out waiting for a free pooled connection never reached the
    /// deployment (`GatewayError.timedOutWaitingForAConnection`, decision 0171).
    public static func countsAgainstHealth(_ error: GatewayError) -> Bool {
        (error.isRetryable || isRefusal(error)) && error.domain == .provider && !error.timedOutWaitingForAConnection
    }

    /// Whether the failure shows the deployment up and answering, which is its health's success: a provider's 4xx (the
    /// request was at fault) or a failed answer (the model's failure, which depends on the request's tools, not on
    /// the deployment). Asked of failures that do not count against health.
    public static func showsDeploymentAnswered(_ error: GatewayError) -> Bool {
        error.domain == .provider && (error.upstreamStatus != nil || error.failedAnswer != nil)
    }

    /// Whether trying the same deployment again later in this request cannot help: its key is missing,
    /// or the provider refused its key or model id (backoff would only repeat the refusal).
    public static func excludesDeployment(_ error: GatewayError) -> Bool {
        error.domain == .gateway || isRefusal(error)
    }

    private static func isFailedAnswer(_ error: GatewayError) -> Bool {
        error.failedAnswer != nil && error.domain == .provider
    }

    private static func isRefusal(_ error: GatewayError) -> Bool {
        error.refusal != nil && error.domain == .provider
    }
}
