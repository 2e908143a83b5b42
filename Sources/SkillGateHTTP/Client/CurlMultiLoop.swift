import CCurl
import FoundationEssentials
import SkillGateCore
import Glibc
import Dispatch
import Synchronization

/// The one thread that drives a libcurl multi handle. Other threads only append commands to a
/// Mutex-guarded queue and call `curl_multi_wakeup`; every easy handle is created, configured,
/// paused, removed and freed on this thread.
///
/// `@unchecked Sendable`: `multi` is used off the loop thread solely for `curl_multi_wakeup`
/// (thread-safe by libcurl's contract), counted in `wakeupsInFlight` so the loop frees it only
/// once the queue is closed and no wakeup is mid-call; the remaining mutable state is touched
/// only by the loop thread.
final class CurlMultiLoop: @unchecked Sendable {
    enum Command {
        case add(TransferSpec)
        case cancel(TransferControl)
        case resume(TransferControl)
        /// Finish the transfers in flight, then stop (the client was released).
        case drain
        case stop
    }

    private struct Queue {
        var commands: [Command] = []
        var closed = false
    }

    private let queue = Mutex(Queue())
    private let multi: UnsafeMutableRawPointer?
    private let startupFailure: String?
    let configuration: HTTPClient.Configuration
    private let exited = DispatchSemaphore(value: 0)
    private let loopThreadID = Atomic<UInt>(0)
    private let wakeupsInFlight = Atomic<Int>(0)
    private let peakStreamBuffered = Atomic<Int>(0)
    /// True while the loop thread spins (for a command, or for socket activity) instead of
    /// sleeping: submitters then skip the wake-up. Paired with `hasCommands` (see `submit` and
    /// `spinForNextCommand`).
    let spinning = Atomic<Bool>(false)
    let hasCommands = Atomic<Bool>(false)

    // Loop thread only.
    private var draining = false
    var active: [ObjectIdentifier: CurlTransfer] = [:]
    private var spareEasyHandles: [UnsafeMutableRawPointer] = []
    /// Spin for the next request after the last transfer finished.
    private var nextRequestSpin = SpinRule()
    /// Spin for the answer of the only transfer.
    private var answerSpin = SpinRule()

