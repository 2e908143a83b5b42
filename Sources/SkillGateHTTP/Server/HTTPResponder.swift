import Synchronization

/// Sends the answer to one inbound request: either one `respond`, or `startStream`, `write`s and `end`.
///
/// Safe to call from any task; calls for one request must come from one task at a time, in order.
/// A call from a task running on the connection's event loop puts its bytes on the connection directly; from anywhere
/// else it posts a job to the loop thread.
public final class HTTPResponder: Sendable {
    enum Phase { case idle, streaming, finished }

    struct State {
        var phase = Phase.idle
        var gone = false
        var cutOff = false
        /// Why the handler was stopped while it ran (`stopHandler(because:)`).
        var stopReason: (any Error & Sendable)?
        /// Bytes posted to the loop but not yet written to the socket.
        var queuedBytes = 0
        var drainWaiter: CheckedContinuation<Void, any Error>?
        /// A whole reply held for `releaseReply` (see `respond`).
        var held: HeldReply?
        /// A call of this stream was posted to the loop as a job: the ones after it are posted too, so that none is put
        /// on the connection ahead of it.
        var posted = false
        /// The stream head `prepareStreamHead` handed over: its fields still to make, or written.
        var preparedHead: PreparedHead?
    }

    enum PreparedHead {
        case pending(@Sendable () -> HTTPHeaders)
        case written(ResponseHeadEncoder.WrittenFields)
    }

    struct HeldReply {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    let loop: EventLoop
    /// The loop's state of this request, touched only on the loop thread.
    let link = LoopLink()
    private let state = Mutex(State())
    private let highWaterBytes: Int

    init(loop: EventLoop, highWaterBytes: Int) {
        self.loop = loop
        self.highWaterBytes = highWaterBytes
    }

    /// Whether the client has disconnected (writes now throw; replies are dropped).
    public var isClientGone: Bool { state.locked { $0.gone } }

    /// Whether the server cut this request off: it was still running when the shutdown's grace period ended, and its
    /// task was cancelled for that, not because the client left. The connection stays open a moment longer, so the
    /// handler can still end its answer with an error saying so (decision 0137).
    public var wasCutOffByServer: Bool { state.locked { $0.cutOff } }

    /// Why this request's handler was stopped while it ran (`stopHandler(because:)`); nil unless it was.
    public var stoppedBecause: (any Error & Sendable)? { state.locked { $0.stopReason } }

    /// Stops the handler while it runs, for `reason` (the gateway: the request's token was revoked meanwhile): its task
    /// is cancelled and its connection stays open, so its error path can still tell the client `reason`
    /// (`stoppedBecause`) instead of leaving it with a cut connection. Nothing once its reply is finished, and only the
    /// first reason counts. Callable from any thread.
    public func stopHandler(because reason: any Error & Sendable) {
        let stops = state.locked { s -> Bool in
            guard s.stopReason == nil, s.phase != .finished, !s.gone else { return false }
            s.stopReason = reason
            return true
        }
        if stops { loop.post(.stopHandler(self)) }
    }

    /// Sends a complete reply with `Content-Length`. Ignored after the first reply or stream start,
    /// and when the client is gone.
    ///
    /// From a handler running on its connection's event loop with that request alone in flight, the reply is held
    /// until the handler calls `releaseReply`, returns or suspends, and is then sent at once, before the handler goes on
    /// (decision 0059): the handler decides what must be done before the client can see its answer (the gateway
    /// frees the request's limit slot and queues its usage row) and what can wait until after (metrics, the log line,
    /// freeing the request). From anywhere else the reply is posted to the loop, which writes it once its current batch
    /// of jobs is done.
    public func respond(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        let canHold = loop.canSendRepliesAtOnce
        enum Step { case post, hold, drop }
        let step = state.locked { s -> Step in
            guard s.phase == .idle else { return .drop }
            s.phase = .finished
            guard !s.gone else { return .drop }
            guard canHold else { return .post }
            s.held = HeldReply(status: status, headers: headers, body: body)
            return .hold
        }
        switch step {
        case .post: loop.post(.reply(self, status: status, headers: headers, body: body))
        case .hold: loop.heldReplies.append(self)   // on the loop thread (`canSendRepliesAtOnce`)
        case .drop: break
        }
    }

