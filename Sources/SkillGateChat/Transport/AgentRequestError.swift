import SkillGateClient

/// A request that failed before or while its events streamed (bad token, unknown model, server
/// down, an unreadable answer), worded for the terminal: what happened and which flag or command helps.
public struct AgentRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status; nil when no error status arrived.
    public var status: Int?
    public var message: String

    public init(status: Int?, message: String) {
        self.status = status
        self.message = message
    }

    /// The client's error with a hint for `skillgate chat`'s user.
    public init(_ error: SkillGateClientError) {
        switch error {
        case .network:
            self.init(status: nil, message: "cannot reach SkillGate (\(error.message)); start it with `skillgate serve` or pass --url")
        case .malformedResponse(let detail):
            self.init(status: nil, message: "unreadable answer: \(detail); is --url pointing at a SkillGate gateway?")
        default:
            let status = error.status ?? 0
            let hint: String
            switch status {
            case 401, 403: hint = "; check --token / SKILLGATE_TOKEN (create one with `skillgate tokens create --name me`)"
            case 404: hint = "; this server has no /v1/agent — is --url pointing at a SkillGate with the agent loop?"
            default: hint = ""
            }
            self.init(status: status, message: "HTTP \(status): \(error.message)\(hint)")
        }
    }

    public var description: String { message }
}
