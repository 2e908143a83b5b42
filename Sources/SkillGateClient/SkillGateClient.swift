#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
// Apps name the API's types (`AgentEvent`, `ChatMessage`, …) with `import SkillGateClient` alone.
@_exported import SkillGateAPI

/// A client of a SkillGate gateway for apps: chat in the OpenAI shape, whole or streamed, and the
/// agent loop's events (`POST /v1/agent`) as typed values.
///
/// ```swift
/// let client = SkillGateClient(baseURL: URL(string: "http://127.0.0.1:8080")!, token: token)
/// for try await event in client.agent(AgentRequest(asking: "What is 17 * 23?", scenario: "assistant")) {
///     if case .textDelta(let delta) = event { print(delta.text, terminator: "") }
/// }
/// ```
///
/// Cancelling the task that iterates a stream (or leaving the loop) cancels the HTTP request, and
/// the gateway then stops the run. Failures are `SkillGateClientError`s. The token is sent only in
/// the `Authorization` header; it is in no description, error or log of this library.
///
/// On Apple platforms requests go through `URLSession.shared`; on Linux through SkillGateHTTP's
/// libcurl client, because Foundation's URLSession there cannot stream a response body. Create one
/// client and share it (it is `Sendable`): on Linux each client runs a libcurl thread with its own
/// connection pool.
public struct SkillGateClient: Sendable {
    /// The gateway's root URL (`http://127.0.0.1:8080`); request paths are appended to it.
    public let baseURL: URL
    public let configuration: Configuration
    private let token: String
    let transport: any ClientTransport

    /// A client of the gateway at `baseURL` authenticating with the SkillGate client `token`
    /// (`skillgate tokens create --name my-app`).
    public init(baseURL: URL, token: String, configuration: Configuration = Configuration()) {
        #if canImport(Darwin)
        self.init(baseURL: baseURL, token: token, configuration: configuration, transport: URLSessionTransport(session: .shared))
        #else
        self.init(baseURL: baseURL, token: token, configuration: configuration, transport: CurlTransport())
        #endif
    }

    init(baseURL: URL, token: String, configuration: Configuration, transport: any ClientTransport) {
        self.baseURL = baseURL
        self.token = token
        self.configuration = configuration
        self.transport = transport
    }

    /// How the client talks to the gateway.
    public struct Configuration: Sendable {
        /// Sent as `x-skillgate-scenario` with every request; nil: the token's or the gateway's
        /// default. An `AgentRequest`'s own `scenario` wins over it.
        public var scenario: String?
        /// Longest wait for the connection (Linux; on Apple platforms `idleTimeout` covers it).
        public var connectTimeout: Duration
        /// Longest silence: until the answer starts, and between two pieces of a stream. An agent
        /// run can be quiet for a while between events (skills, several model calls).
        public var idleTimeout: Duration

        public init(scenario: String? = nil, connectTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(300)) {
            self.scenario = scenario
            self.connectTimeout = connectTimeout
            self.idleTimeout = idleTimeout
        }
    }

    /// A POST of `body` as JSON to `path` with the token and the configured scenario.
    func request(_ path: String, body: some Encodable, accept: String) throws -> TransportRequest {
        var headers = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json"), ("Accept", accept)]
        if let scenario = configuration.scenario { headers.append(("x-skillgate-scenario", scenario)) }
        return TransportRequest(url: baseURL.appendingPathComponent(path), headers: headers, body: try CompactJSONEncoder().encode(body),
                                connectTimeout: configuration.connectTimeout, idleTimeout: configuration.idleTimeout)
    }
}

extension SkillGateClient: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The base URL only: the token never appears in a description, `dump` or the debugger's summary.
    public var description: String { "SkillGateClient(\(baseURL.absoluteString))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["baseURL": baseURL, "configuration": configuration]) }
}
