import CEvent
import FoundationEssentials
import Glibc
import Dispatch
import Synchronization

/// The inbound HTTP/1.1 server: libevent `evhttp` with one event loop thread per core, each accepting on
/// its own SO_REUSEPORT socket. Every request runs its handler in a Swift Task whose preferred executor
/// is the loop that received it (the NIO model: no thread switch to start the handler or to reply, and
/// an awaited upstream response wakes the loop rather than a pool thread). Handlers must therefore not
/// block; blocking work belongs in `withTaskExecutorPreference(globalConcurrentExecutor)` or on a thread
/// of its own. Replies go to libevent through the loop's job queue.
///
/// Errors the server answers itself, all rendered with `Configuration.errorBody` and `Connection: close`:
/// 400 (malformed request line or header, control characters in a header, bad Content-Length, header block
/// over `maxHeaderBytes`), 413 (body over `maxBodyBytes`, or malformed chunked encoding — evhttp reports
/// both as 413), 501 (unknown method, TRACE, CONNECT), 503 (a request arriving while draining),
/// 500 (a handler returned without answering). A client that goes silent mid-request is disconnected
/// after the inactivity timeout without a response (HTTP has no reliable place for a 408 there).
///
/// A client that disconnects is noticed while its handler works (EOF/RST on the socket) and while
/// streaming; its Task is cancelled. Limits: a client that half-closes (`shutdown(SHUT_WR)`) after
/// sending its request counts as gone; a pipelined request behind a running one turns that watch off.
public final class HTTPServer: Sendable {
    private enum Phase { case created, running, stopped }

    private struct State {
        var phase = Phase.created
        var loops: [EventLoop] = []
        var boundPort = 0
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let handler: any HTTPHandler
    private let state = Mutex(State())

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
        guard configuration.connectionInactivityTimeout > .zero else {
            throw HTTPServerError(kind: .invalidConfiguration,
                                  message: "headerTimeout, bodyReadTimeout and idleKeepAliveTimeout must be positive; fix the server configuration.")
        }
        self.configuration = configuration
        self.handler = handler
    }

    /// Binds the listening sockets and starts the event loop threads. After it, `boundPort` is the real port.
    ///
    /// Sets SIGPIPE to ignored for the process: libevent writes with `writev`, and a client closing
    /// mid-reply would otherwise kill the process instead of failing the write.
    public func start() throws {
        signal(SIGPIPE, SIG_IGN)
        try state.withLock { s throws(HTTPServerError) in
            guard s.phase == .created else {
                throw HTTPServerError(kind: .alreadyStarted, message: "The server was already started; create a new HTTPServer to listen again.")
            }
            let sockets = try bindSockets()
            var loops: [EventLoop] = []
            for (index, fd) in sockets.fds.enumerated() {
                do {
                    loops.append(try EventLoop(index: index, listeningSocket: fd, configuration: configuration, handler: handler))
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

    private func bindSockets() throws(HTTPServerError) -> (fds: [Int32], port: Int) {
        var fds: [Int32] = []
        var port = configuration.port
        for _ in 0..<configuration.loops {
            var bound: Int32 = 0
            let fd = sg_ev_listen_reuseport(configuration.host, Int32(port), Int32(configuration.backlog), &bound)
            guard fd >= 0 else {
                for open in fds { close(open) }
                let reason = fd == -EINVAL ? "the host is not a numeric IP address" : String(cString: strerror(-fd))
                throw HTTPServerError(kind: .bindFailed,
                                      message: "Could not listen on \(configuration.host):\(port) (\(reason)); pick another port or stop the process using it.")
            }
            if fds.isEmpty { port = Int(bound) }
            fds.append(fd)
        }
        return (fds, port)
    }

    /// The port actually bound (the ephemeral port when configured with 0); 0 before `start()`.
    public var boundPort: Int { state.withLock { $0.boundPort } }

    /// Requests handed to a handler and not yet answered or disconnected, over all loops (for metrics).
    public var inFlightRequestCount: Int {
        state.withLock { $0.loops }.reduce(0) { $0 + $1.inFlight.load(ordering: .relaxed) }
    }

    /// Stops accepting, lets in-flight requests finish (their handlers return, also after replying)
    /// until `deadline` has passed, then closes every connection (cancelling handlers still running)
    /// and stops the loop threads. A second call waits for the first.
    public func shutdown(deadline: Duration) async {
        let (loops, first) = state.withLock { s -> ([EventLoop], Bool) in
            guard s.phase == .running else { return (s.loops, false) }
            s.phase = .stopped
            return (s.loops, true)
        }
        guard first else {
            // Another caller is shutting down (or did): return once the loops are gone.
            for loop in loops { await loop.waitUntilExited() }
            return
        }
        for loop in loops { loop.post(.stopAccepting) }
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        while clock.now < end {
            let busy = loops.contains {
                !$0.drainingAcknowledged.load(ordering: .acquiring) || $0.inFlight.load(ordering: .relaxed) > 0
                    || $0.runningHandlers.load(ordering: .acquiring) > 0
            }
            if !busy { break }
            try? await Task.sleep(for: .milliseconds(5))
        }
        for loop in loops { loop.post(.stop) }
        for loop in loops { await loop.waitUntilExited() }
    }
}
