#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Why a request to SkillGate failed. HTTP errors keep the gateway's own message, which says what
/// was wrong and what to do.
public enum SkillGateClientError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// 401: the token is missing, unknown or revoked.
    case unauthorized(message: String)
    /// 403: the token may not use this scenario or model, or a tool was refused; the message says what is allowed.
    case forbidden(message: String)
    /// 429: too many requests. Retry after `retryAfter` (from `Retry-After`) when it is given.
    case rateLimited(retryAfter: Duration?, message: String)
    /// 5xx: the provider behind the gateway failed or timed out (or, with 500, the gateway itself).
    case upstream(status: Int, message: String)
    /// Any other 4xx: the request itself is wrong (invalid body, unknown model or scenario, too large).
    case badRequest(status: Int, message: String)
    /// No answer: the gateway could not be reached, the connection broke, or a timeout elapsed.
    case network(underlying: any Error)
    /// The answer was not what a SkillGate gateway sends (not JSON, not an event stream, an event
    /// that does not fit its schema, a stream that ended before its last event).
    case malformedResponse(String)

    /// The HTTP status, when the gateway answered with an error status.
    public var status: Int? {
        switch self {
        case .unauthorized: 401
        case .forbidden: 403
        case .rateLimited: 429
        case .upstream(let status, _), .badRequest(let status, _): status
        case .network, .malformedResponse: nil
        }
    }

    /// The gateway's message, or what went wrong on the way.
    public var message: String {
        switch self {
        case .unauthorized(let m), .forbidden(let m), .rateLimited(_, let m), .upstream(_, let m), .badRequest(_, let m): m
        case .network(let underlying): "\(underlying)"
        case .malformedResponse(let detail): detail
        }
    }

    public var description: String {
        switch self {
        case .unauthorized(let m):
            return "SkillGate refused the token (401): \(m). Use a token from `skillgate tokens create --name my-app` that has not been revoked."
        case .forbidden(let m):
            return "SkillGate does not allow this request for this token (403): \(m)"
        case .rateLimited(let retryAfter, let m):
            let when = retryAfter.map { "retry in \($0.components.seconds) s" } ?? "retry later"
            return "Too many requests (429): \(m); \(when)."
        case .upstream(let status, let m):
            return "The model provider behind SkillGate failed (HTTP \(status)): \(m)"
        case .badRequest(let status, let m):
            return "SkillGate rejected the request (HTTP \(status)): \(m)"
        case .network(let underlying):
            return "Could not talk to SkillGate: \(underlying). Check the base URL and that the gateway is running (`skillgate serve`)."
        case .malformedResponse(let detail):
            return "SkillGate's answer could not be read: \(detail). Check that the base URL points at a SkillGate gateway of this client's release."
        }
    }

    public var errorDescription: String? { description }
}
