import CScheduling

/// How the kernel schedules a long-lived thread beside the gateway's event loops (decision 0048).
public enum ThreadScheduling: Sendable, Equatable {
    /// The kernel's defaults: event loops, and every thread a request waits on.
    case normal
    /// Work no request waits for (the log, usage ledger and response archive writers). The thread asks for a long
    /// time slice (`backgroundSliceNanoseconds`). Under Linux's EEVDF scheduler (6.12 and later), a thread woken with
    /// a shorter slice preempts one with a longer slice at once, so an event loop woken by a request takes the CPU
    /// from a writer in the middle of a batch instead of waiting out the writer's slice. The writer's share of the
    /// CPU stays fair; it is only the one that waits when both want to run. Older kernels ignore the request.
    case background
    /// A background thread that also lowers its priority (`lowPriorityNice`): for a writer whose work, when it comes
    /// at the moment a client, an upstream or an event loop is woken on the same CPU, would otherwise run first. The
    /// long slice alone does not prevent that when the two belong to different processes (decision 0060): the
    /// scheduler then picks between the processes' groups first. Such a thread cannot raise its priority again, so a
    /// writer that falls behind hands its work to a `CatchUpLane`.
    case lowPriorityBackground

    /// The slice a background thread asks for: 20 ms, against the kernel's default of 0.75 ms × (1 + log2 CPUs).
    public static let backgroundSliceNanoseconds: UInt64 = 20_000_000

    /// The nice value of a `lowPriorityBackground` thread: 10, a weight of 110 against 1024 at the default of 0, so
    /// about a tenth of a CPU that a busy event loop wants too (decision 0060 measured that the ledger keeps up with
    /// 22,000 requests a second at it; nice 19 fell behind).
    public static let lowPriorityNice: Int32 = 10

    /// Applies this to the calling thread. Returns 0, or the errno the kernel refused it with: best effort, since a
    /// thread that keeps the defaults still works (only a request's tail latency beside a busy writer is longer).
    @discardableResult
    public func applyToCurrentThread() -> Int32 {
        switch self {
        case .normal: return 0
        case .background: return sg_set_own_time_slice(Self.backgroundSliceNanoseconds)
        case .lowPriorityBackground:
            let slice = sg_set_own_time_slice(Self.backgroundSliceNanoseconds)
            let nice = sg_set_own_nice(Self.lowPriorityNice)
            return slice != 0 ? slice : nice
        }
    }

    /// The nice value of this process's thread `tid` (0: the calling thread).
    public static func nice(ofThread tid: Int32 = 0) -> Int32 { sg_nice_of(tid) }

    /// The calling thread's time slice in nanoseconds as the kernel reports it (Linux 6.12 and later); `nil` where the
    /// kernel reports none.
    public static var currentThreadSliceNanoseconds: UInt64? { sliceNanoseconds(ofThread: 0) }

    /// The time slice of this process's thread `tid` (as `/proc/self/task` lists it), like `currentThreadSliceNanoseconds`.
    public static func sliceNanoseconds(ofThread tid: Int32) -> UInt64? {
        let slice = sg_time_slice_of(tid)
        return slice == 0 ? nil : slice
    }
}
