import SkillGateCore
import SkillGateProviders
import SkillGateSkills

/// The answer checks in force for the model calls of one request (set by the chat pipeline).
struct AnswerCheckScope: Sendable {
    /// The targets (`provider/model`) of the escalation plan; `nil` = no escalation (only the
    /// invisible-call rule). An answer from one of them is never escalated (it would re-run on itself).
    var escalationTargets: Set<String>?
    var scenario: String
    /// In an agent run, a call to a tool the model was not shown goes back to the model as an
    /// error result (the loop's job) instead of failing the request.
    var invisibleCallsToModel = false

    /// The scope of the current request's task; `nil` outside a chat request.
    @TaskLocal static var current: AnswerCheckScope?
}

/// Wraps every upstream client (see `ClientFactory`). It enforces the invisible-call rule: a tool
/// call to a tool the model was not shown (not in `request.tools`) is never handed on. And when the
/// request's scenario escalates and this model is not in the escalation plan, an unusable answer
/// (invisible call, arguments failing the schema, empty answer, or the prompt-tools adapter's
/// `tool_not_offered` / `malformed_tool_call`) becomes an escalation signal, before anything
/// reached the client. Streams are then buffered whole to be checked (latency: the first byte
/// waits for the light model's complete answer; see docs/decisions/0007).
struct AnswerGuardClient: LLMClient {
    let inner: any LLMClient
    /// The answering model.
    let target: RouteTarget
    private var provider: String { target.provider.id }

    /// `GatewayError.upstreamCode` of an unusable answer that should be re-run on a stronger tier.
    static let escalationCode = "escalation_required"
    /// Upstream codes of adapter errors that mean "this model cannot use the tools".
    static let unusableCodes: Set<String> = [PromptToolsClient.toolNotOfferedCode, PromptToolsClient.malformedToolCallCode]

    private var escalates: Bool {
        guard let targets = AnswerCheckScope.current?.escalationTargets else { return false }
        return !targets.contains(target.qualifiedName)
    }

    func complete(_ request: ChatRequest) async throws -> ChatResponse {
        let escalates = self.escalates
        let response: ChatResponse
        do { response = try await inner.complete(request) } catch let e as GatewayError where escalates && Self.unusableCodes.contains(e.upstreamCode ?? "") {
            throw escalation(e.upstreamCode ?? "unusable", e.message)
        }
        try check(response, offered: request.tools, escalates: escalates)
        return response
    }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error> {
        let escalates = self.escalates
        let passInvisible = AnswerCheckScope.current?.invisibleCallsToModel == true
        let inner = self.inner
        let guardClient = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let inspector = AnswerInspector(offered: request.tools)
                    if escalates {
                        var events: [ChatStreamEvent] = []
                        var acc = ChatResponseAccumulator()
                        do {
                            for try await event in inner.stream(request) { events.append(event); acc.apply(event) }
                        } catch let e as GatewayError where Self.unusableCodes.contains(e.upstreamCode ?? "") {
                            throw guardClient.escalation(e.upstreamCode ?? "unusable", e.message)
                        }
                        try guardClient.check(acc.response, offered: request.tools, escalates: true)
                        for event in events { continuation.yield(event) }
                    } else {
                        for try await event in inner.stream(request) {
                            if case .toolCallStart(_, let id, let name) = event, !passInvisible, !inspector.isOffered(name) {
                                throw guardClient.invisibleCall(name, id: id, offered: request.tools)
                            }
                            continuation.yield(event)
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Throws for an invisible call (always) and, when escalating, for any problem.
    private func check(_ response: ChatResponse, offered: [ToolDefinition], escalates: Bool) throws(GatewayError) {
        let inspector = AnswerInspector(offered: offered)
        if escalates {
            let problems = inspector.problems(in: response)
            if let first = problems.first {
                throw escalation(first.code, problems.map(\.description).joined(separator: "; "))
            }
        } else if AnswerCheckScope.current?.invisibleCallsToModel != true,
                  case .toolNotOffered(let name, let id)? = inspector.invisibleCalls(in: response.content).first {
            throw invisibleCall(name, id: id, offered: offered)
        }
    }

    func escalation(_ code: String, _ detail: String) -> GatewayError {
        var e = GatewayError.upstreamProtocol("the answer of \(target.qualifiedName) was unusable (\(detail)); it is re-run on the escalation tier", provider: provider)
        e.upstreamCode = Self.escalationCode
        e.param = code
        return e
    }

    func invisibleCall(_ name: String, id: String, offered: [ToolDefinition]) -> GatewayError {
        let scenario = AnswerCheckScope.current.map { " in scenario \"\($0.scenario)\"" } ?? ""
        let shown = offered.isEmpty ? "no tools were shown" : "shown: " + offered.map(\.name).joined(separator: ", ")
        var e = GatewayError.upstreamProtocol(
            "the model called the tool \"\(name)\", which it was not shown\(scenario) (\(shown)); the call was not passed on or run. "
                + "Retry the request, or ask the operator to turn on \"escalate\" for the scenario or to route it to a stronger model",
            provider: provider)
        e.upstreamCode = PromptToolsClient.toolNotOfferedCode
        return e
    }
}
