import SkillGateCore

extension GeminiFormat {
    /// The Gemini finish reasons that make an answer a failed attempt rather than an answer (decision 0117): the model
    /// set out to call a function, or to answer in a required form, and failed; the candidate usually has no content.
    /// A retry of the same request may well succeed. Safety stops (`SAFETY`, `RECITATION`, `BLOCKLIST`, ...) are
    /// answers (`contentFilter`), and `OTHER`, `LANGUAGE`, `TOO_MANY_TOOL_CALLS`, `MISSING_THOUGHT_SIGNATURE` and
    /// reasons not known yet are kept verbatim, as before.
    static func failedAnswerReason(_ raw: String) -> GatewayError.FailedAnswer.Reason? {
        switch raw {
        case "MALFORMED_FUNCTION_CALL": .malformedFunctionCall
        case "UNEXPECTED_TOOL_CALL": .unexpectedToolCall
        case "MALFORMED_RESPONSE": .malformedResponse
        default: nil
        }
    }

    /// The error of an answer that ended with the failed-answer finish reason `raw` (`reason`), having used `usage`.
    static func failedAnswer(_ reason: GatewayError.FailedAnswer.Reason, raw: String, usage: Usage, provider: String) -> GatewayError {
        let what: String, advice: String
        switch reason {
        case .malformedFunctionCall, .malformedToolCall:  // the second is the prompt-tools adapter's, never Gemini's
            what = "the model could not produce a valid function call"
            advice = "simplify the tool schemas (fewer and flatter parameters, shorter string arguments)"
        case .unexpectedToolCall:
            what = "the model called a tool in a way the request does not allow"
            advice = "check that the request offers every tool the conversation calls and that tool_choice allows calling them"
        case .malformedResponse:
            what = "the model's answer was malformed"
            advice = "simplify the requested response format"
        }
        return .failedAnswer(
            reason, usage: usage,
            message: "Gemini (provider '\(provider)') ended its answer with finish reason \(raw): \(what), and gave no usable answer. "
                + "Retry the request; if it keeps happening, \(advice), or ask the operator to route the scenario to another model.",
            provider: provider, upstreamCode: raw)
    }
}
