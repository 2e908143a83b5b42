import Foundation
import Synchronization

/// Runs `body` with a thread of its own as its preferred executor: the body, its child tasks and
/// every continuation they await resume there instead of on the cooperative pool.
///
/// For tests that measure a latency (a cancellation seen within 100 ms, a timeout near its setting).
/// The pool has one thread per core (two here); when other tests running in parallel block both
/// (an SQLite `fdatasync` on a shared disk, seconds of CPU work), a continuation resumed by the code
/// under test waits for a pool thread, and the test measures that wait instead of the code. On a thread
/// of its own the measurement sees only the code under test and the OS scheduler; a real stall (a lost
/// wake-up, a timer that fires late) still shows. Unstructured tasks started inside do not inherit it,
/// and on Linux a `Task.sleep` still needs a pool thread to fire (Dispatch's global queues are the
/// pool's threads): keep sleeps out of what is measured.
public func onOwnThread<T: Sendable>(_ name: String = "sg-test", _ body: () async throws -> T) async rethrows -> T {
    let executor = OwnThreadExecutor(name: name)
    defer { executor.stop() }
    return try await withTaskExecutorPreference(executor, operation: body)
}

/// A `TaskExecutor` with one dedicated thread. Jobs that arrive after `stop()` run on the global
/// executor, so no task is lost with the thread.
public final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.stackSize = 8 << 20  // deep work (large generated JSON) runs here through `offThePool`
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = state.locked { s -> Bool in
            if s.stopped { return false }
            s.jobs.append(job)
            return true
        }
        if accepted {
            signal.signal()
        } else {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// Lets the thread finish the jobs queued so far and exit.
    public func stop() {
        state.locked { $0.stopped = true }
        signal.signal()
    }

    private func run() {
        while true {
            signal.wait()
            let (jobs, stopped) = state.locked { s in
                defer { s.jobs = [] }
                return (s.jobs, s.stopped)
            }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            if stopped { return }
        }
    }
}
