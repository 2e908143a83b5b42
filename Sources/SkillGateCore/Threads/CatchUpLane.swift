import Dispatch
import Synchronization

/// A parked thread at the priority of the thread that made it, to which a `lowPriorityBackground` writer hands its
/// work while it is behind (decision 0060).
///
/// A writer at a lowered priority stays out of the way of the event loops and of other processes, but on a machine
/// whose CPUs are all busy it gets only about a tenth of one, and an unprivileged thread cannot raise its priority
/// again. So the writer is made with a lane, and when a batch shows that records come faster than it writes them, it
/// runs the writing on the lane's thread and waits for it: one thread writes at a time, so the order of batches is
/// kept. Make the lane from a thread of normal priority (its thread inherits the maker's nice value).
public final class CatchUpLane: Sendable {
    private struct State {
        var job: (@Sendable () -> Void)?
        var closed = false
        var jobsRun = 0
    }

    private let state = Mutex(State())
    private let start = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// One caller at a time hands a job over.
    private let callers = DispatchSemaphore(value: 1)

    /// Starts the lane's thread, named `name` (at most 15 bytes are kept), parked until `run` is called.
    public init(name: String) {
        let started = DetachedThread.start(name: name, scheduling: .background) { [self] in park() }
        if !started { state.locked { $0.closed = true } }
    }

    /// Runs `job` on the lane's thread and returns its result when it has ended; runs it on the calling thread when the
    /// lane was closed or its thread could not start. Callers on several threads take turns.
    @discardableResult
    public func run<Result: Sendable>(_ job: @escaping @Sendable () -> Result) -> Result {
        let answer = Answer<Result>()
        callers.wait()
        defer { callers.signal() }
        let handed = state.locked { s -> Bool in
            guard !s.closed else { return false }
            s.job = {
                let result = job()
                answer.value.locked { $0 = result }
            }
            return true
        }
        guard handed else { return job() }
        start.signal()
        done.wait()
        return answer.value.locked { $0! }
    }

    /// Where the lane's thread leaves a job's result for the caller waiting on `done`.
    private final class Answer<Result: Sendable>: Sendable {
        let value = Mutex<Result?>(nil)
    }

    /// Jobs the lane's thread has taken, counted as each starts (for tests and statistics).
    public var jobsRun: Int { state.locked { $0.jobsRun } }

    /// Ends the lane's thread; later jobs run on their callers' threads.
    public func close() {
        state.locked { $0.closed = true }
        start.signal()
    }

    private func park() {
        while true {
            start.wait()
            let job = state.locked { s -> (@Sendable () -> Void)? in
                defer { s.job = nil }
                if s.job != nil { s.jobsRun += 1 }
                return s.job
            }
            guard let job else {
                if state.locked({ $0.closed }) { return }
                continue
            }
            job()
            done.signal()
        }
    }
}
