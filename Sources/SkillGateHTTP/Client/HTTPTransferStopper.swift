import Synchronization

/// Stops one transfer from outside the task that awaits it: wherever the transfer is — queued for a connection (the
/// per-host limit), waiting for the response head, or streaming its body — its awaiter gets `cancelled`, and the
/// transfer ends, as when the awaiting task is cancelled, but that task goes on. For a deadline the transfer's own
/// timeouts cannot express (decision 0156: the first event of a stream, a wait for a pooled connection). Pass it to
/// `HTTPClient.send` or `stream`; `stop()` may come before the transfer started (it then stops at once).
public final class HTTPTransferStopper: Sendable {
    private struct State {
        var stopped = false
        var stopTransfer: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    public init() {}

    /// Stops the transfer (now, or as soon as it is attached). Idempotent.
    public func stop() {
        let stopTransfer = state.locked { s -> (@Sendable () -> Void)? in
            guard !s.stopped else { return nil }
            s.stopped = true
            defer { s.stopTransfer = nil }
            return s.stopTransfer
        }
        stopTransfer?()
    }

    /// Whether `stop()` was called: tells the awaiter that a `cancelled` failure was this stop, not its task's.
    public var wasStopped: Bool { state.locked { $0.stopped } }

    /// Attaches the transfer's own stop (called by the client when the transfer is made).
    func attach(_ stopTransfer: @escaping @Sendable () -> Void) {
        let already = state.locked { s -> Bool in
            if s.stopped { return true }
            s.stopTransfer = stopTransfer
            return false
        }
        if already { stopTransfer() }
    }
}
