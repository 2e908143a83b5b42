import CEvent
import FoundationEssentials
import SkillGateCore
import Glibc
import Dispatch
import Synchronization

/// Work posted to an event loop thread from Swift tasks.
enum LoopJob: Sendable {
    case reply(HTTPResponder, status: Int, headers: HTTPHeaders, body: [UInt8])
    case startStream(HTTPResponder, status: Int, headers: HTTPHeaders)
    case chunk(HTTPResponder, [UInt8])
    case end(HTTPResponder)
    /// A job of a task that prefers this loop as its executor.
    case run(UnownedJob)
    /// A `headGate` decision made off the loop for the connection that holds `ticket` (`HTTPHeadDecision.decideLater`).
    case headDecided(ObjectIdentifier, ticket: UInt64, HTTPHeadDecision)
    /// Close the listening socket; answer requests on open connections with 503.
    case stopAccepting
    /// The drain's grace period ended: tell the handlers still running that the server cuts them off and cancel them,
    /// leaving their connections open for a last word (`HTTPResponder.wasCutOffByServer`).
    case cutOff
    /// A handler that was cut off returned without finishing its reply: its connection closes without more.
    case abandon(HTTPResponder)
    /// Cancel this responder's handler, which its owner stopped (`HTTPResponder.stopHandler(because:)`).
    case stopHandler(HTTPResponder)
    /// Free all connections (cancelling their handlers) and leave the loop.
    case stop
}

/// What the event loops of one server share: the connection caps, counters and the memory trimmer.
struct LoopShared: Sendable {
    let limiter: ConnectionLimiter
    let counters: ServerCounters
    let trimmer: MemoryTrimmer
    let balance: AcceptBalance
    /// How many event loops the server runs.
    let loopCount: Int
}

/// One libevent `event_base` on its own thread, accepting on its descriptor of the listening socket and serving
/// HTTP/1.1 on the connections it accepted (`Connection`; decision 0058).
///
/// The C pointers are touched only on the loop thread (after `start()`); other threads talk to the loop
/// through `post(_:)`, which appends to a Mutex-guarded queue and wakes the loop with `event_active`.
final class EventLoop: @unchecked Sendable {
    private struct JobQueue {
        var jobs: [LoopJob] = []
        var wakeScheduled = false
        var closed = false
    }

    /// `evthread_use_pthreads()` must run once, before any event_base exists.
    static let threadingReady: Bool = evthread_use_pthreads() == 0

    let index: Int
    let configuration: HTTPServer.Configuration
    let handler: any HTTPHandler
    let shared: LoopShared
    let base: OpaquePointer
    /// Where every connection of this loop reads to (`EventLoop+Reading.swift`).
    let readBuffer: UnsafeMutableRawBufferPointer
    private var wakeEvent: OpaquePointer?
    /// This loop's descriptor of the listening socket, until it stops accepting.
    var listeningSocket: Int32?
    /// Readable listening socket: connections to accept.
    var listenEvent: OpaquePointer?
    /// Re-enables accepting after `AcceptBalance.pause`.
    var resumeAcceptEvent: OpaquePointer?
    private(set) var stopped = false
    /// Lanes of HTTP clients on this loop, by client id (`EventLoop+CurlLanes.swift`). Loop thread only.
    var curlLanes: [UInt64: CurlMultiLoop] = [:]
    /// The `Date` header of this loop's responses, formatted once a second.
    var dateCache = HTTPDateCache()
    /// Set on the loop thread once the listening socket is closed.
    var draining = false
    let drainingAcknowledged = Atomic<Bool>(false)
    /// Requests handed to a handler and not yet answered or closed.
    let inFlight = Atomic<Int>(0)
    /// Handlers that have not returned yet (they may go on after their reply: logs, usage).
    let runningHandlers = Atomic<Int>(0)
    /// Replies whose last bytes are queued and not written out yet.
    let unflushedReplies = Atomic<Int>(0)
    /// Connections whose request is partly read past its head (`Connection.Phase.readsRequest`), which a drain waits for.
    let requestsBeingRead = RequestsBeingRead()
    /// Iterations of this loop that waited for events (`HTTPServer.Statistics.loopTurns`): written by this loop's
    /// thread only, so it is not a cache line the loops share.
    let turns = Atomic<Int>(0)
    /// When this loop's current blocking turn began to wait (monotonic nanoseconds), which phases of the hot code the
    /// turn has already decided about warming (a bit per `HotCodeTable.Phase`), when each phase last ran or was warmed,
    /// and whether the answer's code is due to be warmed while the loop waits for an upstream:
    /// `EventLoop+CodeWarming.swift`, loop thread only.
    var sleepStartedAt: UInt64 = 0
    var warmingDecided: UInt8 = 0
    var requestCodeSeenAt: UInt64 = 0
    var answerCodeSeenAt: UInt64 = 0
    var answerWarmingDue = false
    /// Responders with a stream head to write between turns (`HTTPResponder.prepareStreamHead`); loop thread only.
    var headsToWrite: [HTTPResponder] = []
    /// The last ticket given to a gate decision deferred on this loop (`GatedHead.ticket`).
    var lastGateTicket: UInt64 = 0

