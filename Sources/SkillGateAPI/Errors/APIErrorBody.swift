/// An error answer in the OpenAI shape, `{"error":{"type","message","param","code"}}`: what
/// SkillGate sends with a non-2xx status on `/v1/chat/completions` and `/v1/agent`, and, inside a
/// stream, after the stream started.
public struct APIErrorBody: Codable, Sendable, Hashable {
    public var error: Detail

    public init(error: Detail) {
        self.error = error
    }

    /// What went wrong.
    public struct Detail: Codable, Sendable, Hashable {
        /// The error class: `invalid_request_error`, `authentication_error`, `permission_error`,
        /// `rate_limit_error`, `upstream_error`, `timeout_error`, `server_error`.
        public var type: String
        /// What happened and what to do about it, written for a person.
        public var message: String
        /// The request field at fault (`model`, `messages`), when one is.
        public var param: String?
        /// A machine-readable reason (SkillGate: `invalid_request`, `permission`, `rate_limited`, …).
        public var code: String?
        /// The provider that failed, for upstream errors (a SkillGate addition).
        public var provider: String?
        /// The provider's own HTTP status, for upstream errors (a SkillGate addition).
        public var upstreamStatus: Int?

        public init(type: String, message: String, param: String? = nil, code: String? = nil,
                    provider: String? = nil, upstreamStatus: Int? = nil) {
            self.type = type
            self.message = message
            self.param = param
            self.code = code
            self.provider = provider
            self.upstreamStatus = upstreamStatus
        }

        enum CodingKeys: String, CodingKey {
            case type, message, param, code, provider
            case upstreamStatus = "upstream_status"
        }
    }
}
