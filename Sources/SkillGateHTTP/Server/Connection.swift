import CEvent
import Glibc
import Synchronization

/// One accepted, admitted connection, from accept to close (loop thread only).
///
/// The loop reads the socket itself and parses each request (`EventLoop+Reading.swift`), hands it to a handler, and
/// writes the reply bytes it builds (`EventLoop+Requests.swift`, `EventLoop+Writes.swift`). One timer serves whichever
/// deadline the phase has: the idle keep-alive wait, a head's or a body's total deadline, or a stalled write. The event
/// loop owns the connection (its `connections` table) until `EventLoop.close(_:)`; libevent callbacks get it as an
/// unretained pointer.
final class Connection {
    enum Phase {
        /// Waiting for the first byte of a request head (idle keep-alive).
        case waiting
        /// Reading a request head (its total deadline runs).
        case head
        /// Reading a request body (its total deadline runs).
        case body
        /// A request's head is read and the `headGate` decides on it off the loop (`HTTPHeadDecision.decideLater`);
        /// reading waits for the decision (a decision deadline runs).
        case gating
        /// A request is with the handler, or its reply is being written.
        case handling
        /// Closed: its events are freed and its descriptor closed.
        case closed

        /// A request whose head has come is partly read: its body is arriving, or its gate decision is out. A drain waits
        /// for it; not for a head still arriving, which any client can start with one byte and no token (an attack
        /// round held every stop for the whole grace period, and made it exit 1, with a single byte; decision 0145).
        var readsRequest: Bool { self == .body || self == .gating }
    }

    /// How the body of the request being read is framed, and how much of it is left.
    enum BodyReader {
        case length(remaining: Int)
        case chunked(ChunkedBodyDecoder)
    }

    unowned let loop: EventLoop
    let fd: Int32
    /// The peer's IP address (no port), as counted by the limiter.
    let peerAddress: String
    /// The peer as `address:port`.
    let remoteAddress: String
    var phase = Phase.waiting {
        didSet {
            if oldValue.readsRequest != phase.readsRequest { requestsBeingRead.count.add(phase.readsRequest ? 1 : -1, ordering: .relaxed) }
        }
    }
    /// The loop's count of connections whose request is partly read past its head, which a drain waits for
    /// (`Phase.readsRequest`).
    let requestsBeingRead: RequestsBeingRead
    /// The unretained pointer libevent callbacks get.
    var argument: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Readable (or closed by the peer): reads a request, or checks on the peer while a handler works.
    var readEvent: OpaquePointer?
    /// Writable again after a write that did not go through whole; made on the first such write.
    var writeEvent: OpaquePointer?
    /// `writeEvent` is added: reply bytes wait for the socket.
    var writeWatched = false
    /// The deadline of the current phase.
    var timer: OpaquePointer?
    /// Reading is off: a pipelined request came while one is with its handler (it waits in the kernel until then).
    var readPaused = false
    /// The client ended its side (an orderly end of stream, `shutdown(SHUT_WR)`) while its request's gate decision was
    /// out: reading is off for good, and the request, once decided and whole, is answered and the connection closed.
    var peerHalfClosed = false

    /// Bytes read and not yet used: a head that has not all arrived, or a request pipelined behind the current one.
    var input: [UInt8] = []
    /// How far `input` was searched for the end of a head.
    var headScanned = 0
    /// The head of the request whose body is being read.
    var head: ParsedRequestHead?
    /// The request waiting for a deferred gate decision (phase `gating`), and the ticket its decision must carry.
    var gated: GatedHead?
    /// What the gate learned about the request whose body is being read.
    var admission: (any HTTPAdmission)?
    /// The fields `Configuration.replyFields` chose for every reply to the current request, written as `name: value`
    /// CRLF lines; empty for none (and between requests).
    var replyFields: [UInt8] = []
    var bodyReader: BodyReader?
    var body: [UInt8] = []
    var bodyLimit = 0

    /// The responder of the request with its handler, told when the connection closes.
    var responder: HTTPResponder?
    /// Reply bytes not yet written, from `outputSent` on.
    var output: [UInt8] = []
    var outputSent = 0
    /// The current reply was handed over whole; once its bytes are written the next request is read (or the connection
    /// closes).
    var replyEnded = false
    /// The connection closes once the current reply is written.
    var closeAfterReply = false
    /// Reply bytes were queued in the current batch of loop jobs (`EventLoop.writeQueuedReplies`).
    var writeDue = false

    init(loop: EventLoop, fd: Int32, peerAddress: String, port: Int) {
        self.loop = loop
        requestsBeingRead = loop.requestsBeingRead
        self.fd = fd
        self.peerAddress = peerAddress
        remoteAddress = "\(peerAddress):\(port)"
    }

    /// Starts (or restarts) the phase's deadline.
    func startTimer(_ duration: Duration) {
        guard let timer else { return }
        let (seconds, attoseconds) = duration.components
        var timeout = sg_ev_timeval_ms(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        event_add(timer, &timeout)
    }

    func stopTimer() {
        if let timer { event_del(timer) }
    }

    /// Frees the connection's events and closes its descriptor (unless `closingDescriptor` is false: the loop then
    /// lingers on it, `EventLoop.closeLingering`).
    func release(closingDescriptor: Bool = true) {
        if let readEvent { event_free(readEvent) }
        if let writeEvent { event_free(writeEvent) }
        if let timer { event_free(timer) }
        readEvent = nil
        writeEvent = nil
        timer = nil
        if closingDescriptor { Glibc.close(fd) }
        phase = .closed
        responder = nil
        head = nil
        gated = nil
        admission = nil
        replyFields = []
        bodyReader = nil
        input = []
        body = []
        output = []
    }
}

/// A request head whose `headGate` decision is being made off the loop (`Connection.gated`). A class: made only when
/// a decision is deferred, it costs every other connection one pointer.
final class GatedHead {
    let parsed: ParsedRequestHead
    var head: HTTPRequestHead
    let framing: RequestFraming.Body
    /// Unique per deferral on its loop: a decision that arrives for a connection closed (or reused) since is dropped.
    let ticket: UInt64

    init(parsed: ParsedRequestHead, head: HTTPRequestHead, framing: RequestFraming.Body, ticket: UInt64) {
        self.parsed = parsed
        self.head = head
        self.framing = framing
        self.ticket = ticket
    }
}

/// How many of a loop's connections have a request partly read past its head (its body arriving, or a gate decision out): written
/// by the loop's connections as their phase changes, read by `HTTPServer.shutdown`, which waits for them as for requests
/// with their handlers. A class, so each connection holds the loop's counter without going through its unowned loop.
final class RequestsBeingRead: Sendable {
    let count = Atomic<Int>(0)
}
