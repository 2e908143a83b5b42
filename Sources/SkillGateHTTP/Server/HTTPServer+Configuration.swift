import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

extension HTTPServer {
    /// How an `HTTPServer` listens, limits and times out clients.
    public struct Configuration: Sendable {
        /// Renders a server-generated error (413, 400, 408, 503, 500) as a content type and body.
        public typealias ErrorBodyRenderer = @Sendable (_ status: Int, _ message: String) -> (contentType: String, body: [UInt8])

        /// The numeric address to bind (`127.0.0.1`, `0.0.0.0`, `::1`, `::`).
        public var host: String
        /// The TCP port; 0 picks an ephemeral port (read it from `HTTPServer.boundPort` after `start()`).
        public var port: Int
        /// Event loop threads, all accepting on one listening socket (see `reusePort`). Default: one per core.
        public var loops: Int
        /// `false` (default): one listening socket without SO_REUSEPORT, shared by the loops, so `start()`
        /// fails with `.addressInUse` when another process listens on the address. `true`: each loop binds
        /// its own SO_REUSEPORT socket and the kernel spreads connections over every process that does the
        /// same — only for deliberate multi-process setups.
        public var reusePort: Bool = false
        /// Most connections open at once; further ones get a canned 503 and are closed. `nil`: no cap.
        public var maxConnections: Int?
        /// Most connections open at once from one IP address; further ones get a canned 503 and are
        /// closed. `nil`: no cap.
        public var maxConnectionsPerIP: Int?
        /// Decides on each request from its head alone, before any body byte is read (authentication
        /// belongs here, so unauthenticated clients cannot make the server buffer bodies). `nil`: accept all.
        /// Runs on the event loop thread: it must be quick and must not block. A decision that needs a wait (a
        /// database read) returns `.decideLater` and is made elsewhere, within `headerTimeout` (else 503).
        public var headGate: (@Sendable (HTTPRequestHead) -> HTTPHeadDecision)?
        /// Called once when shutdown begins, before in-flight requests are drained: ends requests that would
        /// otherwise never finish (an open event stream that only tails, like the console's traffic view).
        public var willShutdown: (@Sendable () -> Void)?
        /// Largest accepted request body; larger bodies are refused with 413.
        public var maxBodyBytes: Int
        /// Largest accepted request head (request line and headers).
        public var maxHeaderBytes: Int
        /// Longest time a request head may take in total, from its first byte to its last; a slower client
        /// gets a 408 and the connection is closed, however steadily it trickles bytes.
        public var headerTimeout: Duration
        /// Longest time a request body may take in total, counted from the end of its head; a slower
        /// client gets a 408 and the connection is closed (see `headerTimeout`).
        public var bodyReadTimeout: Duration
        /// How long an idle keep-alive connection may wait for its next request; then it is closed quietly.
        public var idleKeepAliveTimeout: Duration
        /// Default grace period of `runUntil(_:grace:)` for in-flight requests.
        public var shutdownGrace: Duration
        /// Streaming `write` suspends while more than this many bytes wait in a connection's output buffer.
        public var outputHighWaterBytes: Int
        /// Listen backlog of each listening socket.
        public var backlog: Int
        /// Whether a reply (or a stream's chunk) queued by a handler is written in the loop iteration that queued it,
        /// instead of after the next poll for the socket's writability (decision 0053). On by default; off only to
        /// compare the two.
        public var writesRepliesAtOnce = true
        /// Longest time a connection refused while its client may still be sending (a body over the limit, a refusal at
        /// the head, a connection over a cap) is read and discarded after its answer, so that the client reads the answer
        /// instead of a reset (lingering close, decision 0167); then it is closed whatever the client does.
        public var lingeringCloseTime: Duration = .seconds(5)
        /// Most bytes such a connection is read for after its answer; then it is closed.
        public var lingeringCloseMaxBytes: Int = 16 * 1024 * 1024
        /// Most connections one loop lingers on at once; a refused connection beyond it is closed at once.
        public var maxLingeringConnectionsPerLoop: Int = 256
        /// Releasing a request body at least this large schedules `malloc_trim` (see `MemoryTrimmer`).
        public var memoryTrimThreshold: Int = 1024 * 1024
        /// Prefetches the request path's code into the CPU cache (decisions 0054, 0055): the request's phase when a
        /// request's head comes to a loop that slept, the answer's while that request's upstream transfer is awaited
        /// and again when an upstream answer's first bytes (own HTTP/1.1 client) come after a sleep. `nil` turns it off.
        public var codeWarmer: CodeWarmer?
        /// Work a loop does while it spins through a short wait for an upstream answer (`spinThroughShortAnswerWait`):
        /// time it would otherwise give away with `sched_yield`. Called at most once per wait, after the first look
        /// found no answer; it must be short (a few microseconds). The gateway releases the log lines and usage
        /// records its writers have handed back to this thread (decision 0109). `nil`: nothing.
        public var choreWhileSpinning: (@Sendable () -> Void)?
        /// The shortest sleep after which a loop warms the code (a core that idled less still has it cached).
        public var codeWarmingAfterSleep: Duration = .microseconds(50)
        /// A phase of the code is warmed only if the loop last ran (or warmed) it at least this long ago: a loop
        /// serving one client back to back sleeps between requests but still has the code it ran a moment ago.
        public var codeRewarmAfter: Duration = .milliseconds(1)
        /// Renders server-generated errors. Default: `{"error":{"message":...,"type":...}}`.
        public var errorBody: ErrorBodyRenderer
        /// Extra headers on every error the server answers itself (the gateway adds `x-request-id`).
        public var errorHeaders: @Sendable (_ status: Int) -> HTTPHeaders = { _ in [:] }
        /// Fields added to every reply to a request, chosen from its head: the handler's replies and streams, a refusal
        /// by the `headGate`, and the errors the server answers itself once the head is read (a gateway's cross-origin
        /// fields for a web page's `Origin`). Asked once per request head, on the event loop, before the `headGate`: it
        /// must be quick. `nil` (the default), or a `nil` answer, adds none.
        public var replyFields: (@Sendable (HTTPRequestHead) -> HTTPHeaders?)?

