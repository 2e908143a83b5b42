extension GatewayError {
    /// An answer a provider sent with success that is no answer: the model failed to produce what it set out to (a
    /// function call Gemini could not form, decision 0117; a prompt-tools call the gateway cannot read, decision 0120),
    /// so the attempt failed although the deployment is up.
    ///
    /// It says nothing about the deployment's health: the same request may succeed on the next attempt (the failure is
    /// the model's, at random), and depends on the request (its tool schemas), not on the deployment's load or keys.
    public struct FailedAnswer: Sendable, Hashable {
        /// Why the answer was a failed attempt.
        public enum Reason: String, Sendable, Hashable {
            /// The model's function call could not be read (Gemini `MALFORMED_FUNCTION_CALL`).
            case malformedFunctionCall = "malformed_function_call"
            /// The model called a tool in a way the request did not allow (Gemini `UNEXPECTED_TOOL_CALL`).
            case unexpectedToolCall = "unexpected_tool_call"
            /// The model's answer was malformed (Gemini `MALFORMED_RESPONSE`).
            case malformedResponse = "malformed_response"
            /// A model without native tool calling wrote `<tool_call>` tags around something that is not a readable call
            /// (the prompt-tools adapter, decision 0120).
            case malformedToolCall = "malformed_tool_call"
        }

        public var reason: Reason
        /// What the attempt used, as the provider reported it (it is billed like any answer), or as estimated when it
        /// had reported nothing yet (`usageEstimated`).
        public var usage: Usage
        /// Whether `usage` is an estimate from the text sent and read (a stream given up before its usage came, decision
        /// 0104), not the provider's figure.
        public var usageEstimated: Bool

        public init(reason: Reason, usage: Usage = Usage(), usageEstimated: Bool = false) {
            self.reason = reason
            self.usage = usage
            self.usageEstimated = usageEstimated
        }
    }

    /// A failed answer from `provider` (502 `upstream_error`, provider domain); `message` says what happened and what
    /// to do next.
    public static func failedAnswer(_ reason: FailedAnswer.Reason, usage: Usage, message: String, provider: String?,
                                    upstreamCode: String? = nil) -> GatewayError {
        var e = GatewayError(domain: .provider, kind: .upstreamError, status: 502, message: message, provider: provider,
                             upstreamCode: upstreamCode)
        e.failedAnswer = FailedAnswer(reason: reason, usage: usage)
        return e
    }

    /// The `code` a client reads in an OpenAI- or Responses-shaped error body: a failed answer's reason
    /// (`malformed_function_call`), else the kind (`upstream_error`).
    public var clientCode: String { failedAnswer?.reason.rawValue ?? kind.rawValue }
}
