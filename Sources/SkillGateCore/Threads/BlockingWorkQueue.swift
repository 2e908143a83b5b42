import Dispatch

/// A serial queue for blocking work (store reads and writes) that an async caller awaits, so the work never runs on
/// the caller's thread: an event loop awaiting it goes on serving its other connections meanwhile (decisions 0085,
/// 0086). One job at a time, in order; a queue of its own targets Dispatch's overcommitting pool, so blocking work
/// elsewhere cannot starve it.
public struct BlockingWorkQueue: Sendable {
    private let queue: DispatchQueue

    /// - Parameter label: the queue's name, as thread listings and debuggers show it.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `work` on the queue and returns its result once it has run.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs `work` on the queue and returns once it has run.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Queues `work` without awaiting it.
    public func start(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}