        public init(host: String = "127.0.0.1", port: Int = 8080,
                    loops: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maxBodyBytes: Int = 4 * 1024 * 1024, maxHeaderBytes: Int = 64 * 1024,
                    headerTimeout: Duration = .seconds(10), bodyReadTimeout: Duration = .seconds(30),
                    idleKeepAliveTimeout: Duration = .seconds(60), shutdownGrace: Duration = .seconds(10),
                    outputHighWaterBytes: Int = 256 * 1024, backlog: Int = 1024,
                    errorBody: @escaping ErrorBodyRenderer = Configuration.defaultErrorBody) {
            self.host = host
            self.port = port
            self.loops = max(1, loops)
            self.maxBodyBytes = maxBodyBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.headerTimeout = headerTimeout
            self.bodyReadTimeout = bodyReadTimeout
            self.idleKeepAliveTimeout = idleKeepAliveTimeout
            self.shutdownGrace = shutdownGrace
            self.outputHighWaterBytes = outputHighWaterBytes
            self.backlog = backlog
            self.errorBody = errorBody
        }

        /// `{"error":{"message":...,"type":...}}` with an OpenAI-style type name for `status`.
        public static let defaultErrorBody: ErrorBodyRenderer = { status, message in
            let body: JSONValue = ["error": ["message": .string(message), "type": .string(errorType(status: status))]]
            return ("application/json", body.serializedBytes())
        }

        static func errorType(status: Int) -> String {
            switch status {
            case 408: return "timeout_error"
            case 503: return "service_unavailable"
            case 500...: return "server_error"
            default: return "invalid_request_error"
            }
        }

        /// How long reply bytes may wait for a client that does not read them before the connection is cut: the
        /// shortest of the three timeouts above (a client that stops reading a stream holds its memory meanwhile).
        var writeStallTimeout: Duration {
            min(headerTimeout, bodyReadTimeout, idleKeepAliveTimeout)
        }
    }
}
