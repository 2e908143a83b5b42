import Foundation

/// Runs CPU-heavy or blocking test work on a thread of its own instead of a cooperative-pool thread.
///
/// The pool has one thread per core (two here). A test that computes for seconds on one of them (training
/// the router, thousands of generated JSON documents) leaves the other tests' continuations waiting for a
/// thread, and their latency assertions measure that wait. On a thread of its own the work is time-sliced by
/// the OS like any other process, and the pool stays free. Synchronous tests run on the pool too, and on Linux
/// `DispatchQueue.global()` is that pool (decision 0159).
///
/// Keep `#expect` out of `work`: on a thread of its own an issue is recorded for no test. Return what the
/// expectations need and check it after.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