    private let queue = Mutex(JobQueue())
    /// `event_active` calls made outside the queue lock and not yet returned; the loop frees the
    /// wake event only when this is zero after the queue closed.
    private let wakesInFlight = Atomic<Int>(0)
    private var spareJobs: [LoopJob] = []
    /// Whether `runPostedJobs` is running its batch (loop thread only): a whole reply a task of the batch hands over
    /// may be held and sent at once (`HTTPResponder.respond`), since the batch's end writes whatever it leaves.
    private(set) var runningJobs = false
    /// Responders holding a whole reply (`HTTPResponder.respond`); each is sent, at the latest, when the task job that
    /// made it ends (the handler returned or suspended). Loop thread only.
    var heldReplies: [HTTPResponder] = []
    /// Open connections, by identity (loop thread only).
    var connections: [ObjectIdentifier: Connection] = [:]
    /// Refused connections read to their end before they are closed (`EventLoop+LingeringClose.swift`). Loop thread only.
    var lingering: [ObjectIdentifier: LingeringSocket] = [:]
    /// Connections whose reply bytes the current batch of jobs queued (`writeQueuedReplies`). Loop thread only.
    var writesDue: [Connection] = []
    private let exit = Mutex<(exited: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Sets up the loop around an already listening socket `fd`; the thread starts with `start()`.
    init(index: Int, listeningSocket fd: Int32, configuration: HTTPServer.Configuration, handler: any HTTPHandler, shared: LoopShared) throws {
        self.index = index
        self.configuration = configuration
        self.handler = handler
        self.shared = shared
        guard EventLoop.threadingReady, let base = EventLoop.makeBase() else {
            throw HTTPServerError(kind: .eventLoopSetupFailed,
                                  message: "libevent could not create an event loop (event_base_new failed); check the process's file descriptor limit (ulimit -n).")
        }
        self.base = base
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readBufferBytes, alignment: 16)
        listeningSocket = fd
        let argument = Unmanaged.passUnretained(self).toOpaque()
        wakeEvent = event_new(base, -1, 0, onLoopWake, argument)
        resumeAcceptEvent = event_new(base, -1, 0, onResumeAccepting, argument)
        listenEvent = event_new(base, fd, Int16(EV_READ | EV_PERSIST), onListenerReadable, argument)
        guard wakeEvent != nil, resumeAcceptEvent != nil, let listenEvent, event_add(listenEvent, nil) == 0 else {
            if let wakeEvent { event_free(wakeEvent) }
            if let resumeAcceptEvent { event_free(resumeAcceptEvent) }
            if let listenEvent { event_free(listenEvent) }
            readBuffer.deallocate()
            event_base_free(base)
            throw HTTPServerError(kind: .eventLoopSetupFailed,
                                  message: "libevent could not accept on the listening socket; check the file descriptor limit (ulimit -n).")
        }
    }

    /// Bytes one read takes off a socket (a typical request arrives in one read).
    static let readBufferBytes = 64 * 1024

    /// An epoll base with the changelist on: adding and removing a socket's write watch within one loop iteration
    /// (a reply the socket did not take whole, then did) costs at most one `epoll_ctl`.
    private static func makeBase() -> OpaquePointer? {
        guard let config = event_config_new() else { return nil }
        defer { event_config_free(config) }
        _ = event_config_set_flag(config, Int32(EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.rawValue))
        return event_base_new_with_config(config)
    }

    func start() {
        DetachedThread.start(name: "sg-http-\(index)") { [self] in run() }
    }

