extension SkillGateClient {
    /// `POST /v1/agent`: the agent run's events as they happen — `run.started`, a
    /// `route.selected` per model call, `skill.started`/`skill.finished` per server-side skill,
    /// `text.delta`s, `tool.call`s, and last `run.completed` or `run.failed`.
    ///
    /// A failure after the run started is the `runFailed` event, not an error. The stream throws
    /// `SkillGateClientError` when the request is refused (401, 403, 400, …), the gateway cannot be
    /// reached, or the events are not readable. Events of names this library does not know are
    /// skipped. Cancelling the consuming task (or leaving the loop) cancels the HTTP request, and
    /// the gateway stops the run: its model call and skills are cancelled.
    public func agent(_ request: AgentRequest) -> AsyncThrowingStream<AgentEvent, any Error> {
        do {
            return decodedStream(try self.request("v1/agent", body: request, accept: "text/event-stream"), AgentEventDecoding())
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }
}
