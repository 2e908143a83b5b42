import Synchronization

/// Runs work against a deadline without waiting for the work to notice it.
enum Deadline {
    /// The result of `work`, or `nil` when `timeout` passes first or the calling task is
    /// cancelled. Returns at the deadline: `work` is then cancelled but not awaited (what it
    /// started, such as a shared document batch, may finish in the background).
    static func run<T: Sendable>(within timeout: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        let gate = DeadlineGate<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                let worker = Task { gate.finish(await work()) }
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    gate.finish(nil)
                }
                gate.install(continuation, cancelling: [worker, timer])
            }
        } onCancel: {
            gate.finish(nil)
        }
    }
}

/// The first of the worker, the timer and cancellation to finish resumes the caller; the
/// others' tasks are cancelled.
private final class DeadlineGate<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T?, Never>?
        var tasks: [Task<Void, Never>] = []
        /// Set once; the result when it came before the continuation was installed.
        var finished: T??
    }

    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<T?, Never>, cancelling tasks: [Task<Void, Never>]) {
        let early: T?? = state.withLock { s in
            if let result = s.finished { return .some(result) }
            s.continuation = continuation
            s.tasks = tasks
            return nil
        }
        if let early {
            tasks.forEach { $0.cancel() }
            continuation.resume(returning: early)
        }
    }

    func finish(_ result: T?) {
        let taken: (CheckedContinuation<T?, Never>?, [Task<Void, Never>])? = state.withLock { s in
            guard s.finished == nil else { return nil }
            s.finished = .some(result)
            defer { s.continuation = nil; s.tasks = [] }
            return (s.continuation, s.tasks)
        }
        guard let (continuation, tasks) = taken else { return }
        tasks.forEach { $0.cancel() }
        continuation?.resume(returning: result)
    }
}
