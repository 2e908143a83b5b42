#if !canImport(Darwin)
import SkillGateHTTP

/// The Linux transport: SkillGateHTTP's libcurl client, which streams response bodies, and its
/// SSE decoder. Releasing the last copy lets requests in flight finish, then stops its thread.
struct CurlTransport: ClientTransport {
    private let http: HTTPClient

    init(http: HTTPClient = HTTPClient()) {
        self.http = http
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            let response = try await http.send(Self.httpRequest(request))
            return TransportResponse(status: response.status, headers: Self.headers(response.headers), body: response.body)
        } catch let error as HTTPClientError {
            throw Self.mapped(error)
        }
    }

    func stream(_ request: TransportRequest, onEvent: (ServerSentEvent) throws -> Void) async throws -> TransportResponse {
        do {
            let response = try await http.stream(Self.httpRequest(request))
            let headers = Self.headers(response.headers)
            guard TransportResponse.isEventStream(status: response.status, contentType: headers["content-type"]) else {
                return TransportResponse(status: response.status, headers: headers,
                                         body: try await response.collectBody(limit: TransportResponse.bodyLimit))
            }
            var decoder = SSEDecoder()
            for try await chunk in response.body {
                for event in decoder.feed(chunk) { try onEvent(ServerSentEvent(event: event.event, data: event.data)) }
            }
            try Task.checkCancellation()
            for event in decoder.finish() { try onEvent(ServerSentEvent(event: event.event, data: event.data)) }
            return TransportResponse(status: response.status, headers: headers, body: [])
        } catch let error as HTTPClientError {
            throw Self.mapped(error)
        }
    }

    private static func httpRequest(_ request: TransportRequest) -> HTTPRequest {
        HTTPRequest(method: "POST", url: request.url.absoluteString, headers: HTTPHeaders(request.headers), body: request.body,
                           timeouts: HTTPTimeouts(connect: request.connectTimeout, firstByte: request.idleTimeout,
                                                  idle: request.idleTimeout, total: nil))
    }

    private static func headers(_ headers: HTTPHeaders) -> [String: String] {
        var out: [String: String] = [:]
        for field in headers { out[field.name.lowercased()] = field.value }
        return out
    }

    /// Cancellation stays cancellation; everything else is a network error.
    private static func mapped(_ error: HTTPClientError) -> any Error {
        error.kind == .cancelled ? CancellationError() : SkillGateClientError.network(underlying: error)
    }
}
#endif