    init(configuration: HTTPClient.Configuration) {
        self.configuration = configuration
        if let failure = CurlGlobal.initialise() {
            startupFailure = failure
            multi = nil
        } else if let multi = curl_multi_init() {
            startupFailure = nil
            self.multi = multi
            let connections = configuration.maxConnections
            _ = sg_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, connections)
            _ = sg_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connections)
        } else {
            startupFailure = "curl_multi_init returned NULL"
            multi = nil
        }
        if multi == nil {
            queue.withLock { $0.closed = true }
            exited.signal()
            return
        }
        DetachedThread.start(name: "sg-curl") { [self] in run() }
    }

    /// Hands a request to the loop; fails it at once when the loop is closed.
    func start(_ spec: TransferSpec) {
        if !submit(.add(spec)) {
            spec.delivery.fail(startupFailure.map {
                HTTPClientError(kind: .transport, detail: "libcurl could not be initialised (\($0)); check that libcurl4 is installed")
            } ?? .shutDown)
        }
    }

    /// Appends a command and wakes the loop. Returns false when the loop no longer runs.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        guard let multi else { return false }
        let (accepted, wake) = queue.withLock { q -> (Bool, Bool) in
            guard !q.closed else { return (false, false) }
            let wasEmpty = q.commands.isEmpty
            q.commands.append(command)
            hasCommands.store(true, ordering: .sequentiallyConsistent)
            if case .stop = command { q.closed = true }
            // A spinning loop sees the command by itself. It clears `spinning` before it looks at
            // the queue a last time, so either it finds this command or this load sees false.
            let wake = wasEmpty && !spinning.load(ordering: .sequentiallyConsistent)
            if wake { wakeupsInFlight.add(1, ordering: .acquiringAndReleasing) }
            return (true, wake)
        }
        // Woken outside the lock, so the loop thread does not wake up only to block on it.
        // The loop frees `multi` only after the queue closed and no wakeup is in flight.
        if wake {
            _ = curl_multi_wakeup(multi)
            wakeupsInFlight.subtract(1, ordering: .acquiringAndReleasing)
        }
        return accepted
    }

    /// Stops the loop, failing the transfers still running, and waits for the thread to exit
    /// (unless called on the loop thread itself). Idempotent.
    func shutdown() {
        guard submit(.stop) else { return }
        if loopThreadID.load(ordering: .relaxed) != UInt(pthread_self()) {
            exited.wait()
        }
    }

    /// Most bytes any streamed body of this client held unread (diagnostics for bounded buffering).
    var peakStreamBufferedBytes: Int { peakStreamBuffered.load(ordering: .relaxed) }

    func recordBufferedPeak(_ bytes: Int) {
        var current = peakStreamBuffered.load(ordering: .relaxed)
        while bytes > current {
            let (exchanged, original) = peakStreamBuffered.compareExchange(expected: current, desired: bytes, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Lets the transfers in flight (and their streamed bodies) finish, then stops the thread.
    /// Used when the client is released; does not wait.
    func shutdownWhenIdle() { submit(.drain) }

    // MARK: loop thread

    private func run() {
        ThreadName.set("sg-curl")
        loopThreadID.store(UInt(pthread_self()), ordering: .relaxed)
        guard let multi else { return }
        var batch: [Command] = []
        var running: Int32 = 0
        while true {
            queue.withLock {
                swap(&batch, &$0.commands)
                hasCommands.store(false, ordering: .relaxed)
            }
            for command in batch {
                switch command {
                case .add(let spec):
                    if active.isEmpty { nextRequestSpin.waitEnded(at: MonotonicClock.nanoseconds()) }
                    add(spec)
                case .cancel(let control): remove(control, reason: .cancelledByTask)
                case .resume(let control): resume(control)
                case .drain: draining = true
                case .stop:
                    stopAll(multi)
                    exited.signal()
                    return
                }
            }
            batch.removeAll(keepingCapacity: true)
            _ = curl_multi_perform(multi, &running)
            collectFinished(multi)
            if draining, active.isEmpty, queue.withLock({ q in q.commands.isEmpty ? { q.closed = true; return true }() : false }) {
                stopAll(multi)
                exited.signal()
                return
            }
            let now = MonotonicClock.nanoseconds()
            let waitMilliseconds = enforceDeadlines(now: now)
            if active.isEmpty, nextRequestSpin.waitStarted(at: now, window: configuration.spinWindow) {
                if spinForNextCommand(until: now &+ nextRequestSpin.window) { continue }
                nextRequestSpin.timedOut()
            } else if active.count == 1, answerSpin.waitStarted(at: now, window: configuration.spinWindow) {
                if spinForActivity(multi, until: now &+ answerSpin.window) { continue }
                answerSpin.timedOut()
            }
            _ = curl_multi_poll(multi, nil, 0, waitMilliseconds, nil)
        }
    }

    private func add(_ spec: TransferSpec) {
        if spec.control.isCancelled { return spec.delivery.fail(.cancelledByTask) }
        guard let multi, let easy = spareEasyHandles.popLast() ?? newEasyHandle(for: spec) else { return }
        let transfer = CurlTransfer(easy: easy, spec: spec, now: MonotonicClock.nanoseconds())
        if let problem = transfer.configure(spec.request, configuration: configuration) {
            transfer.settle(problem)
            return recycle(easy)
        }
        let code = curl_multi_add_handle(multi, easy)
        guard code == CURLM_OK else {
            transfer.settle(HTTPClientError(kind: .transport,
                detail: "curl_multi_add_handle failed: \(String(cString: curl_multi_strerror(code))); retry later"))
            return recycle(easy)
        }
        active[ObjectIdentifier(spec.control)] = transfer
    }

    /// Removes a transfer before it finished (cancelled, or one of our own timeouts). For
    /// HTTP/1.1 this closes its connection at once, so the upstream sees the close.
    func remove(_ control: TransferControl, reason: HTTPClientError) {
        guard let multi, let transfer = active.removeValue(forKey: ObjectIdentifier(control)) else { return }
        _ = curl_multi_remove_handle(multi, transfer.easy)
        transfer.settle(reason)
        recycle(transfer.easy)
    }

    private func resume(_ control: TransferControl) {
        guard let transfer = active[ObjectIdentifier(control)], transfer.pausedForConsumer else { return }
        transfer.pausedForConsumer = false
        transfer.lastActivity = MonotonicClock.nanoseconds()
        _ = sg_easy_unpause(transfer.easy)   // may call the write callback (and pause again) right here
    }

    private func collectFinished(_ multi: UnsafeMutableRawPointer) {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = sg_multi_msg_result(message)
            var pointer: UnsafeMutableRawPointer?
            _ = sg_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &pointer)
            guard let pointer else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
            active.removeValue(forKey: ObjectIdentifier(transfer.control))
            if active.isEmpty { answerSpin.waitEnded(at: MonotonicClock.nanoseconds()) }
            let error = code == CURLE_OK ? nil : (transfer.abortReason ?? HTTPClientError(curlCode: code, transfer: transfer))
            // The waiting task first, the bookkeeping after: the task's thread wakes meanwhile.
            transfer.settle(error)
            _ = curl_multi_remove_handle(multi, easy)
            recycle(easy)
        }
    }

    /// A new easy handle with the options all transfers share, or nil after failing `spec`.
    private func newEasyHandle(for spec: TransferSpec) -> UnsafeMutableRawPointer? {
        guard let easy = curl_easy_init() else {
            spec.delivery.fail(HTTPClientError(kind: .transport, detail: "curl_easy_init failed (out of memory?); retry later"))
            return nil
        }
        if let refused = CurlHandleDefaults.apply(to: easy, configuration: configuration) {
            curl_easy_cleanup(easy)
            spec.delivery.fail(HTTPClientError(kind: .transport,
                detail: "libcurl refused option \(refused.rawValue) while setting up a handle; check that libcurl4 (7.85 or newer) is installed"))
            return nil
        }
        return easy
    }

    /// Keeps a finished transfer's handle for the next request (its shared options stay set).
    private func recycle(_ easy: UnsafeMutableRawPointer) {
        if spareEasyHandles.count < configuration.maxConnections {
            CurlHandleDefaults.detach(easy)
            spareEasyHandles.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }

    private func stopAll(_ multi: UnsafeMutableRawPointer) {
        for transfer in active.values {
            _ = curl_multi_remove_handle(multi, transfer.easy)
            curl_easy_cleanup(transfer.easy)
            transfer.settle(.shutDown)
        }
        active.removeAll()
        for easy in spareEasyHandles { curl_easy_cleanup(easy) }
        spareEasyHandles.removeAll()
        // The queue is closed, so no new wakeup can start; wait out one that is mid-call, then
        // free the multi handle (this also closes the pooled connections).
        while wakeupsInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        _ = curl_multi_cleanup(multi)
    }
}
