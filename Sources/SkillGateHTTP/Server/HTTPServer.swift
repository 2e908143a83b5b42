import CEvent
import FoundationEssentials
import Glibc
import Dispatch
import Synchronization

/// The inbound HTTP/1.1 server: one libevent event loop thread per core, each reading, parsing and writing its own
/// connections (decision 0058), all accepting on one listening socket (or, with `reusePort`, each on its own SO_REUSEPORT socket). Every request runs its
/// handler in a Swift Task whose preferred executor is the loop that received it (the NIO model: no thread switch to start the handler or to reply, and
/// an awaited upstream response wakes the loop rather than a pool thread). Handlers must therefore not
/// block; blocking work belongs in `withTaskExecutorPreference(globalConcurrentExecutor)` or on a thread
/// of its own. Replies go to the connection's loop through its job queue.
///
/// Errors the server answers itself, all rendered with `Configuration.errorBody` and `Connection: close`:
/// 400 (malformed request line or header, control characters in a header, obsolete line folding, bad Content-Length,
/// malformed chunked encoding), 413 (body over `maxBodyBytes`, or the smaller limit a `headGate` set), 415 (a body
/// with a Content-Encoding other than identity; bodies are handed over as sent), 417 (an `Expect` other than
/// `100-continue`), 431 (a head over `maxHeaderBytes`, a trailer section over 16 KiB), 501 (unknown method, TRACE),
/// 505 (HTTP/2.0 or HTTP/3.0 on the request line),
/// 500 (a handler returned without answering); at header time, before any body byte is read: 400 for a missing
/// (HTTP/1.1), repeated or invalid Host (`RequestHost`), 400/501 for body framing that parsers could disagree on
/// (`RequestFraming`; a HEAD request's body is framed like any other), and whatever `headGate` rejects;
/// 408 when a head or body takes longer than `headerTimeout`/`bodyReadTimeout` in total; 503 to a
/// connection over `maxConnections` or `maxConnectionsPerIP`. An idle keep-alive connection is closed after
/// `idleKeepAliveTimeout`, and one whose client stops reading a reply after the stall timeout
/// (`Configuration.writeStallTimeout`), both without a response.
///
/// A client that disconnects is noticed while its handler works (EOF/RST on the socket) and while
/// streaming; its Task is cancelled. A client that half-closes (`shutdown(SHUT_WR)`) after sending its whole request
/// is answered, and then its connection closed, when its end of stream comes before the request reaches the handler
/// (while a deferred `headGate` decision is out; decision 0091). Once the handler works, an end of stream cannot be
/// told from a close and counts as the client gone (its Task is cancelled; a stream ends early). A client that ends
/// its side in the middle of a request is closed without an answer. A pipelined request behind a running one turns
/// the watch off.
public final class HTTPServer: Sendable {
    private enum Phase { case created, running, stopped }

    private struct State {
        var phase = Phase.created
        var loops: [EventLoop] = []
        var boundPort = 0
        /// Set by the first `shutdown`: whether every request finished within the deadline.
        var drainedCleanly: Bool?
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let handler: any HTTPHandler
    private let state = Mutex(State())
    let shared: LoopShared

    /// Validates `configuration`; nothing is bound until `start()`.
    public init(configuration: Configuration, handler: any HTTPHandler) throws {
        guard (0...65535).contains(configuration.port) else {
            throw HTTPServerError(kind: .invalidConfiguration,
                                  message: "Port \(configuration.port) is outside 0...65535; use 0 for an ephemeral port.")
        }
        guard configuration.maxBodyBytes > 0, configuration.maxHeaderBytes > 0, configuration.outputHighWaterBytes > 0 else {
            throw HTTPServerError(kind: .invalidConfiguration,
                                  message: "maxBodyBytes, maxHeaderBytes and outputHighWaterBytes must be positive; fix the server configuration.")
        }
        guard configuration.writeStallTimeout > .zero else {
            throw HTTPServerError(kind: .invalidConfiguration,
                                  message: "headerTimeout, bodyReadTimeout and idleKeepAliveTimeout must be positive; fix the server configuration.")
        }
        if let cap = configuration.maxConnections, cap < 0 {
            throw HTTPServerError(kind: .invalidConfiguration, message: "maxConnections is \(cap); use a positive number, or nil for no cap.")
        }
        if let cap = configuration.maxConnectionsPerIP, cap < 0 {
            throw HTTPServerError(kind: .invalidConfiguration, message: "maxConnectionsPerIP is \(cap); use a positive number, or nil for no cap.")
        }
        self.configuration = configuration
        self.handler = handler
        let counters = ServerCounters()
        shared = LoopShared(limiter: ConnectionLimiter(maxTotal: configuration.maxConnections, maxPerAddress: configuration.maxConnectionsPerIP),
                            counters: counters, trimmer: MemoryTrimmer(threshold: configuration.memoryTrimThreshold, counters: counters),
                            balance: AcceptBalance(loops: configuration.loops, sharedSocket: !configuration.reusePort),
                            loopCount: configuration.loops)
    }

