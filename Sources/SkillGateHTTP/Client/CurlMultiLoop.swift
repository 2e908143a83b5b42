import CCurl
import CEvent
import FoundationEssentials
import SkillGateCore
import Glibc
import Dispatch
import Synchronization

/// Drives a libcurl multi handle on a libevent loop: a thread of its own (`sg-curl`), or, as a *lane*, the event
/// loop of an `HTTPServer` thread whose handler made the request (decision 0035).
///
/// libcurl runs in its event-driven mode (`curl_multi_socket_action`): it tells the loop which
/// sockets to watch and when its next timer is due (`CurlMultiLoop+Events.swift`), and the loop
/// calls it back when a socket is ready or the timer fires. Other threads only append commands to a
/// Mutex-guarded queue and activate the loop's wake event (`event_active`); every easy handle is
/// created, configured, paused, removed and freed on the loop's thread.
///
/// A wake-up cannot be lost: the submitter that finds no wake pending activates the wake event, and
/// an activated event stays active in libevent's queue until the loop runs it — whether the loop is
/// blocked in `epoll_wait` (libevent then writes its notification eventfd), spinning, or busy. The
/// loop clears `wakeScheduled` in the same critical section in which it takes the queue. A submission
/// from the loop's own thread (a lane's usual case) only queues the event: no eventfd, no syscall.
///
/// `@unchecked Sendable`: `base` and `wakeEvent` are used off the loop thread solely for
/// `event_active` (thread-safe: libevent's locking is on, see `EventLoop.threadingReady`), counted
/// in `wakesInFlight` so the loop frees them only once the queue is closed and no activation is
/// mid-call; the remaining mutable state is touched only by the loop thread.
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
        var wakeScheduled = false
        var closed = false
    }

    private let queue = Mutex(Queue())
    let multi: UnsafeMutableRawPointer?
    let base: OpaquePointer?
    private let startupFailure: String?
    let configuration: HTTPClient.Configuration
    let counters: HTTPClientCounters
    private let exited = DispatchSemaphore(value: 0)
    private let loopThreadID = Atomic<UInt>(0)
    private let wakesInFlight = Atomic<Int>(0)
    /// The server event loop this lane runs on, nil for a loop with a thread of its own. Weak: the event loop owns
    /// its lanes (and stops them when it exits).
    private(set) weak var attachedLoop: EventLoop?
    /// Whether this loop is a lane (set once; `attachedLoop` is loop-thread state and becomes nil when the lane stops).
    let isLane: Bool
    /// The key of this lane in its event loop's table (the owning client's `id`).
    let laneKey: UInt64
    /// A lane's end-of-turn work (deadlines, draining), activated by its callbacks so it runs once after a batch.
    var turnEndEvent: OpaquePointer?
    var turnEndPending = false
    /// A lane's epoll set of libcurl's sockets (-1 for a loop with a thread), and its event on the base.
    var laneEpoll: Int32 = -1
    /// What the lane's epoll set holds (loop thread only).
    var laneSockets = LaneSocketRegistry()
    var laneEpollEvent: OpaquePointer?
    /// True from a submission until the loop takes the queue. Only a hint for the loop's spin for
    /// the next request (see `spinThroughShortWait`): the wake event carries the submission either way.
    let commandsPending = Atomic<Bool>(false)
    /// Set once in `init`, before the thread starts; freed by the loop thread as it exits.
    private var wakeEvent: OpaquePointer?
    /// libcurl's own timer (CURLMOPT_TIMERFUNCTION) and the timer for the deadlines libcurl does
    /// not know (first byte, idle, total).
    var curlTimer: OpaquePointer?
    var deadlineTimer: OpaquePointer?

    // Loop thread only.
    private var draining = false
    private(set) var stopped = false
    /// `curl_multi_cleanup` ran (in `stopAll`): `multi` must not be used again.
    private var multiCleanedUp = false
    private var batch: [Command] = []
    var active: [ObjectIdentifier: CurlTransfer] = [:]
    /// The own HTTP/1.1 client, for the plain `http://` requests it can carry (decision 0051); nil when the
    /// configuration turns it off, or once the loop stopped.
    var http1: HTTP1Engine?
    /// Transfers running on libcurl and on the own HTTP/1.1 client.
    var transferCount: Int { active.count + (http1?.transferCount ?? 0) }
    /// Finished transfers' handles kept for reuse, by receive buffer: whole bodies and streams (`ReceiveBuffer`).
    var spareEasyHandles: [UnsafeMutableRawPointer] = []
    var spareStreamHandles: [UnsafeMutableRawPointer] = []
    /// What the transfers report from libcurl's callbacks (heads, deadlines to look at, upload memory to free).
    let notices: TransferNotices
    /// The deadline timer fired: the loop looks at every transfer's deadlines at the end of its turn.
    var deadlineDue = false
    /// One libevent event per socket libcurl asked to watch.
    var socketEvents: [Int32: OpaquePointer] = [:]
    /// When the deadline timer is due (monotonic ns), nil when it is not armed.
    var armedDeadline: UInt64?
    /// Set by every event callback; the spin stops when it turns true.
    var sawActivity = false
    /// Spin for the next request after the last transfer finished.
    var nextRequestSpin = SpinRule()
    /// Spin for the answer of the only transfer.
    var answerSpin = SpinRule()

    /// A loop with a thread of its own (`sg-curl`), started here.
    convenience init(configuration: HTTPClient.Configuration, counters: HTTPClientCounters) {
        var failure = CurlGlobal.initialise()
        let base = failure == nil && EventLoop.threadingReady ? event_base_new() : nil
        if failure == nil, base == nil { failure = "libevent could not create an event loop (event_base_new failed); check the file descriptor limit (ulimit -n)" }
        self.init(configuration: configuration, counters: counters, base: base, failure: failure, attachedTo: nil, laneKey: 0)
    }

    /// A lane on `eventLoop`'s base. Call on that loop's thread; it runs there from now on.
    convenience init(configuration: HTTPClient.Configuration, counters: HTTPClientCounters, attachedTo eventLoop: EventLoop, laneKey: UInt64) {
        self.init(configuration: configuration, counters: counters, base: eventLoop.base, failure: CurlGlobal.initialise(),
                  attachedTo: eventLoop, laneKey: laneKey)
    }

    private init(configuration: HTTPClient.Configuration, counters: HTTPClientCounters, base: OpaquePointer?, failure: String?,
                 attachedTo eventLoop: EventLoop?, laneKey: UInt64) {
        self.configuration = configuration
        self.counters = counters
        notices = TransferNotices(counters: counters)
        self.attachedLoop = eventLoop
        self.isLane = eventLoop != nil
        self.laneKey = laneKey
        var failure = failure
        let multi = failure == nil ? curl_multi_init() : nil
        if failure == nil, multi == nil { failure = "curl_multi_init returned NULL" }
        self.base = base
        self.multi = multi
        startupFailure = failure
        if let base, let multi {
            let me = Unmanaged.passUnretained(self).toOpaque()
            if configuration.usesOwnHTTP1Client { http1 = HTTP1Engine(loop: self, base: base, configuration: configuration) }
            wakeEvent = event_new(base, -1, 0, curlLoopWoken, me)
            curlTimer = event_new(base, -1, 0, curlTimerFired, me)
            deadlineTimer = event_new(base, -1, 0, curlDeadlineFired, me)
            if eventLoop != nil {
                turnEndEvent = event_new(base, -1, 0, curlLaneTurnEnded, me)
                laneEpoll = sg_lane_epoll_create()
                if laneEpoll >= 0 {
                    laneEpollEvent = event_new(base, laneEpoll, Int16(EV_READ | EV_PERSIST), curlLaneSocketsReady, me)
                    if let laneEpollEvent { event_add(laneEpollEvent, nil) }
                }
            }
            let connections = configuration.maxConnections
            _ = sg_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, connections)
            _ = sg_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connections)
            _ = sg_multi_setopt_socketfn(multi, curlSocketCallback)
            _ = sg_multi_setopt_ptr(multi, CURLMOPT_SOCKETDATA, me)
            _ = sg_multi_setopt_timerfn(multi, curlTimerCallback)
            _ = sg_multi_setopt_ptr(multi, CURLMOPT_TIMERDATA, me)
        }
        guard base != nil, multi != nil, wakeEvent != nil, curlTimer != nil, deadlineTimer != nil,
              eventLoop == nil || (turnEndEvent != nil && laneEpollEvent != nil) else {
            queue.locked { $0.closed = true }
            for event in [wakeEvent, curlTimer, deadlineTimer, turnEndEvent, laneEpollEvent] { if let event { event_free(event) } }
            if laneEpoll >= 0 { close(laneEpoll) }
            if let multi { curl_multi_cleanup(multi) }
            if let base, eventLoop == nil { event_base_free(base) }
            stopped = true
            exited.signal()
            return
        }
        if eventLoop != nil {
            loopThreadID.store(UInt(pthread_self()), ordering: .relaxed)
        } else {
            DetachedThread.start(name: "sg-curl") { [self] in run() }
        }
    }

    /// Whether the loop takes requests (false when its setup failed or it stopped).
    var isRunning: Bool { !queue.locked { $0.closed } }

    /// Hands a request to the loop; fails it at once when the loop is closed.
    func start(_ spec: TransferSpec) {
        if !submit(.add(spec)) {
            spec.delivery.fail(startupFailure.map {
                HTTPClientError(kind: .transport, detail: "the HTTP client could not start (\($0)); check that libcurl4 and libevent are installed")
            } ?? .shutDown)
        }
    }

    /// Appends a command and wakes the loop. Returns false when the loop no longer runs.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        let (accepted, wake) = queue.locked { q -> (Bool, OpaquePointer?) in
            guard !q.closed else { return (false, nil) }
            q.commands.append(command)
            commandsPending.store(true, ordering: .releasing)
            if case .stop = command { q.closed = true }
            // A wake already pending covers this command: the loop clears `wakeScheduled` in the
            // critical section that takes the queue, so it takes this command too.
            guard !q.wakeScheduled, let wakeEvent else { return (true, nil) }
            q.wakeScheduled = true
            wakesInFlight.add(1, ordering: .acquiringAndReleasing)
            return (true, wakeEvent)
        }
        // Outside the lock, so the woken loop does not find it still held. The loop frees the
        // event only after the queue closed and no activation is in flight.
        if let wake {
            event_active(wake, EV_READ, 0)
            wakesInFlight.subtract(1, ordering: .acquiringAndReleasing)
        }
        return accepted
    }

    /// Stops the loop, failing the transfers still running, and waits for the thread to exit
    /// (unless called on the loop thread itself, or for a lane: its event loop stops it in its next turn, or as it
    /// exits, and waiting on another server thread could deadlock against it). Idempotent.
    func shutdown() {
        guard submit(.stop) else { return }
        if !isLane, loopThreadID.load(ordering: .relaxed) != UInt(pthread_self()) {
            exited.wait()
        }
    }

    /// Lets the transfers in flight (and their streamed bodies) finish, then stops the thread.
    /// Used when the client is released; does not wait.
    func shutdownWhenIdle() { submit(.drain) }

    // MARK: loop thread

    private func run() {
        ThreadName.set("sg-curl")
        loopThreadID.store(UInt(pthread_self()), ordering: .relaxed)
        guard let base else { return }
        while !stopped {
            if !spinThroughShortWait() {
                event_base_loop(base, EVLOOP_ONCE | EVLOOP_NO_EXIT_ON_EMPTY)
            }
            if stopped { break }
            if draining, transferCount == 0, closeQueueIfEmpty() {
                stopAll()
                break
            }
            armDeadlineTimer(now: MonotonicClock.nanoseconds())
        }
        // The queue is closed, so no new activation can start; wait out one that is mid-call.
        while wakesInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        for event in [wakeEvent, curlTimer, deadlineTimer] { if let event { event_free(event) } }
        event_base_free(base)
        exited.signal()
    }

    /// The wake event's callback: runs the commands submitted since the last wake-up.
    func runCommands() {
        sawActivity = true
        queue.locked { q in
            swap(&batch, &q.commands)
            q.wakeScheduled = false
            commandsPending.store(false, ordering: .relaxed)
        }
        var added = false
        // Each command is moved out of the batch, not copied: an added transfer's spec is the request's whole value.
        batch.reverse()
        while let command = batch.popLast() {
            switch command {
            case .add(let spec):
                if transferCount == 0 { nextRequestSpin.waitEnded(at: MonotonicClock.nanoseconds()) }
                added = add(spec) || added
            case .cancel(let control): remove(control, reason: .cancelledByTask)
            case .resume(let control): resume(control)
            case .drain: draining = true
            case .stop:
                stopAll()
                stopped = true
            }
        }
        // Start the new transfers now rather than on libcurl's 0 ms timer one loop turn later.
        if added, !stopped { socketAction(sg_socket_timeout(), 0) }
        if stopped, attachedLoop != nil { detachFromEventLoop() }
    }

    /// Closes the queue when no command is waiting in it (the end of a drain). Returns whether it closed it.
    private func closeQueueIfEmpty() -> Bool {
        queue.locked { q in
            guard q.commands.isEmpty else { return false }
            q.closed = true
            return true
        }
    }

    /// A lane: finishes a drain whose transfers are done. Returns whether the lane stopped.
    func finishDrainIfIdle() -> Bool {
        guard draining, !stopped, transferCount == 0,
              closeQueueIfEmpty() else { return false }
        stopAll()
        detachFromEventLoop()
        return true
    }

    /// A lane, on its event loop's thread, after it stopped (or as the event loop exits): fails what still runs,
    /// frees its events and leaves the event loop's table. Idempotent.
    func detachFromEventLoop(failingWith reason: HTTPClientError = .shutDown) {
        guard let eventLoop = attachedLoop else { return }
        // Commands submitted since the last wake-up never run now: a transfer among them is failed, so the task
        // awaiting it resumes (and the queue no longer holds it and, through its control, this loop).
        let unrun = queue.locked { q -> [Command] in
            q.closed = true
            defer { q.commands = [] }
            return q.commands
        }
        if !stopped { stopAll(failingWith: reason) }
        for case .add(let spec) in unrun { spec.delivery.fail(reason) }
        // The queue is closed, so no new activation can start; wait out one that is mid-call.
        while wakesInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        for event in [wakeEvent, curlTimer, deadlineTimer, turnEndEvent, laneEpollEvent] { if let event { event_free(event) } }
        wakeEvent = nil
        curlTimer = nil
        deadlineTimer = nil
        turnEndEvent = nil
        laneEpollEvent = nil
        if laneEpoll >= 0 { close(laneEpoll) }
        laneEpoll = -1
        attachedLoop = nil
        eventLoop.curlLaneStopped(self)
        exited.signal()
    }

    private func stopAll(failingWith reason: HTTPClientError = .shutDown) {
        // Its sockets' events go before the base does.
        http1?.stopAll(failingWith: reason)
        http1 = nil
        guard let multi, !multiCleanedUp else { return }
        for transfer in active.values {
            _ = curl_multi_remove_handle(multi, transfer.easy)
            curl_easy_cleanup(transfer.easy)
            transfer.settle(reason)
        }
        active.removeAll()
        for easy in spareEasyHandles + spareStreamHandles { curl_easy_cleanup(easy) }
        spareEasyHandles.removeAll()
        spareStreamHandles.removeAll()
        // Closes the pooled connections (libcurl tells the socket callback to stop watching them).
        _ = curl_multi_cleanup(multi)
        multiCleanedUp = true
        for event in socketEvents.values { event_free(event) }
        socketEvents.removeAll()
        for timer in [curlTimer, deadlineTimer] { if let timer { event_del(timer) } }
        stopped = true
    }
}