    /// Sends a reply `respond` held: the handler is done with what must happen before the client sees its answer.
    /// Does nothing when no reply is held (a stream, a posted reply, or one already released).
    public func releaseReply() {
        guard let reply = state.locked({ s -> HeldReply? in
            defer { s.held = nil }
            return s.held
        }) else { return }
        loop.sendReplyNow(self, status: reply.status, headers: reply.headers, body: reply.body)
    }

    /// Sends the reply head of a streamed (chunked) reply; follow with `write` and `end`.
    /// Throws `clientGone` when the client has disconnected, `responderMisuse` after a reply was started.
    ///
    /// From a handler running on its connection's event loop, the head, the chunks and the end are put on the connection
    /// at once instead of posted as jobs; they are written at the end of the loop's batch of jobs, or before the handler
    /// goes on when it calls `sendQueuedNow` (decision 0063). From anywhere else each is posted, in order.
    public func startStream(status: Int, headers: HTTPHeaders) async throws {
        let here = loop.runsJobsHere
        try state.locked { s throws(HTTPServerError) in
            if s.gone { throw HTTPServerError.clientGone }
            guard s.phase == .idle else {
                throw HTTPServerError(kind: .responderMisuse,
                                      message: "startStream was called after the reply was already started; send one reply per request.")
            }
            s.phase = .streaming
            s.preparedHead = nil
            if !here { s.posted = true }
        }
        if here {
            loop.startStream(self, status: status, headers: headers)
        } else {
            loop.post(.startStream(self, status: status, headers: headers))
        }
    }

    /// Hands over the head of a stream this request will likely start, to be written while the handler waits for what
    /// it will stream (an upstream's first answer): called on the connection's loop, the loop makes `headers` and
    /// writes their fields between its turns, once the work at hand (the upstream request) is done, so the head costs
    /// the stream's first bytes nothing when `startPreparedStream` sends it. Elsewhere, or when the loop had no time,
    /// `startPreparedStream` makes them then. A later call replaces an earlier one; `startStream` ignores it.
    public func prepareStreamHead(_ headers: @escaping @Sendable () -> HTTPHeaders) {
        let stored = state.locked { s -> Bool in
            guard s.phase == .idle, !s.gone else { return false }
            s.preparedHead = .pending(headers)
            return true
        }
        if stored, loop.runsJobsHere { loop.headsToWrite.append(self) }
    }

    /// Called by the loop between its turns: writes the prepared head's fields, unless the stream started meanwhile.
    func writePreparedHead() {
        guard case .pending(let make)? = state.locked({ $0.preparedHead }) else { return }
        let written = ResponseHeadEncoder.WrittenFields(make())
        let kept = state.locked { s -> Bool in
            guard s.phase == .idle, case .pending? = s.preparedHead else { return false }
            s.preparedHead = .written(written)
            return true
        }
        if kept { loop.shared.counters.streamHeadsWrittenAhead.add(1, ordering: .relaxed) }
    }

    /// `startStream` with the head `prepareStreamHead` handed over (its fields written ahead when the loop had time).
    /// Throws `responderMisuse` when no head was prepared.
    public func startPreparedStream(status: Int) async throws {
        let here = loop.runsJobsHere
        let prepared = try state.locked { s throws(HTTPServerError) -> PreparedHead in
            if s.gone { throw HTTPServerError.clientGone }
            guard s.phase == .idle, let prepared = s.preparedHead else {
                throw HTTPServerError(kind: .responderMisuse,
                                      message: "startPreparedStream needs prepareStreamHead first, and one reply per request; call startStream instead.")
            }
            s.phase = .streaming
            s.preparedHead = nil
            if !here { s.posted = true }
            return prepared
        }
        switch (prepared, here) {
        case (.written(let written), true):
            loop.shared.counters.streamsStartedWithHeadsWrittenAhead.add(1, ordering: .relaxed)
            loop.startStream(self, status: status, written: written)
        case (.pending(let make), true): loop.startStream(self, status: status, headers: make())
        case (.written(let written), false): loop.post(.startStream(self, status: status, headers: written.headers))
        case (.pending(let make), false): loop.post(.startStream(self, status: status, headers: make()))
        }
    }