    /// Binds the listening socket(s) and starts the event loop threads. After it, `boundPort` is the real port.
    /// Throws `.addressInUse` when another socket listens on the address (unless both use `reusePort`).
    ///
    /// Sets SIGPIPE to ignored for the process: libevent writes with `writev`, and a client closing
    /// mid-reply would otherwise kill the process instead of failing the write.
    public func start() throws {
        signal(SIGPIPE, SIG_IGN)
        try state.locked { s throws(HTTPServerError) in
            guard s.phase == .created else {
                throw HTTPServerError(kind: .alreadyStarted, message: "The server was already started; create a new HTTPServer to listen again.")
            }
            let sockets = try bindSockets()
            var loops: [EventLoop] = []
            for (index, fd) in sockets.fds.enumerated() {
                do {
                    loops.append(try EventLoop(index: index, listeningSocket: fd, configuration: configuration, handler: handler, shared: shared))
                } catch {
                    // Loops already built own their sockets; the rest are still ours to close.
                    for other in sockets.fds[index...] { close(other) }
                    for loop in loops { loop.start(); loop.post(.stop) }
                    throw error as? HTTPServerError ?? HTTPServerError(kind: .eventLoopSetupFailed, message: "\(error)")
                }
            }
            for loop in loops { loop.start() }
            s.loops = loops
            s.boundPort = sockets.port
            s.phase = .running
        }
    }

    /// Without `reusePort`: one socket, bound once (so a taken address fails here and nowhere else, with no
    /// window in which two processes share it), and a duplicate descriptor of it per further loop. With
    /// `reusePort`: one SO_REUSEPORT socket per loop, the kernel balancing between them.
    private func bindSockets() throws(HTTPServerError) -> (fds: [Int32], port: Int) {
        var fds: [Int32] = []
        var port = configuration.port
        for _ in 0..<configuration.loops {
            if !configuration.reusePort, let first = fds.first {
                let copy = sg_ev_dup_listener(first)
                guard copy >= 0 else {
                    let reason = String(cString: strerror(errno))
                    for open in fds { close(open) }
                    throw HTTPServerError(kind: .bindFailed, message: "Could not share the listening socket between event loops (\(reason)); raise the file descriptor limit (ulimit -n).")
                }
                fds.append(copy)
                continue
            }
            var bound: Int32 = 0
            let fd = sg_ev_listen(configuration.host, Int32(port), Int32(configuration.backlog), configuration.reusePort ? 1 : 0, &bound)
            guard fd >= 0 else {
                for open in fds { close(open) }
                throw bindError(-fd, port: port)
            }
            if fds.isEmpty { port = Int(bound) }
            fds.append(fd)
        }
        return (fds, port)
    }

    private func bindError(_ code: Int32, port: Int) -> HTTPServerError {
        let address = "\(configuration.host):\(port)"
        switch code {
        case EADDRINUSE:
            return HTTPServerError(kind: .addressInUse, message: "Another process already listens on \(address) (perhaps another skillgate serve). Stop that process, or listen on another port; to share the port deliberately between processes, enable reuse_port in each of them.")
        case EINVAL:
            return HTTPServerError(kind: .bindFailed, message: "Could not listen on \(address): the host is not a numeric IP address; use an address such as 127.0.0.1, 0.0.0.0 or ::1.")
        case EACCES:
            return HTTPServerError(kind: .bindFailed, message: "Could not listen on \(address): permission denied (ports below 1024 need privileges); pick a port above 1023.")
        default:
            return HTTPServerError(kind: .bindFailed, message: "Could not listen on \(address) (\(String(cString: strerror(code)))); check the address, or pick another port.")
        }
    }

    /// How long handlers cut off at the end of a drain may take to end their answers (an error event) before their
    /// connections are closed.
    public static let lastWordsTime = Duration.milliseconds(500)

    /// The port actually bound (the ephemeral port when configured with 0); 0 before `start()`.
    public var boundPort: Int { state.locked { $0.boundPort } }

    /// Whether `shutdown` has begun: the server takes no new connections and drains (every loop has been told).
    public var isShuttingDown: Bool { state.locked { $0.phase == .stopped } }

