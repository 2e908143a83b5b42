import CEvent

/// One accepted connection, from accept to close (loop thread only).
///
/// evhttp owns the socket and parses; this adds what evhttp 2.1 lacks: admission against the connection
/// caps, a look at each request's head before its body is read (framing checks and the `headGate`),
/// and total deadlines for a head and for a body (evhttp's own timer is reset by every byte). The event
/// loop owns it (its `connections` table) from the moment evhttp asks for the connection's bufferevent
/// until evhttp frees the connection; libevent callbacks get it as an unretained pointer.
final class Connection {
    enum Phase {
        /// Accepted; not yet admitted.
        case accepting
        /// Waiting for the first byte of a request head (idle keep-alive).
        case waiting
        /// Reading a request head (its total deadline runs).
        case head
        /// Reading a request body (its total deadline runs).
        case body
        /// A request is with the handler, or being answered.
        case handling
    }

    unowned let loop: EventLoop
    let bufferevent: OpaquePointer
    /// The unretained pointer libevent callbacks get.
    var argument: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    var evcon: OpaquePointer?
    /// The peer's IP address (no port), as counted by the limiter.
    var peerAddress = ""
    var admitted = false
    /// A reply was handed to evhttp and is not written out yet (see `EventLoop.replyFinished`).
    var replyUnflushed = false
    var phase = Phase.accepting
    /// Runs once after accept (admission) and after each answered request (the next request's hooks).
    var step: OpaquePointer?
    /// The total deadline of the head or body being read.
    var deadline: OpaquePointer?
    var inputCallback: OpaquePointer?
    /// The head read at header time, reused when the request is handed to the handler.
    var head: HTTPRequestHead?
    /// The responder of the request with the handler, told when the connection closes.
    var responder: HTTPResponder?
    /// A streamed reply is being written, so the connection has no read timeout (`EventLoop.suspendReadTimeout`).
    var readTimeoutSuspended = false
    /// Reply bytes were queued in the current batch of loop jobs; they are written before the loop polls again
    /// (`EventLoop.writeQueuedReplies`).
    var writeDue = false

    init(loop: EventLoop, bufferevent: OpaquePointer) {
        self.loop = loop
        self.bufferevent = bufferevent
    }

    /// Starts (or restarts) the total deadline.
    func startDeadline(_ duration: Duration) {
        guard let deadline else { return }
        let (seconds, attoseconds) = duration.components
        var timeout = sg_ev_timeval_ms(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        event_add(deadline, &timeout)
    }

    func stopDeadline() {
        if let deadline { event_del(deadline) }
    }

    /// Frees the libevent objects this connection added (its events, its input-buffer callback).
    func release() {
        if let step { event_free(step) }
        if let deadline { event_free(deadline) }
        if let inputCallback { evbuffer_remove_cb_entry(bufferevent_get_input(bufferevent), inputCallback) }
        step = nil
        deadline = nil
        inputCallback = nil
        responder = nil
        head = nil
    }
}
