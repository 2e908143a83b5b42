import CEvent
import Glibc

/// Loop-thread side of one request: hand-off to a Task, the reply's bytes, streams, and disconnects.
extension EventLoop {
    /// A request was read whole (head and body): hands it to the handler in a Task on this loop.
    func dispatch(_ connection: Connection) {
        connection.stopTimer()
        connection.phase = .handling
        guard let head = connection.head else { return }
        connection.head = nil
        let admission = connection.admission
        connection.admission = nil
        var body: [UInt8] = []
        swap(&body, &connection.body)
        let bodyBytes = body.count
        let request = HTTPServerRequest(method: head.method, path: head.path, query: head.query, headers: head.headers,
                                        body: body, remoteAddress: connection.remoteAddress, admission: admission)
        let responder = HTTPResponder(loop: self, highWaterBytes: configuration.outputHighWaterBytes)
        let link = responder.link
        link.owner = connection
        link.isHead = head.isHead
        link.minorVersion = head.minorVersion
        connection.responder = responder
        connection.replyEnded = false
        inFlight.add(1, ordering: .relaxed)
        runningHandlers.add(1, ordering: .relaxed)
        let handler = self.handler
        let trimmer = shared.trimmer
        link.task = Task(executorPreference: self) { [self] in
            await handler.handle(request, responder: responder)
            responder.handlerReturned()
            runningHandlers.subtract(1, ordering: .releasing)
            trimmer.released(bodyBytes: bodyBytes)
        }
    }

    func sendReply(_ responder: HTTPResponder, status: Int, headers: HTTPHeaders, body: [UInt8]) {
        let link = responder.link
        guard let connection = link.owner else { return }
        let bodyAllowed = !link.isHead && Self.statusAllowsBody(status)
        let framing: ResponseHeadEncoder.Framing
        if link.isHead {
            // A HEAD reply announces the length the GET would have (the handler's own, else its body's).
            framing = headers["Content-Length"] == nil ? .length(body.count) : .none
        } else {
            framing = Self.statusAllowsBody(status) ? .length(body.count) : .none
        }
        closeAfterReplyIfAsked(connection, headers)
        connection.output.reserveCapacity(connection.output.count + 256 + (bodyAllowed ? body.count : 0))
        appendHead(to: connection, status: status, headers: headers, framing: framing, keepContentLength: link.isHead)
        if bodyAllowed { connection.output.append(contentsOf: body) }
        replyHandedOver(on: connection)
        detach(responder)
        queueWrite(on: connection)
    }

    func startStream(_ responder: HTTPResponder, status: Int, headers: HTTPHeaders) {
        startStream(responder, status: status, measured: headers["Content-Length"] != nil,
                    asksClose: ResponseHeadEncoder.asksClose(headers)) { connection, framing in
            appendHead(to: connection, status: status, headers: headers, framing: framing, keepContentLength: true)
        }
    }

    /// `startStream` with the head's fields written ahead (`HTTPResponder.prepareStreamHead`).
    func startStream(_ responder: HTTPResponder, status: Int, written: ResponseHeadEncoder.WrittenFields) {
        startStream(responder, status: status, measured: written.hasContentLength, asksClose: written.asksClose) { connection, framing in
            let field = connectionField(connection)
            dateCache.withCurrent { date in
                ResponseHeadEncoder.appendHead(to: &connection.output, status: status, written: written, framing: framing,
                                               connection: field, date: date, extraFields: connection.replyFields)
            }
        }
    }

    /// Starts a stream whose head `appendHead` writes: `measured` when the handler set `Content-Length`, `asksClose` when
    /// its `Connection` field asks to close after the reply.
    private func startStream(_ responder: HTTPResponder, status: Int, measured: Bool, asksClose: Bool,
                             appendHead: (Connection, ResponseHeadEncoder.Framing) -> Void) {
        let link = responder.link
        guard let connection = link.owner else { return }
        link.bodyless = link.isHead || !Self.statusAllowsBody(status)
        let framing: ResponseHeadEncoder.Framing
        if link.bodyless || measured {
            // No body, or the handler measured it: the bytes go out as they are.
            framing = .none
        } else if link.minorVersion >= 1 {
            framing = .chunked
            link.chunked = true
        } else {
            // An HTTP/1.0 client cannot read chunks: the body ends when the connection closes.
            framing = .none
            connection.closeAfterReply = true
        }
        if draining || asksClose { connection.closeAfterReply = true }
        appendHead(connection, framing)
        if link.bodyless { endBodilessStream(responder, on: connection) }
        queueWrite(on: connection)
    }

