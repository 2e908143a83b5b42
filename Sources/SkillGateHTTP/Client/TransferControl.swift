import Synchronization

/// The part of one transfer that other threads may touch: its cancellation flag.
/// The loop thread owns everything else (the easy handle lives only there).
final class TransferControl: Sendable {
    private let cancelledFlag = Atomic<Bool>(false)
    let loop: CurlMultiLoop

    init(loop: CurlMultiLoop) { self.loop = loop }

    /// Whether the transfer was cancelled (read by the loop and by the progress callback).
    var isCancelled: Bool { cancelledFlag.load(ordering: .acquiring) }

    /// Marks the transfer cancelled and asks the loop to remove it at once. Idempotent.
    func cancel() {
        if cancelledFlag.exchange(true, ordering: .acquiringAndReleasing) { return }
        loop.submit(.cancel(self))
    }

    /// Asks the loop to resume a transfer that was paused because its consumer fell behind.
    func requestResume() { loop.submit(.resume(self)) }
}

/// Where a transfer's outcome goes.
enum TransferDelivery: Sendable {
    /// Buffer the whole body (up to `limit` bytes) and resume the continuation once.
    case collect(CheckedContinuation<HTTPResponse, any Error>, limit: Int)
    /// Hand the head and body chunks to a consumer through a bounded channel.
    case stream(StreamingBodyChannel)

    /// Whether the body goes to a consumer as it arrives (its handle then has the small receive buffer).
    var streams: Bool {
        if case .stream = self { return true }
        return false
    }

    /// Fails the waiting side before the transfer ever started.
    func fail(_ error: HTTPClientError) {
        switch self {
        case .collect(let continuation, _): continuation.resume(throwing: error)
        case .stream(let channel): channel.finish(error)
        }
    }
}

/// Everything the loop needs to start a transfer.
struct TransferSpec: Sendable {
    var request: HTTPRequest
    var control: TransferControl
    var delivery: TransferDelivery
}

extension HTTPClientError {
    static let shutDown = HTTPClientError(
        kind: .cancelled,
        detail: "the HTTPClient was shut down before the request finished; keep the client alive while its requests run")
    static let serverStopped = HTTPClientError(
        kind: .cancelled,
        detail: "the server event loop this request ran on stopped (the server shut down) before the request finished; send it again to a running server")
    static let cancelledByTask = HTTPClientError(
        kind: .cancelled,
        detail: "the request was cancelled by its task (or its body stream was dropped); nothing to do unless that was unintended")
}
