#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// How an error answer of the gateway becomes a `SkillGateClientError`.
enum ErrorMapping {
    /// The error for a non-2xx `response`, from its status, `Retry-After` and OpenAI-shaped body
    /// (a body that is not one is quoted, shortened).
    static func error(status: Int, headers: [String: String], body: [UInt8]) -> SkillGateClientError {
        let detail = try? JSONDecoder().decode(APIErrorBody.self, from: Data(body)).error
        let message = detail?.message ?? snippet(body, status: status)
        switch status {
        case 401: return .unauthorized(message: message)
        case 403: return .forbidden(message: message)
        case 429: return .rateLimited(retryAfter: headers["retry-after"].flatMap(retryAfter), message: message)
        case 500...: return .upstream(status: status, message: message)
        default: return .badRequest(status: status, message: message)
        }
    }

    /// The error for an error object inside a stream that already started (`data: {"error":{…}}`),
    /// by its type, since the status was 200.
    static func error(streamed detail: APIErrorBody.Detail) -> SkillGateClientError {
        switch detail.type {
        case "authentication_error": return .unauthorized(message: detail.message)
        case "permission_error": return .forbidden(message: detail.message)
        case "rate_limit_error": return .rateLimited(retryAfter: nil, message: detail.message)
        case "invalid_request_error": return .badRequest(status: 400, message: detail.message)
        default: return .upstream(status: detail.upstreamStatus ?? 502, message: detail.message)
        }
    }

    /// `Retry-After` in seconds (the HTTP-date form is not used by SkillGate and gives nil).
    static func retryAfter(_ value: String) -> Duration? {
        guard let seconds = Int(String(value.filter { !$0.isWhitespace })), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }

    /// The start of a body that is not an error object, on one line.
    static func snippet(_ body: [UInt8], status: Int) -> String {
        guard !body.isEmpty else { return "HTTP \(status) with an empty body" }
        let text = String(decoding: body.prefix(300), as: UTF8.self)
            .split(whereSeparator: \.isNewline).joined(separator: " ")
        return body.count > 300 ? text + "…" : text
    }
}
