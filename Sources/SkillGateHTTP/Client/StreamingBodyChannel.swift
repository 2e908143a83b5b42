import Synchronization

/// The bounded hand-over between the libcurl loop thread (producer) and the task reading a
/// streamed body (consumer). When `capacity` bytes wait unread, the producer is told to pause the
/// transfer; once the consumer has drained half of it, the transfer is resumed.
final class StreamingBodyChannel: Sendable {
    struct Head: Sendable {
        var status: Int
        var headers: HTTPHeaders
    }

    /// What the loop thread should do with a chunk it offered.
    enum OfferResult { case accepted, pause, abort }

    private struct State {
        var headWaiter: CheckedContinuation<Head, any Error>?
        var headSettled = false
        var chunks: [[UInt8]] = []
        var readIndex = 0
        var bufferedBytes = 0
        var bodyWaiter: CheckedContinuation<[UInt8]?, any Error>?
        var transferPaused = false
        var finished = false
        var failure: HTTPClientError?
        var cancelled = false
        var peakBufferedBytes = 0
    }

    private enum Take { case chunk([UInt8], resume: Bool), end, fail(HTTPClientError), empty }

    let control: TransferControl
    let capacity: Int
    private let state = Mutex(State())

    init(control: TransferControl, capacity: Int) {
        self.control = control
        self.capacity = capacity
    }

    /// Most bytes that were ever buffered unread (for tests of bounded buffering).
    var peakBufferedBytes: Int { state.locked { $0.peakBufferedBytes } }

    // MARK: loop thread

    func deliverHead(_ head: Head) {
        let waiter = state.locked { s -> CheckedContinuation<Head, any Error>? in
            s.headSettled = true
            defer { s.headWaiter = nil }
            return s.headWaiter
        }
        waiter?.resume(returning: head)
    }

    func offer(_ bytes: UnsafeRawBufferPointer) -> OfferResult {
        var newPeak = 0
        let (result, waiter) = state.locked { s -> (OfferResult, CheckedContinuation<[UInt8]?, any Error>?) in
            if s.cancelled { return (.abort, nil) }
            if let waiter = s.bodyWaiter {
                s.bodyWaiter = nil
                return (.accepted, waiter)
            }
            if s.bufferedBytes >= capacity {
                s.transferPaused = true
                return (.pause, nil)
            }
            s.chunks.append(Array(bytes))
            s.bufferedBytes += bytes.count
            if s.bufferedBytes > s.peakBufferedBytes {
                s.peakBufferedBytes = s.bufferedBytes
                newPeak = s.bufferedBytes
            }
            return (.accepted, nil)
        }
        if newPeak > 0 { control.loop.counters.recordBufferedPeak(newPeak) }
        waiter?.resume(returning: Array(bytes))
        return result
    }

    /// Ends the stream: `error == nil` after the whole body arrived.
    func finish(_ error: HTTPClientError?) {
        let (headWaiter, bodyWaiter) = state.locked { s -> (CheckedContinuation<Head, any Error>?, CheckedContinuation<[UInt8]?, any Error>?) in
            s.finished = true
            s.failure = error
            s.headSettled = true
            defer { s.headWaiter = nil; s.bodyWaiter = nil }
            return (s.headWaiter, s.bodyWaiter)
        }
        headWaiter?.resume(throwing: error ?? HTTPClientError(
            kind: .transport, detail: "the response ended before its head was complete; check the upstream server"))
        if let bodyWaiter {
            if let error { bodyWaiter.resume(throwing: error) } else { bodyWaiter.resume(returning: nil) }
        }
    }

    // MARK: consumer side

