import Dispatch
import Synchronization

/// Runs work against a deadline without waiting for the work to notice it (the embedding scorer's
/// and the skill selector's timeouts).
public enum Deadline {
    private static let timerQueue = DispatchQueue(label: "sg-deadline")

    /// The result of `work`, or `nil` when `timeout` passes first or the calling task is
    /// cancelled. Returns at the deadline: `work` is then cancelled but not awaited (what it
    /// started, such as a shared document batch, may finish in the background).
    ///
    /// The timer is a Dispatch timer on a serial queue of its own, not a task: `Task.sleep` and
    /// the global Dispatch queues share the cooperative pool's threads (on Linux they are the same
    /// root queue), while a serial queue runs on an overcommitting one. So the deadline fires even
    /// when every pool thread is busy (blocking skills, CPU-heavy work) and resumes the caller on its
    /// own executor (a handler's event loop).
    public static func run<T: Sendable>(within timeout: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        let gate = DeadlineGate<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                let worker = Task { gate.finish(await work()) }
                let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
                // Not cancelled when the work wins: firing later finds the gate settled (`finish` is idempotent).
                timerQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, nanoseconds)))) { gate.finish(nil) }
                gate.install(continuation, cancelling: worker)
            }
        } onCancel: {
            gate.finish(nil)
        }
    }
}

/// The first of the worker, the timer and cancellation to finish resumes the caller; the
/// worker is cancelled when it was not first.
private final class DeadlineGate<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T?, Never>?
        var worker: Task<Void, Never>?
        /// Set once; the result when it came before the continuation was installed.
        var finished: T??
    }

    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<T?, Never>, cancelling worker: Task<Void, Never>) {
        let early: T?? = state.locked { s in
            if let result = s.finished { return .some(result) }
            s.continuation = continuation
            s.worker = worker
            return nil
        }
        if let early {
            worker.cancel()
            continuation.resume(returning: early)
        }
    }

    func finish(_ result: T?) {
        let taken: (CheckedContinuation<T?, Never>?, Task<Void, Never>?)? = state.locked { s in
            guard s.finished == nil else { return nil }
            s.finished = .some(result)
            defer { s.continuation = nil; s.worker = nil }
            return (s.continuation, s.worker)
        }
        guard let (continuation, worker) = taken else { return }
        worker?.cancel()
        continuation?.resume(returning: result)
    }
}
