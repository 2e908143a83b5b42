/// An outbound HTTP client on libcurl's multi interface.
///
/// One dedicated thread runs a libevent loop that drives a libcurl multi handle in libcurl's
/// event-driven mode (`curl_multi_socket_action`); requests reach it through a Mutex-guarded queue
/// and a libevent wake event (decision 0024). Connections are pooled
/// and kept alive, HTTP/2 is negotiated over TLS where the server offers it, and the proxy
/// environment variables (`http_proxy`, `HTTPS_PROXY`, `NO_PROXY`) are honoured by libcurl.
/// Request headers are never logged.
///
/// Releasing the client lets the requests and streamed bodies in flight finish before its thread
/// stops; `shutdown()` stops at once and fails them.
public final class HTTPClient: Sendable {
    /// The settings this client was created with.
    public let configuration: Configuration
    let loop: CurlMultiLoop

    /// Creates a client and starts its thread (a libevent loop driving libcurl).
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        loop = CurlMultiLoop(configuration: configuration)
    }

    deinit { loop.shutdownWhenIdle() }

    /// Sends `request` and returns the whole response. Non-2xx statuses are returned, not thrown.
    ///
    /// - Throws: `HTTPClientError` when no complete response arrived (connect failure, a timeout,
    ///   a body over `maxResponseBytes`, cancellation of the calling task).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let control = TransferControl(loop: loop)
        let limit = configuration.maxResponseBytes
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                loop.start(TransferSpec(request: request, control: control, delivery: .collect(continuation, limit: limit)))
            }
        } onCancel: {
            control.cancel()
        }
    }

    /// Sends `request` and returns as soon as the response head arrived; the body streams in
    /// chunks. When the consumer falls behind, the transfer pauses (bounded buffering).
    /// Cancelling the consuming task, or releasing the body stream, aborts the transfer and
    /// closes its connection.
    ///
    /// - Throws: `HTTPClientError` when no response head arrived; the body stream throws
    ///   `HTTPClientError` when the transfer fails later (idle or total timeout, broken connection).
    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let control = TransferControl(loop: loop)
        let channel = StreamingBodyChannel(control: control, capacity: configuration.streamBufferBytes)
        let lifetime = StreamLifetime(channel: channel)
        let loop = self.loop
        let head = try await channel.awaitHead {
            loop.start(TransferSpec(request: request, control: control, delivery: .stream(channel)))
        }
        let body = AsyncThrowingStream<[UInt8], any Error> {
            withExtendedLifetime(lifetime) {}
            return try await lifetime.channel.next()
        }
        return HTTPStreamingResponse(status: head.status, headers: head.headers, body: body)
    }

    /// Stops the client's thread now and fails the requests still in flight. Idempotent.
    public func shutdown() { loop.shutdown() }
}
