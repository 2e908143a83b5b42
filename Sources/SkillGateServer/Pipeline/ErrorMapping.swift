import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

extension GatewayError {
    /// Any error as a `GatewayError`: itself, 499 for a cancelled request or a client that went
    /// away, else a 500 that says so and asks for a report with the request id.
    static func from(_ error: any Error) -> GatewayError {
        if let e = error as? GatewayError { return e }
        if error is CancellationError || (error as? HTTPServerError)?.kind == .clientGone {
            return GatewayError(domain: .caller, kind: .cancelled, status: 499, message: "the client closed the connection")
        }
        return .internalError("unexpected failure (\(error)); please report it with the x-request-id of this response")
    }
}
extension GatewayError {
    /// A body valid in both the OpenAI and the Anthropic error shape
    /// (`{"type":"error","error":{"type","message","param","code"}}`), for errors the HTTP layer
    /// raises before it knows which surface the client speaks (413, malformed HTTP).
    func surfaceNeutralBody() -> JSONValue {
        var error: JSONObject = ["type": .string(anthropicType), "message": .string(clientMessage)]
        error.append("param", param.map(JSONValue.string) ?? .null)
        error.append("code", .string(kind.rawValue))
        return .object(["type": "error", "error": .object(error)])
    }
}

extension GatewayError {
    /// A request still running when the shutdown's grace period ended: the server cut it off, its client did not leave
    /// (decision 0137). Said in the answer (an error event on a stream) and the log instead of 499 `client_gone`.
    static let cutOffAtShutdown = GatewayError(
        domain: .gateway, kind: .timeout, status: 503,
        message: "the gateway is shutting down, and this answer was still running when its grace period (limits.shutdown_grace_seconds) ended, so it was stopped; send the request again (another instance may answer)",
        retryAfter: 1)

    /// A console traffic tail asked for while the gateway drains: the tails were closed at the drain's start.
    static let shuttingDown = GatewayError(
        domain: .gateway, kind: .timeout, status: 503,
        message: "the gateway is shutting down and opens no new traffic tail; reconnect in a moment (the console does so by itself)",
        retryAfter: 1)
}

extension HTTPResponder {
    /// What a handler that was stopped from outside its task must tell its client, whatever its cancellation made of
    /// its error: the server cut it off at shutdown (decision 0137), or its token was revoked while it ran (decision
    /// 0141); nil when it was not stopped.
    var stopError: GatewayError? {
        wasCutOffByServer ? GatewayError.cutOffAtShutdown : stoppedBecause as? GatewayError
    }
}
