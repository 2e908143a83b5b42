import SkillGateCore

extension Deployment {
    /// `error` as it leaves an adapter: without this deployment's API key in any text an upstream could fill
    /// (`GatewayError.redacting`), and with the delay the upstream asked for at most
    /// `GatewayError.maxUpstreamRetryAfter`. Other errors pass as they are: transport errors are mapped to
    /// `GatewayError` before this, and no other error a call throws quotes the upstream.
    public func cleaning(_ error: any Error) -> any Error {
        guard var gatewayError = error as? GatewayError else { return error }
        if let retry = gatewayError.retryAfter, retry > GatewayError.maxUpstreamRetryAfter {
            gatewayError.retryAfter = GatewayError.maxUpstreamRetryAfter
        }
        guard let apiKey else { return gatewayError }
        return gatewayError.redacting(apiKey)
    }
}
