import SkillGateCore
import SkillGateProviders
import SkillGateSkills

/// What the execute stage found wrong with an answer that should be re-run on a stronger tier.
struct UnusableAnswer: Sendable, Hashable {
    /// `tool_not_offered`, `invalid_tool_arguments`, `empty_answer`, `malformed_tool_call`, `malformed_function_call`, ...
    var reason: String
    /// The problems in words, for the log's route note.
    var detail: String
}

/// The checks every answer passes before it reaches a client: a call to a tool the model was not
/// shown is never handed on (the invisible-call rule), and, when the call escalates, an unusable
/// answer (invisible call, arguments failing the schema, empty answer, the prompt-tools
/// adapter's `tool_not_offered`, or a failed answer such as Gemini's `malformed_function_call`, decision 0117, or the
/// prompt-tools adapter's `malformed_tool_call`, decision 0120) is reported as `UnusableAnswer`.
///
/// A call to a tool the model was not shown is not tried again when the call does not escalate (decision 0120): a model
/// usually makes it because the conversation shows earlier calls to that tool, or because it was trained on such a
/// tool, and the same request sent again shows it the same conversation and the same tools. Each attempt is billed.
enum AnswerCheck {
    /// Upstream codes of adapter errors that mean "this model cannot use the tools" (a malformed call is a failed
    /// answer, `GatewayError.failedAnswer`, and escalates as one).
    static let unusableCodes: Set<String> = [PromptToolsClient.toolNotOfferedCode]

    /// The adapter error `error` as an unusable answer, when the call escalates for `target`.
    static func unusable(_ error: any Error, target: String?, policy: AnswerPolicy) -> UnusableAnswer? {
        guard let e = error as? GatewayError, let target, policy.escalates(target) else { return nil }
        if let failed = e.failedAnswer { return UnusableAnswer(reason: failed.reason.rawValue, detail: e.message) }
        guard let code = e.upstreamCode, unusableCodes.contains(code) else { return nil }
        return UnusableAnswer(reason: code, detail: e.message)
    }

    /// Checks a whole answer: `nil` when it may go to the client, an `UnusableAnswer` when the call
    /// escalates and it should be re-run; throws a 502 for an invisible call that does not escalate.
    static func check(_ response: ChatResponse, offered: [ToolDefinition], target: RouteTarget, policy: AnswerPolicy) throws(GatewayError) -> UnusableAnswer? {
        let inspector = AnswerInspector(offered: offered)
        if policy.escalates(target.qualifiedName) {
            let problems = inspector.problems(in: response)
            guard let first = problems.first else { return nil }
            return UnusableAnswer(reason: first.code, detail: problems.map(\.description).joined(separator: "; "))
        }
        if !policy.invisibleCallsToModel, case .toolNotOffered(let name, _)? = inspector.invisibleCalls(in: response.content).first {
            throw invisibleCall(name, shown: offered.map(\.name), provider: target.provider.id, scenario: policy.scenario)
        }
        return nil
    }

    /// The 502 for a call to a tool the model was not shown.
    static func invisibleCall(_ name: String, shown names: [String], provider: String, scenario: String) -> GatewayError {
        let shown = names.isEmpty ? "no tools were shown" : "shown: " + names.joined(separator: ", ")
        var e = GatewayError.upstreamProtocol(
            "the model called the tool \"\(name)\", which it was not shown in scenario \"\(scenario)\" (\(shown)); the call was not passed on or run. "
                + "Sent again, the same request would most likely end the same way: if the conversation shows earlier calls to \"\(name)\", "
                + "offer that tool in the request (or ask the operator to add it to the scenario's skill packs); otherwise ask the operator "
                + "to turn on \"escalate\" for the scenario or to route it to a stronger model",
            provider: provider)
        e.upstreamCode = PromptToolsClient.toolNotOfferedCode
        return e
    }
}
