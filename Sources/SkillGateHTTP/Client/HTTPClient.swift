import Synchronization

/// An outbound HTTP client on libcurl's multi interface.
///
/// A libevent loop drives a libcurl multi handle in libcurl's event-driven mode
/// (`curl_multi_socket_action`), on a thread of the client's own (decision 0024) — or, for a request
/// made by a task running on an `HTTPServer` event loop (a request handler), on that loop's own thread
/// and `event_base`, through a multi handle of this client for that loop (a *lane*, decision 0035), so
/// proxying a request needs no thread hand-off. Connections are pooled
/// and kept alive, HTTP/2 is negotiated over TLS where the server offers it, and the proxy
/// environment variables (`http_proxy`, `HTTPS_PROXY`, `NO_PROXY`) are honoured by libcurl.
/// Plain `http://` requests to numeric (or pinned) addresses with no proxy in the way go through the client's own
/// HTTP/1.1 engine on the same loops instead (`Client/HTTP1/`, decision 0051; `Configuration.usesOwnHTTP1Client`),
/// with the same timeouts, pooling, cancellation and errors.
/// Request headers are never logged.
///
/// Releasing the client lets the requests and streamed bodies in flight finish before its thread
/// stops; `shutdown()` stops at once and fails them.
public final class HTTPClient: Sendable {
    /// The settings this client was created with.
    public let configuration: Configuration
    /// The loop on the client's own thread, for callers off the server's event loops.
    let loop: CurlMultiLoop
    let counters = HTTPClientCounters()
    /// Tells this client's lanes apart in the event loops' tables (unlike an address, never reused).
    let id: UInt64
    /// The lanes this client has on server event loops, to drain or stop them with the client.
    private let lanes = Mutex<[CurlMultiLoop]>([])
    private static let nextID = Atomic<UInt64>(1)

    /// Creates a client and starts its thread (a libevent loop driving libcurl).
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        id = Self.nextID.add(1, ordering: .relaxed).oldValue
        loop = CurlMultiLoop(configuration: configuration, counters: counters)
    }

    deinit {
        loop.shutdownWhenIdle()
        for lane in lanes.locked({ $0 }) { lane.shutdownWhenIdle() }
    }

    /// The loop a transfer started now runs on: the calling server event loop's lane, else the own thread.
    private func transferLoop() -> CurlMultiLoop {
        guard configuration.usesServerEventLoops, let eventLoop = CurrentEventLoop.loop,
              let lane = eventLoop.curlLane(for: self) else { return loop }
        counters.countLaneTransfer()
        return lane
    }

    /// A lane's settings: the connection cap is shared out over the server's loops (rounded up).
    func laneConfiguration(loops: Int) -> Configuration {
        var lane = configuration
        lane.maxConnections = max(1, (configuration.maxConnections + max(1, loops) - 1) / max(1, loops))
        return lane
    }

    /// Keeps a new lane so the client can drain or stop it.
    func adopt(_ lane: CurlMultiLoop) {
        lanes.locked { lanes in
            lanes.removeAll { !$0.isRunning }
            lanes.append(lane)
        }
    }

    /// Transfers this client ran on server event loops' lanes so far (diagnostics, tests).
    public var transfersOnServerEventLoops: Int { counters.transfersOnServerLoops }
    /// Streams whose request body and libcurl upload buffer were freed once their response head arrived.
    var streamUploadsReleased: Int { counters.streamUploadsReleased }
    /// Transfers the own HTTP/1.1 client carried instead of libcurl (decision 0051; diagnostics, tests).
    var transfersOnOwnHTTP1Client: Int { counters.transfersOnOwnHTTP1Client }
    /// Lane transfers that found their pooled connection's socket still registered (`LaneSocketRegistry`).
    var laneSocketsReused: Int { counters.laneSocketsReused }

    /// Sends `request` and returns the whole response. Non-2xx statuses are returned, not thrown.
    ///
    /// - Throws: `HTTPClientError` when no complete response arrived (connect failure, a timeout,
    ///   a body over `maxResponseBytes`, cancellation of the calling task).
    /// - Parameter stopper: stops the transfer from outside the awaiting task (`HTTPTransferStopper`).
    public func send(_ request: HTTPRequest, stopper: HTTPTransferStopper? = nil) async throws -> HTTPResponse {
        let loop = transferLoop()
        let control = TransferControl(loop: loop)
        stopper?.attach { control.cancel() }
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
    /// - Parameter stopper: stops the transfer from outside the consuming task, before or after its head
    ///   (`HTTPTransferStopper`).
    public func stream(_ request: HTTPRequest, stopper: HTTPTransferStopper? = nil) async throws -> HTTPStreamingResponse {
        let loop = transferLoop()
        let control = TransferControl(loop: loop)
        let channel = StreamingBodyChannel(control: control, capacity: configuration.streamBufferBytes)
        stopper?.attach { channel.cancel() }
        let reader = HTTPBodyReader(channel: channel)
        let head = try await channel.awaitHead {
            loop.start(TransferSpec(request: request, control: control, delivery: .stream(channel)))
        }
        return HTTPStreamingResponse(status: head.status, headers: head.headers, bodyReader: reader)
    }

    /// Stops the client's thread now and fails the requests still in flight (a lane's, in its event loop's next
    /// turn). Idempotent.
    public func shutdown() {
        loop.shutdown()
        for lane in lanes.locked({ $0 }) { lane.shutdown() }
    }
}
