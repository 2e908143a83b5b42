import SkillGateClient

/// Starts `/v1/agent` runs. The real one is `SkillGateClient`; tests give scripted event streams.
public protocol AgentTransport: Sendable {
    /// The events of the run `request` starts. Iterating throws `SkillGateClientError` (or, from
    /// test doubles, `AgentRequestError`) when the request failed; cancelling the iterating task
    /// stops the run.
    func run(_ request: AgentRequest) -> AsyncThrowingStream<AgentEvent, any Error>
}

extension SkillGateClient: AgentTransport {
    public func run(_ request: AgentRequest) -> AsyncThrowingStream<AgentEvent, any Error> {
        agent(request)
    }
}