    private func run() {
        ThreadName.set("sg-http-\(index)")
        CurrentEventLoop.set(self)
        // One turn at a time (not one call that runs until a break), so the loop can spin through a short wait for
        // an upstream answer instead of sleeping (`spinThroughShortAnswerWait`). The stop command breaks the turn it
        // runs in and sets `stopped` (the loop's only break).
        while !stopped {
            if answerWarmingDue { warmAnswerCodeWhileWaiting() }
            if !headsToWrite.isEmpty { writePreparedHeads() }
            if !spinThroughShortAnswerWait() {
                turns.add(1, ordering: .relaxed)
                if configuration.codeWarmer != nil { startedSleeping() }
                event_base_loop(base, EVLOOP_ONCE | EVLOOP_NO_EXIT_ON_EMPTY)
            }
        }
        // Transfers still running fail now; their tasks' jobs go to the global executor below.
        stopCurlLanes()
        CurrentEventLoop.set(nil)
        let dropped = queue.locked { q -> [LoopJob] in
            q.closed = true
            defer { q.jobs = [] }
            return q.jobs
        }
        // Tasks must not be lost with the loop: their remaining jobs continue on the global executor.
        for case .run(let job) in dropped { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        // The queue is closed, so no new wake can start; wait out one that is mid-call.
        while wakesInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        if let wakeEvent { event_free(wakeEvent) }
        wakeEvent = nil
        if let resumeAcceptEvent { event_free(resumeAcceptEvent) }
        resumeAcceptEvent = nil
        stopListening()
        closeAllConnections()
        readBuffer.deallocate()
        event_base_free(base)
        let waiters = exit.locked { e -> [CheckedContinuation<Void, Never>] in
            e.exited = true
            defer { e.waiters = [] }
            return e.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the loop thread has left its loop and freed libevent's state.
    func waitUntilExited() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = exit.locked { e -> Bool in
                if e.exited { return true }
                e.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Queues `job` for the loop thread. Jobs posted after the loop stopped are dropped, except a
    /// task's, which continues on the global executor.
    func post(_ job: LoopJob) {
        var closed = false
        let wake = queue.locked { q -> OpaquePointer? in
            guard !q.closed else { closed = true; return nil }
            q.jobs.append(job)
            guard !q.wakeScheduled, let wakeEvent else { return nil }
            q.wakeScheduled = true
            wakesInFlight.add(1, ordering: .acquiringAndReleasing)
            return wakeEvent
        }
        if closed, case .run(let task) = job {
            globalConcurrentExecutor.enqueue(ExecutorJob(task))
            return
        }
        // Outside the lock: the woken loop takes the queue lock at once, and would otherwise find
        // it still held while this thread is inside event_active's syscall.
        if let wake {
            event_active(wake, EV_READ, 0)
            wakesInFlight.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    /// Loop thread: runs everything posted since the last wake-up.
    func runPostedJobs() {
        queue.locked { q in
            swap(&q.jobs, &spareJobs)
            q.wakeScheduled = false
        }
        runningJobs = true
        for job in spareJobs {
            if !stopped {
                perform(job)
            } else if case .run(let task) = job {
                globalConcurrentExecutor.enqueue(ExecutorJob(task))   // a task must not be lost with the loop
            }
        }
        runningJobs = false
        spareJobs.removeAll(keepingCapacity: true)
        if !writesDue.isEmpty { writeQueuedReplies() }
    }

    /// Closes this loop's descriptor of the listening socket (the others' stay open until they stop too).
    private func stopListening() {
        if let listenEvent { event_free(listenEvent) }
        listenEvent = nil
        if let listeningSocket { Glibc.close(listeningSocket) }
        listeningSocket = nil
    }

    private func perform(_ job: LoopJob) {
        switch job {
        case .reply(let responder, let status, let headers, let body):
            sendReply(responder, status: status, headers: headers, body: body)
        case .startStream(let responder, let status, let headers):
            startStream(responder, status: status, headers: headers)
        case .chunk(let responder, let bytes):
            sendChunk(responder, bytes)
        case .end(let responder):
            endStream(responder)
        case .run(let job):
            job.runSynchronously(on: asUnownedTaskExecutor())
            if !heldReplies.isEmpty { releaseHeldReplies() }
        case .headDecided(let id, let ticket, let decision):
            headDecided(id, ticket: ticket, decision)
        case .stopAccepting:
            if let resumeAcceptEvent { event_del(resumeAcceptEvent) }
            draining = true
            // Connections the kernel completed before the drain began wait in the backlog; closing the socket would
            // reset them (and their requests, already sent, would be lost). They are taken and served first.
            acceptConnections(upTo: configuration.backlog + Self.acceptsPerTurn, balancing: false)
            stopListening()
            drainingAcknowledged.store(true, ordering: .releasing)
        case .cutOff:
            cutOffHandlers()
        case .abandon(let responder):
            if let connection = responder.link.owner { close(connection) }
        case .stopHandler(let responder):
            responder.link.task?.cancel()
        case .stop:
            stopped = true
            closeAllConnections()
            event_base_loopbreak(base)
        }
    }
}

/// Request handlers run on the loop that received the request (their Task prefers this executor):
/// handing the request to the handler and the reply back to libevent then need no thread switch,
/// and an awaited result (an upstream response) wakes this loop instead of a pool thread.
/// Jobs that arrive after the loop stopped continue on the global executor.
extension EventLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        post(.run(UnownedJob(job)))
    }
}
