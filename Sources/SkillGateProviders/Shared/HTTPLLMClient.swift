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

    public func complete(_ request: ChatRequest) async throws -> ChatResponse {
        var httpRequest = try format.makeRequest(request, deployment: deployment, stream: false)
        httpRequest.httpVersion = deployment.httpVersion
        let response: HTTPResponse
        do {
            response = try await http.send(httpRequest)
        } catch let error as HTTPClientError {
            throw error.gatewayError(provider: deployment.providerId)
        }
        guard (200..<300).contains(response.status) else {
            throw format.parseError(status: response.status, headers: response.headers, body: response.body, deployment: deployment)
        }
        return try format.parseResponse(response.body, deployment: deployment)
    }

    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ChatStreamEvent, any Error>.makeStream()
        let task = Task {
            do {
                try await run(request, into: continuation)
                continuation.finish()
            } catch let error as HTTPClientError {
                continuation.finish(throwing: error.gatewayError(provider: deployment.providerId))
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func run(_ request: ChatRequest, into continuation: AsyncThrowingStream<ChatStreamEvent, any Error>.Continuation) async throws {
        let response = try await open(request)
        guard (200..<300).contains(response.status) else {
            let body = try await response.collectBody(limit: Self.maxErrorBody)
            throw format.parseError(status: response.status, headers: response.headers, body: body, deployment: deployment)
        }
        var translator = format.makeStreamTranslator(deployment: deployment)
        for try await chunk in response.body {
            for event in try translator.feed(chunk) { continuation.yield(event) }
        }
        try Task.checkCancellation()
        for event in try translator.finish() { continuation.yield(event) }
    }

    /// Sends the streaming request and returns at its head. Its own function so the serialized body (held by
    /// libcurl as a copy once sent) is released when the head arrives, not kept in `run`'s frame for the whole
    /// stream (decision 0033).
    private func open(_ request: ChatRequest) async throws -> HTTPStreamingResponse {
        var httpRequest = try format.makeRequest(request, deployment: deployment, stream: true)
        httpRequest.httpVersion = deployment.httpVersion
        return try await http.stream(httpRequest)
    }
}

extension HTTPClientError {
    /// The client-facing error for a transport failure talking to `provider`.
    public func gatewayError(provider: String) -> GatewayError {
        switch kind {
        case .connect:
            return GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502,
                                message: "could not connect to the provider (\(detail)); check its base_url and that it is reachable from the gateway",
                                provider: provider)
        case .tls:
            return GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502,
                                message: "TLS handshake with the provider failed (\(detail)); check the base_url scheme and the system CA certificates",
                                provider: provider)
        case .connectTimeout, .firstByteTimeout, .idleTimeout, .totalTimeout:
            return GatewayError(domain: .provider, kind: .upstreamTimeout, status: 504,
                                message: "the provider did not answer in time (\(kind.rawValue)); retry, or raise the deployment's timeouts",
                                provider: provider)
        case .transport:
            return GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502,
                                message: "the connection to the provider broke (\(detail)); retry the request",
                                provider: provider)
        case .cancelled:
            return GatewayError(domain: .caller, kind: .cancelled, status: 499,
                                message: "the request was cancelled", provider: provider)
        case .invalidRequest:
            return GatewayError(domain: .gateway, kind: .internalError, status: 500,
                                message: "the upstream request could not be made (\(detail)); check the provider's base_url",
                                provider: provider)
        }
    }
}
