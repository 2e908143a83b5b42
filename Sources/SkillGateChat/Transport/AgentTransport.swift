import SkillGateCore
import SkillGateHTTP

/// Starts `/v1/agent` runs. The real one talks HTTP; tests give scripted event streams.
public protocol AgentTransport: Sendable {
    /// Posts `body` and returns the run's events once the response head arrived.
    /// Throws `AgentRequestError` when the server refused the request before streaming.
    func start(_ body: JSONValue) async throws -> AgentEventSequence
}

/// A request refused before its event stream started (bad token, unknown model, server down, …).
public struct AgentRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status; nil when no response arrived.
    public var status: Int?
    public var message: String

    public init(status: Int?, message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
}

/// `POST {baseURL}/v1/agent` with a bearer token through SkillGateHTTP's `HTTPClient`.
public struct AgentHTTPTransport: AgentTransport {
    public let baseURL: String
    private let token: String
    private let client: HTTPClient

    /// `baseURL` is the gateway's root (`http://127.0.0.1:8080`); a trailing slash is ignored.
    public init(baseURL: String, token: String, client: HTTPClient = HTTPClient()) {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.token = token
        self.client = client
    }

    public func start(_ body: JSONValue) async throws -> AgentEventSequence {
        let request = HTTPRequest(
            method: "POST", url: baseURL + "/v1/agent",
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json",
                      "Accept": "text/event-stream"],
            body: body.serializedBytes(),
            // A run may think for a while between events (skills, several model calls); no total limit.
            timeouts: HTTPTimeouts(connect: .seconds(10), firstByte: .seconds(300), idle: .seconds(300), total: nil))
        let response: HTTPStreamingResponse
        do {
            response = try await client.stream(request)
        } catch let error as HTTPClientError where error.kind != .cancelled {
            throw AgentRequestError(status: nil, message: Self.describe(error, url: baseURL))
        }
        guard (200..<300).contains(response.status) else {
            let bytes = (try? await response.collectBody(limit: 64 * 1024)) ?? []
            throw AgentRequestError(status: response.status, message: Self.describe(status: response.status, body: bytes))
        }
        return AgentEventSequence(body: response.body)
    }

    static func describe(_ error: HTTPClientError, url: String) -> String {
        switch error.kind {
        case .connect, .connectTimeout:
            return "cannot reach SkillGate at \(url) (\(error.detail)); start it with `skillgate serve` or pass --url"
        default:
            return "the request to \(url)/v1/agent failed: \(error)"
        }
    }

    /// The message of an OpenAI-shaped error body, with a hint for the common statuses.
    static func describe(status: Int, body: [UInt8]) -> String {
        let parsed = try? JSONValue.parse(body)
        let message = parsed?["error"]?["message"]?.stringValue
            ?? (body.isEmpty ? "no details" : ChatFormat.truncate(String(decoding: body, as: UTF8.self), limit: 300))
        let hint: String
        switch status {
        case 401, 403: hint = "; check --token / SKILLGATE_TOKEN (create one with `skillgate tokens create --name me`)"
        case 404: hint = "; this server has no /v1/agent — is --url pointing at a SkillGate with the agent loop?"
        default: hint = ""
        }
        return "HTTP \(status): \(message)\(hint)"
    }
}