    /// Waits for the response head; submits the transfer first through `start`.
    func awaitHead(start: @Sendable () -> Void) async throws -> Head {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Head, any Error>) in
                let refuse = state.locked { s -> HTTPClientError? in
                    if s.cancelled { return .cancelledByTask }
                    if s.headSettled { return s.failure ?? .cancelledByTask }
                    s.headWaiter = continuation
                    return nil
                }
                if let refuse { continuation.resume(throwing: refuse) } else { start() }
            }
        } onCancel: { self.cancel() }
    }

    /// The next body chunk, or nil at the end of the body.
    func next() async throws -> [UInt8]? {
        if let ready = try nextIfReady() { return ready }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                let now = state.locked { s -> Take in
                    let t = Self.take(&s, capacity: capacity)
                    if case .empty = t { s.bodyWaiter = continuation }
                    return t
                }
                switch now {
                case .chunk(let chunk, let resume):
                    if resume { control.requestResume() }
                    continuation.resume(returning: chunk)
                case .end: continuation.resume(returning: nil)
                case .fail(let error): continuation.resume(throwing: error)
                case .empty: break
                }
            }
        } onCancel: { self.cancel() }
    }

    /// The next body chunk when it can be had without waiting: the chunk, `.some(nil)` at the body's end, or nil when
    /// the next one has not arrived yet.
    func nextIfReady() throws(HTTPClientError) -> [UInt8]?? {
        switch take() {
        case .chunk(let chunk, let resume):
            if resume { control.requestResume() }
            return .some(chunk)
        case .end: return .some(nil)
        case .fail(let error): throw error
        case .empty: return nil
        }
    }

    /// Stops the transfer on behalf of the consumer (task cancelled or stream dropped).
    func cancel() {
        let (headWaiter, bodyWaiter, stopTransfer) = state.locked { s -> (CheckedContinuation<Head, any Error>?, CheckedContinuation<[UInt8]?, any Error>?, Bool) in
            if s.cancelled { return (nil, nil, false) }
            s.cancelled = true
            s.chunks.removeAll()
            s.readIndex = 0
            s.bufferedBytes = 0
            defer { s.headWaiter = nil; s.bodyWaiter = nil }
            return (s.headWaiter, s.bodyWaiter, !s.finished)
        }
        if stopTransfer { control.cancel() }
        headWaiter?.resume(throwing: HTTPClientError.cancelledByTask)
        bodyWaiter?.resume(throwing: HTTPClientError.cancelledByTask)
    }

    private func take() -> Take { state.locked { Self.take(&$0, capacity: capacity) } }

    private static func take(_ s: inout State, capacity: Int) -> Take {
        if s.readIndex < s.chunks.count {
            let chunk = s.chunks[s.readIndex]
            s.readIndex += 1
            s.bufferedBytes -= chunk.count
            if s.readIndex == s.chunks.count {
                s.chunks.removeAll(keepingCapacity: true)
                s.readIndex = 0
            } else if s.readIndex >= 64 {
                s.chunks.removeFirst(s.readIndex)
                s.readIndex = 0
            }
            var resume = false
            if s.transferPaused && s.bufferedBytes <= capacity / 2 {
                s.transferPaused = false
                resume = true
            }
            return .chunk(chunk, resume: resume)
        }
        if s.cancelled { return .fail(.cancelledByTask) }
        if s.finished {
            if let failure = s.failure {
                s.failure = nil   // report once; later calls see the end
                return .fail(failure)
            }
            return .end
        }
        return .empty
    }
}

/// Reads a streamed response body chunk by chunk, in whichever task calls `next()` (one caller at a time): no task of
/// its own and no buffer beyond the transfer's bounded one, so a stream read on a server event loop stays there.
/// When the reader is released, the transfer is cancelled and the upstream connection closes at once.
public final class HTTPBodyReader: Sendable {
    let channel: StreamingBodyChannel

    init(channel: StreamingBodyChannel) { self.channel = channel }

    deinit { channel.cancel() }

    /// The next chunk, or nil at the end of the body.
    ///
    /// - Throws: `HTTPClientError` when the transfer failed (idle or total timeout, broken connection) or the calling
    ///   task was cancelled (which also stops the transfer).
    public func next() async throws -> [UInt8]? {
        try await channel.next()
    }

    /// The next chunk when it has arrived already: the chunk, `.some(nil)` at the end of the body, or nil when `next()`
    /// would wait for it.
    ///
    /// - Throws: `HTTPClientError` when the transfer failed.
    public func nextIfReady() throws -> [UInt8]?? {
        try channel.nextIfReady()
    }
}
