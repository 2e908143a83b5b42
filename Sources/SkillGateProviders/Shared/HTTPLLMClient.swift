import SkillGateCore
import SkillGateHTTP

/// An `LLMClient` for any HTTP wire format: makes the one HTTP call (through the shared libcurl
/// `HTTPClient`) and uses the wire format to translate both ways.
public struct HTTPLLMClient<Format: WireFormat>: LLMClient {
    public let format: Format
    public let deployment: Deployment
    public let http: HTTPClient
    /// Upper bound of an error body read for the error message.
    static var maxErrorBody: Int { 64 * 1024 }

    public init(format: Format, deployment: Deployment, http: HTTPClient) {
        self.format = format
        self.deployment = deployment
        self.http = http
    }

    /// The call's answer, or its error as `Deployment.cleaning` leaves it (no key, a bounded delay).
    public func complete(_ request: ChatRequest) async throws -> ChatResponse {
        do {
            return try await completeQuotingUpstream(request)
        } catch {
            throw deployment.cleaning(error)
        }
    }

    private func completeQuotingUpstream(_ request: ChatRequest) async throws -> ChatResponse {
        let response = try await send(try format.makeRequest(request, deployment: deployment, stream: false))
        // A 2xx without a body (204 No Content, 205) is said as it came: the formats' readers know only 200.
        if response.body.isEmpty && response.status != 200 {
            throw GatewayError.upstreamProtocol(
                "\(deployment.providerId) returned status \(response.status) with no body where a JSON answer was expected — check that the base URL points at the provider's chat endpoint",
                provider: deployment.providerId, upstreamStatus: response.status)
        }
        return try format.parseResponse(response.body, deployment: deployment)
    }

    /// The provider's own count of `request`'s input tokens, when the deployment counts at its format's count endpoint
    /// (Anthropic's, Gemini's, OpenAI's Responses count); nil otherwise. Errors as `complete`'s.
    public func countInputTokens(_ request: ChatRequest) async throws -> Int? {
        do {
            guard let countRequest = try format.makeCountTokensRequest(request, deployment: deployment) else { return nil }
            let response = try await send(countRequest)
            guard let count = format.parseCountTokens(response.body) else {
                throw GatewayError.upstreamProtocol("\(deployment.providerId) answered the token count without a token number; check that the base URL points at the provider's API, or set the provider's count_tokens to false",
                                                    provider: deployment.providerId, upstreamStatus: response.status)
            }
            return count
        } catch {
            throw deployment.cleaning(error)
        }
    }

    /// Sends `httpRequest` with the deployment's HTTP version and CA file: its 2xx answer, or the error a transport
    /// failure or another status is for the client (the provider's own message, not yet cleaned).
    ///
    /// The answer's head (a whole answer's, which comes with it) is due within the deployment's first-byte timeout
    /// counted from now, a wait for a pooled connection included, as a stream's first event is (decision 0162): a call
    /// queued behind a hung deployment's connections leaves its fallback time.
    private func send(_ httpRequest: HTTPRequest) async throws -> HTTPResponse {
        var httpRequest = httpRequest
        httpRequest.httpVersion = deployment.httpVersion
        httpRequest.caFile = deployment.caFile
        httpRequest.timeouts.head = deployment.timeouts.firstByte
        let response: HTTPResponse
        do {
            response = try await http.send(httpRequest)
        } catch let error as HTTPClientError {
            throw error.gatewayError(provider: deployment.providerId)
        }
        guard (200..<300).contains(response.status) else {
            throw format.parseError(status: response.status, headers: response.headers, body: response.body, deployment: deployment)
        }
        return response
    }

    /// Streams the call's events. The request is sent when the first event is asked for, and everything runs in the
    /// task that reads the events (`UpstreamEventReader`); releasing the stream closes the upstream connection.
    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error> {
        let reader = UpstreamEventReader(client: self, request: request)
        return AsyncThrowingStream { try await reader.next() }
    }

    /// The reader itself, called directly by the consumer (no `AsyncThrowingStream` between: decision 0059).
    public func events(_ request: ChatRequest) -> ChatEventIterator {
        ChatEventIterator(pulling: UpstreamEventReader(client: self, request: request))
    }
}

extension HTTPClientError {
    /// The timeout that fired, as the config names it (`upstream_timeouts`).
    static func timeoutSetting(_ kind: Kind) -> String {
        switch kind {
        case .connectTimeout: "the connect timeout, connect_seconds"
        case .firstByteTimeout: "the time to its first byte (a stream's first event), first_byte_seconds"
        case .connectionWaitTimeout: "the time to its first byte, first_byte_seconds, spent waiting for a free connection to the provider (limits.upstream_connections_per_host); the request was not sent"
        case .headTimeoutWhileConnecting: "the time to its first byte, first_byte_seconds, spent connecting to the provider, which was slow to accept; the request was not sent"
        case .idleTimeout: "the time between two of its bytes, idle_seconds"
        default: "the whole request's time, total_seconds"
        }
    }

    /// The client-facing error for a transport failure talking to `provider`.
    public func gatewayError(provider: String) -> GatewayError {
        switch kind {
        case .connect:
            return GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502,
                                message: "could not connect to the provider (\(detail)); check its base_url and that it is reachable from the gateway",
                                provider: provider)
        case .tls:
            return GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502,
                                message: "TLS handshake with the provider failed (\(detail)); check the base_url scheme, and if a private CA signed the provider's certificate, name its PEM file in the config's providers.\(provider).ca_file",
                                provider: provider)
        case .connectTimeout, .connectionWaitTimeout, .headTimeoutWhileConnecting, .firstByteTimeout, .idleTimeout, .totalTimeout:
            var e = GatewayError(domain: .provider, kind: .upstreamTimeout, status: 504,
                                 message: "the provider did not answer in time (\(Self.timeoutSetting(kind))); retry, or the operator can raise it in the config's upstream_timeouts",
                                 provider: provider)
            // Only the connect and connection-wait timeouts (and the head timeout while connecting) fire before the
            // request goes out; the others leave the provider with the prompt, which it most likely bills (decision 0130).
            e.timedOutAfterSending = ![.connectTimeout, .connectionWaitTimeout, .headTimeoutWhileConnecting].contains(kind)
            // The connection wait is the gateway's own queue: not the deployment's failure (decision 0171).
            e.timedOutWaitingForAConnection = kind == .connectionWaitTimeout
            return e
        case .transport:
            return GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502,
                                message: "the connection to the provider broke (\(detail)); retry the request",
                                provider: provider)
        case .responseTooLarge:
            return GatewayError(domain: .provider, kind: .upstreamError, status: 502,
                                message: "the provider's answer was larger than the gateway reads whole (\(detail.split(separator: ";").first ?? "")); ask for a shorter answer (max_tokens) or stream it (\"stream\": true)",
                                provider: provider)
        case .cancelled:
            return GatewayError(domain: .caller, kind: .cancelled, status: 499,
                                message: "the request was cancelled", provider: provider)
        case .invalidRequest:
            return GatewayError(domain: .gateway, kind: .internalError, status: 500,
                                message: "the upstream request could not be made (\(detail)); check the provider's base_url, and its key (set it again with `skillgate keys set NAME`, which refuses control characters)",
                                provider: provider)
        }
    }
}
