/// Runs CPU-heavy or blocking test work on a thread of its own instead of a cooperative-pool thread.
///
/// The pool has one thread per core (two here). A test that computes for seconds on one of them (training
/// the router, thousands of generated JSON documents) leaves the other tests' continuations waiting for a
/// thread, and their latency assertions measure that wait. On a thread of its own the work is time-sliced by
/// the OS like any other process, and the pool stays free. Synchronous tests run on the pool too, and on Linux
/// `DispatchQueue.global()` is that pool (decision 0159).
///
/// The work runs in the calling test's task, on a thread of its own (`onOwnThread`), so an `#expect` inside it is
/// credited to that test. (It ran on a bare `Thread` before, where an issue was recorded for no test: a failure failed
/// the run under "«unknown»".)
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await onOwnThread("sg-off-pool") { try work() }
}