    /// A stream that may carry no body (a HEAD request's, a 204's or 304's) is a whole reply once its head is written
    /// (RFC 9110 §9.3.2): the connection goes on to its next request (or closes, as asked) without waiting for the
    /// handler's end, and the handler's next write fails as if the client had left, so a handler that streams until
    /// then (an endless event tail) stops instead of writing into nothing for ever (decision 0137).
    private func endBodilessStream(_ responder: HTTPResponder, on connection: Connection) {
        replyHandedOver(on: connection)
        detach(responder)
        responder.markClientGone()
    }

    func sendChunk(_ responder: HTTPResponder, _ bytes: [UInt8]) {
        let link = responder.link
        guard let connection = link.owner else { return }
        if link.bodyless {
            // Nothing goes on the wire; report the bytes as written so a waiting writer never stalls.
            responder.outputDrained(bytes.count)
            return
        }
        if link.chunked {
            ResponseHeadEncoder.appendChunk(bytes, to: &connection.output)
        } else {
            connection.output.append(contentsOf: bytes)
        }
        link.handedBytes += bytes.count
        queueWrite(on: connection)
    }

    func endStream(_ responder: HTTPResponder) {
        let link = responder.link
        guard let connection = link.owner else { return }
        if link.chunked { connection.output.append(contentsOf: ResponseHeadEncoder.lastChunk) }
        // Chunks not yet reported as written are reported when the output drains; the responder is done with them.
        let unreported = link.handedBytes
        replyHandedOver(on: connection)
        detach(responder)
        if unreported > 0 { responder.outputDrained(unreported) }
        queueWrite(on: connection)
    }

    /// A handler's `Connection: close` closes the connection after its reply, as does shutting down.
    private func closeAfterReplyIfAsked(_ connection: Connection, _ headers: HTTPHeaders) {
        if draining || ResponseHeadEncoder.asksClose(headers) { connection.closeAfterReply = true }
    }

    private func appendHead(to connection: Connection, status: Int, headers: HTTPHeaders, framing: ResponseHeadEncoder.Framing,
                            keepContentLength: Bool) {
        let field = connectionField(connection)
        dateCache.withCurrent { date in
            ResponseHeadEncoder.appendHead(to: &connection.output, status: status, headers: headers, framing: framing,
                                           keepHandlerContentLength: keepContentLength, connection: field, date: date,
                                           extraFields: connection.replyFields)
        }
    }

    /// The `Connection` field of `connection`'s reply.
    private func connectionField(_ connection: Connection) -> ResponseHeadEncoder.ConnectionField {
        if connection.closeAfterReply { return .close }
        return (connection.responder?.link.minorVersion ?? 1) == 0 ? .keepAlive : .unsaid
    }

    /// A reply's last bytes were queued: until they are written (or the connection closes) the drain at shutdown
    /// waits, so stopping does not cut the end of an answer off.
    private func replyHandedOver(on connection: Connection) {
        connection.replyEnded = true
        unflushedReplies.add(1, ordering: .relaxed)
    }

    /// The connection's reply was written out, or the connection closed before it was.
    func replyFinished(on connection: Connection) {
        guard connection.replyEnded else { return }
        connection.replyEnded = false
        unflushedReplies.subtract(1, ordering: .relaxed)
    }

    /// Every byte queued on the connection reached the socket.
    func outputDrained(_ connection: Connection) {
        guard let responder = connection.responder else { return }
        let link = responder.link
        let bytes = link.handedBytes
        link.handedBytes = 0
        if bytes > 0 { responder.outputDrained(bytes) }
    }

    /// The reply was written whole: the connection closes, or reads its next request (one may be buffered already).
    func requestCompleted(_ connection: Connection) {
        replyFinished(on: connection)
        if connection.closeAfterReply {
            close(connection)
            return
        }
        connection.phase = .waiting
        if !connection.replyFields.isEmpty { connection.replyFields = [] }
        if connection.readPaused, let readEvent = connection.readEvent {
            connection.readPaused = false
            event_add(readEvent, nil)
        }
        if connection.input.isEmpty {
            connection.startTimer(configuration.idleKeepAliveTimeout)
        } else {
            consumeInput(connection)
        }
    }

    /// The connection of a request with its handler closed (client gone, write error, deadline, server stop).
    func responderConnectionClosed(_ responder: HTTPResponder) {
        let task = responder.link.task
        detach(responder)
        responder.markClientGone()
        task?.cancel()
    }

    /// Ends the loop's bookkeeping for a request; after this the loop does not refer to `responder`.
    private func detach(_ responder: HTTPResponder) {
        let link = responder.link
        guard let owner = link.owner else { return }
        if owner.responder === responder { owner.responder = nil }
        link.owner = nil
        link.task = nil
        inFlight.subtract(1, ordering: .relaxed)
    }

    static func statusAllowsBody(_ status: Int) -> Bool {
        status >= 200 && status != 204 && status != 304
    }
}