    /// What the server refused or cut off so far, and the connections open now.
    public var statistics: Statistics {
        let c = shared.counters
        return Statistics(openConnections: shared.limiter.openCount,
                          refusedOverTotal: c.refusedOverTotal.load(ordering: .relaxed), refusedOverPerIP: c.refusedOverPerIP.load(ordering: .relaxed),
                          refusedAtHead: c.refusedAtHead.load(ordering: .relaxed), headerTimeouts: c.headerTimeouts.load(ordering: .relaxed),
                          deferredHeadDecisions: c.deferredHeadDecisions.load(ordering: .relaxed),
                          headDecisionTimeouts: c.headDecisionTimeouts.load(ordering: .relaxed),
                          bodyTimeouts: c.bodyTimeouts.load(ordering: .relaxed), memoryTrims: c.memoryTrims.load(ordering: .relaxed),
                          // Acquiring, and before the open count: a linger's end is counted after that count dropped.
                          lingeringCloses: c.lingeringCloses.load(ordering: .acquiring),
                          lingeringClosesCutShort: c.lingeringClosesCutShort.load(ordering: .acquiring),
                          lingeringConnections: c.lingeringConnections.load(ordering: .relaxed),
                          acceptedConnections: c.acceptedConnections.load(ordering: .relaxed),
                          closedDuringRequest: c.closedDuringRequest.load(ordering: .relaxed),
                          closedOnPeerCheck: c.closedOnPeerCheck.load(ordering: .relaxed),
                          lastPeerCheckErrno: c.lastPeerCheckErrno.load(ordering: .relaxed),
                          closedBeforeHandler: c.closedBeforeHandler.load(ordering: .relaxed),
                          lastClosedBeforeHandlerState: c.lastClosedBeforeHandlerState.load(ordering: .relaxed),
                          spunAnswerWaits: c.spunAnswerWaits.load(ordering: .relaxed), spinTimeouts: c.spinTimeouts.load(ordering: .relaxed),
                          loopTurns: state.locked { $0.loops }.reduce(0) { $0 + $1.turns.load(ordering: .relaxed) },
                          repliesWrittenAtOnce: c.repliesWrittenAtOnce.load(ordering: .relaxed),
                          streamWritesSentAtOnce: c.streamWritesSentAtOnce.load(ordering: .relaxed),
                          codeWarmings: c.codeWarmings.load(ordering: .relaxed),
                          codeWarmingsAhead: c.codeWarmingsAhead.load(ordering: .relaxed),
                          streamHeadsWrittenAhead: c.streamHeadsWrittenAhead.load(ordering: .relaxed),
                          streamsStartedWithHeadsWrittenAhead: c.streamsStartedWithHeadsWrittenAhead.load(ordering: .relaxed))
    }

    /// Requests handed to a handler and not yet answered or disconnected, over all loops (for metrics).
    public var inFlightRequestCount: Int {
        state.locked { $0.loops }.reduce(0) { $0 + $1.inFlight.load(ordering: .relaxed) }
    }

    /// Stops accepting (after taking the connections already waiting in the listening socket's backlog, which closing
    /// it would reset), lets in-flight requests finish (their handlers return, also after replying, and the
    /// last bytes of their replies are written to the clients) until `deadline` has passed, then cuts off the handlers
    /// still running (`HTTPResponder.wasCutOffByServer`, their tasks cancelled) and gives them up to `lastWordsTime` to
    /// end their answers, closes every connection and stops the loop threads. A second call waits for the first.
    ///
    /// Requests partly read when the drain begins, and requests that arrive on connections already open during it, are
    /// served like any other, each reply closing its connection (`Connection: close`): a client of a keep-alive
    /// connection sends one more request at most, and its next goes to a new connection, which another process sharing
    /// the port (`reusePort`) takes (decision 0145).
    ///
    /// `linger`: how long, at most, connections left open with nothing in flight are kept for a last request each before
    /// the loops stop and close them (0 for none: the drain ends as soon as nothing is in flight). It makes no drain
    /// unclean.
    ///
    /// Returns whether the drain was clean: every handler returned and every reply was written out before `deadline`
    /// (none was cancelled or cut off).
    @discardableResult
    public func shutdown(deadline: Duration, linger: Duration = .zero) async -> Bool {
        let (loops, first) = state.locked { s -> ([EventLoop], Bool) in
            guard s.phase == .running else { return (s.loops, false) }
            s.phase = .stopped
            // Under the lock, so whoever sees `isShuttingDown` knows every loop was told.
            for loop in s.loops { loop.post(.stopAccepting) }
            return (s.loops, true)
        }
        guard first else {
            // Another caller is shutting down (or did): return once the loops are gone.
            for loop in loops { await loop.waitUntilExited() }
            return state.locked { $0.drainedCleanly } ?? true
        }
        configuration.willShutdown?()
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        let busy: @Sendable () -> Bool = {
            loops.contains {
                !$0.drainingAcknowledged.load(ordering: .acquiring) || $0.inFlight.load(ordering: .relaxed) > 0
                    || $0.runningHandlers.load(ordering: .acquiring) > 0 || $0.unflushedReplies.load(ordering: .relaxed) > 0
                    || $0.requestsBeingRead.count.load(ordering: .relaxed) > 0
            }
        }
        let lingerEnd = clock.now.advanced(by: linger)
        let limiter = shared.limiter
        while clock.now < end, busy() || (clock.now < lingerEnd && limiter.openCount > 0) {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let clean = !busy()
        state.locked { $0.drainedCleanly = clean }
        if !clean {
            // The handlers still running are cut off: cancelled, and given a moment to tell their clients so (decision 0137).
            for loop in loops { loop.post(.cutOff) }
            let lastWords = clock.now.advanced(by: Self.lastWordsTime)
            while clock.now < lastWords, busy() {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        for loop in loops { loop.post(.stop) }
        for loop in loops { await loop.waitUntilExited() }
        // The loops hold the handler; a handler that holds its server would otherwise never be freed.
        state.locked { $0.loops = [] }
        return clean
    }
}
