import CEvent
import Glibc

/// Loop-thread side of one request: hand-off to a Task, replies, streams, and disconnects.
extension EventLoop {
    /// evhttp finished reading a request (head and body).
    func handleRequest(_ req: OpaquePointer) {
        guard let connection = evhttp_request_get_connection(req) else { return }
        guard let tracked = trackedConnection(connection) ?? admitAhead(of: connection) else {
            sendErrorNow(req, status: 503, message: "The server could not set this connection up (out of memory?); retry on a new connection.")
            return
        }
        tracked.stopDeadline()
        tracked.phase = .handling
        if draining {
            sendErrorNow(req, status: 503,
                         message: "The server is shutting down and takes no new requests; retry in a moment (another instance may answer).")
            return
        }
        let head = tracked.head ?? EvhttpRequestReader.head(req, connection: connection)
        tracked.head = nil
        guard let head else {
            sendErrorNow(req, status: 400,
                         message: "A request header contains a control character; remove raw control bytes from header names and values.")
            return
        }
        let request = EvhttpRequestReader.request(head, body: req)
        let responder = HTTPResponder(loop: self, highWaterBytes: configuration.outputHighWaterBytes)
        let link = responder.link
        let argument = Unmanaged.passRetained(responder).toOpaque()
        link.request = req
        link.connection = connection
        link.owner = tracked
        link.isHead = evhttp_request_get_command(req) == EVHTTP_REQ_HEAD
        link.callbackArgument = argument
        tracked.responder = responder
        // evhttp stops reading while the handler works, so it would not notice the client leaving:
        // watch the socket for EOF/RST ourselves.
        let fd = bufferevent_getfd(evhttp_connection_get_bufferevent(connection))
        if fd >= 0, let watcher = event_new(base, fd, Int16(EV_READ | EV_CLOSED | EV_PERSIST), onPeerActivity, argument) {
            link.watcher = watcher
            event_add(watcher, nil)
        }
        inFlight.add(1, ordering: .relaxed)
        runningHandlers.add(1, ordering: .relaxed)
        let handler = self.handler
        let trimmer = shared.trimmer
        let bodyBytes = request.body.count
        link.task = Task(executorPreference: self) { [self] in
            await handler.handle(request, responder: responder)
            responder.handlerReturned()
            runningHandlers.subtract(1, ordering: .releasing)
            trimmer.released(bodyBytes: bodyBytes)
        }
    }

    func sendReply(_ responder: HTTPResponder, status: Int, headers: HTTPHeaders, body: [UInt8]) {
        let link = responder.link
        guard let req = link.request else { return }
        // evhttp frames one-shot replies itself (Content-Length of `body`); a handler's own framing
        // headers could only disagree with it.
        addHeaders(headers, to: req, keepContentLength: link.isHead)
        // evhttp 2.1 writes a body even where HTTP forbids one (HEAD, 1xx, 204, 304), which corrupts
        // keep-alive framing; for HEAD it also omits Content-Length. Send such replies head-only.
        if link.isHead && headers["Content-Length"] == nil {
            _ = evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Length", String(body.count))
        }
        if !body.isEmpty && !link.isHead && Self.statusAllowsBody(status) {
            body.withUnsafeBytes { _ = evbuffer_add(evhttp_request_get_output_buffer(req), $0.baseAddress, $0.count) }
        }
        let owner = link.owner
        replyHandedOver(on: owner)
        detach(responder)
        evhttp_send_reply(req, Int32(status), nil, nil)
        queueWrite(on: owner)
    }

    func startStream(_ responder: HTTPResponder, status: Int, headers: HTTPHeaders) {
        let link = responder.link
        guard let req = link.request else { return }
        addHeaders(headers, to: req, keepContentLength: true)
        link.bodyless = link.isHead || !Self.statusAllowsBody(status)
        evhttp_send_reply_start(req, Int32(status), nil)
        if let connection = link.owner { suspendReadTimeout(on: connection) }
        queueWrite(on: link.owner)
    }

    func sendChunk(_ responder: HTTPResponder, _ bytes: [UInt8]) {
        let link = responder.link
        guard let req = link.request else { return }
        if link.bodyless {
            // Nothing goes on the wire; report the bytes as written so a waiting writer never stalls.
            responder.outputDrained(bytes.count)
            return
        }
        bytes.withUnsafeBytes { _ = evbuffer_add(scratch, $0.baseAddress, $0.count) }
        link.handedBytes += bytes.count
        evhttp_send_reply_chunk_with_cb(req, scratch, onOutputDrained, link.callbackArgument)
        let left = evbuffer_get_length(scratch)
        if left > 0 { evbuffer_drain(scratch, left) }
        queueWrite(on: link.owner)
    }

    func endStream(_ responder: HTTPResponder) {
        guard let req = responder.link.request else { return }
        let owner = responder.link.owner
        replyHandedOver(on: owner)
        detach(responder)
        evhttp_send_reply_end(req)
        queueWrite(on: owner)
    }

