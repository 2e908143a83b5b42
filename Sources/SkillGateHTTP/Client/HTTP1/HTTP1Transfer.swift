/// One request on the own HTTP/1.1 client: its bytes, its response as decoded so far, its clocks and where the
/// outcome goes. Loop thread only; the engine's table retains it while it runs.
final class HTTP1Transfer {
    let control: TransferControl
    let delivery: TransferDelivery
    let target: HTTP1Target
    /// Its endpoint's connections and queue.
    let pool: HTTP1Pool
    let reusesConnection: Bool
    /// A stream with a request body: freeing that body once the head arrived is counted (`streamUploadsReleased`).
    let countsUploadRelease: Bool
    let timeouts: ResolvedTimeouts
    let startedAt: UInt64
    /// The request's bytes, head and body; released once sent (nothing re-sends it after the answer began).
    var outgoing: [UInt8]
    var decoder: HTTP1ResponseDecoder
    /// The connection carrying it; nil while it waits for one.
    var connection: HTTP1Connection?
    /// When its first byte went out (the first-byte clock).
    var requestSentAt: UInt64?
    var lastActivity: UInt64
    var pausedForConsumer = false
    /// Whether any byte of the answer arrived (a reused connection found dead before that is replaced once).
    var answerStarted = false
    /// Whether it already moved to a fresh connection after a reused one died.
    var retried = false

    private var status = 0
    private var headers = HTTPHeaders()
    private var collected: [UInt8] = []
    private(set) var isSettled = false
    var hasHead: Bool { decoder.hasHead }

    init(spec: TransferSpec, target: HTTP1Target, pool: HTTP1Pool, userAgent: String, now: UInt64) {
        control = spec.control
        delivery = spec.delivery
        self.target = target
        self.pool = pool
        reusesConnection = spec.request.reuseConnection
        countsUploadRelease = spec.delivery.streams && !spec.request.body.isEmpty
        timeouts = ResolvedTimeouts(spec.request.timeouts)
        startedAt = now
        lastActivity = now
        outgoing = HTTP1RequestEncoder.encode(spec.request, target: target, userAgent: userAgent)
        decoder = HTTP1ResponseDecoder(bodyExpected: spec.request.upperCaseMethod != "HEAD")
    }

    /// The final response head arrived.
    func headArrived(status: Int, headers: HTTPHeaders, now: UInt64) {
        self.status = status
        self.headers = headers
        lastActivity = now
        if case .stream(let channel) = delivery {
            channel.deliverHead(.init(status: status, headers: headers))
        }
    }

    /// What became of a piece of the body handed on.
    enum Offer { case accepted, pause, abort(HTTPClientError) }

    func deliver(_ bytes: UnsafeRawBufferPointer, now: UInt64) -> Offer {
        lastActivity = now
        switch delivery {
        case .collect(_, let limit):
            guard collected.count + bytes.count <= limit else { return .abort(.responseTooLarge(limit: limit)) }
            collected.append(contentsOf: bytes)
            return .accepted
        case .stream(let channel):
            switch channel.offer(bytes) {
            case .accepted: return .accepted
            case .pause:
                pausedForConsumer = true
                return .pause
            case .abort: return .abort(.cancelledByTask)
            }
        }
    }

    /// Delivers the outcome exactly once: the response (collect), or the end of the stream.
    func settle(_ error: HTTPClientError?) {
        if isSettled { return }
        isSettled = true
        switch delivery {
        case .collect(let continuation, _):
            if let error {
                continuation.resume(throwing: error)
            } else {
                continuation.resume(returning: HTTPResponse(status: status, headers: headers, body: collected))
                collected = []
            }
        case .stream(let channel):
            channel.finish(error)
        }
    }
}