    /// Sends one chunk of a streamed reply. Throws `clientGone` once the client has disconnected; suspends
    /// while the connection's unsent output is above the high-water mark (a client that reads slowly).
    public func write(_ chunk: [UInt8]) async throws {
        if chunk.isEmpty { return }
        let here = loop.runsJobsHere
        let (mustWait, now) = try state.locked { s throws(HTTPServerError) -> (Bool, Bool) in
            if s.gone { throw HTTPServerError.clientGone }
            guard s.phase == .streaming else {
                throw HTTPServerError(kind: .responderMisuse,
                                      message: "write was called outside a stream; call startStream first and do not write after end.")
            }
            s.queuedBytes += chunk.count
            let now = here && !s.posted
            if !now { s.posted = true }
            return (s.queuedBytes > highWaterBytes, now)
        }
        if now {
            loop.sendChunk(self, chunk)
        } else {
            loop.post(.chunk(self, chunk))
        }
        if mustWait { try await waitForDrain() }
    }

    /// Ends a streamed reply (the terminating empty chunk). Ignored when no stream is open.
    public func end() {
        let here = loop.runsJobsHere
        let (send, now) = state.locked { s -> (Bool, Bool) in
            guard s.phase == .streaming else { return (false, false) }
            s.phase = .finished
            return (!s.gone, here && !s.posted)
        }
        guard send else { return }
        if now {
            loop.endStream(self)
        } else {
            loop.post(.end(self))
        }
    }

    /// Sends the stream's head and chunks queued so far before the caller goes on, when it runs on the connection's
    /// event loop with that request alone in flight (the first events of a stream: what its client waits for, decision
    /// 0063). Otherwise, and when nothing is queued, it does nothing: they go out at the end of the loop's batch of jobs.
    public func sendQueuedNow() {
        guard loop.runsJobsHere, !state.locked({ $0.posted }) else { return }
        loop.sendStreamNow(self)
    }

    private func waitForDrain() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let now = state.locked { s -> Result<Void, any Error>? in
                if s.gone { return .failure(HTTPServerError.clientGone) }
                if s.queuedBytes <= highWaterBytes { return .success(()) }
                s.drainWaiter = continuation
                return nil
            }
            if let now { continuation.resume(with: now) }
        }
    }

    /// Called after the handler returned: a missing reply becomes a 500, an open stream is ended. A handler the server
    /// cut off (`wasCutOffByServer`) that returns without finishing its reply has its connection closed instead, as
    /// before there was a moment for last words: its client must not take a stream cut short for a whole one, nor read
    /// a 500 for a handler that was stopped (decision 0137).
    func handlerReturned() {
        let (phase, cutOff) = state.locked { ($0.phase, $0.cutOff) }
        if cutOff, phase != .finished {
            loop.post(.abandon(self))
            return
        }
        switch phase {
        case .idle:
            let (contentType, body) = loop.configuration.errorBody(
                500, "The request handler finished without sending a response; this is a gateway bug, please report it.")
            var headers = loop.configuration.errorHeaders(500)
            headers.set("Content-Type", contentType)
            respond(status: 500, headers: headers, body: body)
        case .streaming:
            end()
        case .finished:
            releaseReply()
        }
    }

    // MARK: Loop-thread notifications

    /// `bytes` queued on the connection have all been written to the socket.
    func outputDrained(_ bytes: Int) {
        let waiter = state.locked { s -> CheckedContinuation<Void, any Error>? in
            s.queuedBytes -= bytes
            guard s.queuedBytes <= highWaterBytes, let w = s.drainWaiter else { return nil }
            s.drainWaiter = nil
            return w
        }
        waiter?.resume()
    }

    /// The shutdown's grace period ended with this request still running (`wasCutOffByServer`).
    func markCutOffByServer() {
        state.locked { $0.cutOff = true }
    }

    /// The connection closed before the reply finished.
    func markClientGone() {
        let waiter = state.locked { s -> CheckedContinuation<Void, any Error>? in
            s.gone = true
            s.held = nil
            defer { s.drainWaiter = nil }
            return s.drainWaiter
        }
        waiter?.resume(throwing: HTTPServerError.clientGone)
    }
}

/// The loop's side of one request. Confined to the owning event loop thread.
final class LoopLink: @unchecked Sendable {
    /// The connection the request came on; nil once the reply was handed over whole or the connection closed.
    var owner: Connection?
    var task: Task<Void, Never>?
    /// A HEAD request: replies carry headers only.
    var isHead = false
    /// The `y` of the request's `HTTP/1.y`.
    var minorVersion = 1
    /// The open stream must not carry a body (HEAD, 1xx, 204, 304): chunks are dropped.
    var bodyless = false
    /// The open stream is sent with chunked transfer coding.
    var chunked = false
    /// Chunk bytes queued since the connection's output last drained.
    var handedBytes = 0
}
