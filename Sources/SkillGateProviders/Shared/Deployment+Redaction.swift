import SkillGateCore

extension Deployment {
    /// `error` without this deployment's API key in any text an upstream could fill (`GatewayError.redacting`).
    /// Other errors pass as they are: transport errors are mapped to `GatewayError` before this, and no other error a
    /// call throws quotes the upstream.
    public func redactingKey(in error: any Error) -> any Error {
        guard let apiKey, let gatewayError = error as? GatewayError else { return error }
        return gatewayError.redacting(apiKey)
    }
}
