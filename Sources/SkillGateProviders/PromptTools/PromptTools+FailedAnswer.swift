import SkillGateCore

extension PromptToolsClient {
    /// `<tool_call>` tags around something that is not a readable call: a failed answer (decision 0120), which the
    /// executor tries again before the client sees anything, as Gemini's `MALFORMED_FUNCTION_CALL` (decision 0117). The
    /// model set out to call a tool and wrote it wrong, usually at random (a missing brace, a cut string), so the same
    /// request often succeeds when sent again. Its usage is set by the client that read the answer (`withUsage`).
    static func malformedToolCall(_ reason: String, provider: String?) -> GatewayError {
        .failedAnswer(
            .malformedToolCall, usage: Usage(),
            message: "The model wrote a <tool_call> block that is not a readable call (\(reason)), and gave no usable answer. "
                + "Retry the request; if it keeps happening, simplify the tool schemas (fewer and flatter parameters, shorter "
                + "string arguments), or ask the operator to route the scenario to a model with native tool calling or one "
                + "that follows the tool-call format more reliably.",
            provider: provider, upstreamCode: malformedToolCallCode)
    }

    /// `error` with what its attempt used, when it is the adapter's malformed call; other errors as they are (an inner
    /// model's own failed answer, such as Gemini's, keeps the usage its provider reported).
    static func withUsage(_ error: any Error, _ usage: Usage, estimated: Bool) -> any Error {
        guard var e = error as? GatewayError, e.failedAnswer?.reason == .malformedToolCall else { return error }
        e.failedAnswer?.usage = usage
        e.failedAnswer?.usageEstimated = estimated
        return e
    }
}