    /// A reply's last bytes were handed to evhttp, which writes them out later: until they are written (or the
    /// connection closes) the drain at shutdown waits, so stopping does not cut the end of an answer off.
    private func replyHandedOver(on connection: Connection?) {
        guard let connection, !connection.replyUnflushed else { return }
        connection.replyUnflushed = true
        unflushedReplies.add(1, ordering: .relaxed)
    }

    /// The connection's reply was written out, or the connection closed before it was.
    func replyFinished(on connection: Connection) {
        guard connection.replyUnflushed else { return }
        connection.replyUnflushed = false
        unflushedReplies.subtract(1, ordering: .relaxed)
    }

    /// The connection's output buffer is empty: every chunk handed over so far reached the socket.
    func outputDrained(_ responder: HTTPResponder) {
        let link = responder.link
        let bytes = link.handedBytes
        link.handedBytes = 0
        if bytes > 0 { responder.outputDrained(bytes) }
    }

    /// The connection of a request with its handler is being freed (client gone, write error, timeout,
    /// or server stop).
    func responderConnectionClosed(_ responder: HTTPResponder) {
        let link = responder.link
        guard let req = link.request else { return }
        // On a network error evhttp detaches a request the user still owns and leaves freeing it to us;
        // a still-attached request is freed by evhttp right after this callback.
        if evhttp_request_get_connection(req) == nil { evhttp_request_free(req) }
        let task = link.task
        detach(responder)
        responder.markClientGone()
        task?.cancel()
    }

    /// The socket became readable or the peer hung up while the handler works.
    func peerActivity(_ responder: HTTPResponder, fd: Int32) {
        let link = responder.link
        switch sg_ev_peek_socket(fd) {
        case 0:
            // EOF or error: free the connection now; its close callback cancels the handler.
            shared.counters.closedOnPeerCheck.add(1, ordering: .relaxed)
            shared.counters.lastPeerCheckErrno.store(Int(errno), ordering: .relaxed)
            if let connection = link.connection { evhttp_connection_free(connection) }
        case 1:
            // A pipelined next request: evhttp reads it after this reply. Stop watching (level-triggered).
            if let watcher = link.watcher { event_del(watcher) }
        default:
            break
        }
    }

    /// Ends the loop's bookkeeping for a request; after this no libevent callback refers to `responder`.
    private func detach(_ responder: HTTPResponder) {
        let link = responder.link
        if let owner = link.owner, owner.responder === responder { owner.responder = nil }
        link.owner = nil
        if let watcher = link.watcher { event_free(watcher) }
        link.watcher = nil
        link.request = nil
        link.connection = nil
        link.task = nil
        inFlight.subtract(1, ordering: .relaxed)
        if let argument = link.callbackArgument {
            link.callbackArgument = nil
            Unmanaged<HTTPResponder>.fromOpaque(argument).release()
        }
    }

    /// `Transfer-Encoding` is always evhttp's to set; `Content-Length` unless `keepContentLength`.
    static func isFramingHeader(_ name: String, keepContentLength: Bool) -> Bool {
        // `sameName` compares without lowercasing a copy (a 17-byte name such as `x-skillgate-model` is a heap string).
        switch name.utf8.count {
        case 14: return !keepContentLength && HTTPHeaders.sameName(name, "content-length")
        case 17: return HTTPHeaders.sameName(name, "transfer-encoding")
        default: return false
        }
    }

    static func statusAllowsBody(_ status: Int) -> Bool {
        status >= 200 && status != 204 && status != 304
    }

    private func addHeaders(_ headers: HTTPHeaders, to req: OpaquePointer, keepContentLength: Bool) {
        let output = evhttp_request_get_output_headers(req)
        for field in headers {
            if Self.isFramingHeader(field.name, keepContentLength: keepContentLength) { continue }
            // evhttp refuses values containing CR/LF (no header injection); such a field is dropped. `withCString`
            // puts a short name or value on the stack, where passing the String would copy it to the heap.
            _ = field.name.withCString { name in field.value.withCString { value in evhttp_add_header(output, name, value) } }
        }
        if draining { _ = evhttp_add_header(output, "Connection", "close") }
        if headers["Date"] == nil { _ = dateCache.withCurrent { evhttp_add_header(output, "Date", $0) } }
    }

    /// Answers on the loop thread without involving a handler.
    func sendErrorNow(_ req: OpaquePointer, status: Int, message: String) {
        let (contentType, body) = configuration.errorBody(status, message)
        let output = evhttp_request_get_output_headers(req)
        _ = evhttp_add_header(output, "Content-Type", contentType)
        for field in configuration.errorHeaders(status) { _ = evhttp_add_header(output, field.name, field.value) }
        _ = evhttp_add_header(output, "Connection", "close")
        body.withUnsafeBytes { _ = evbuffer_add(evhttp_request_get_output_buffer(req), $0.baseAddress, $0.count) }
        evhttp_send_reply(req, Int32(status), nil, nil)
    }
}
