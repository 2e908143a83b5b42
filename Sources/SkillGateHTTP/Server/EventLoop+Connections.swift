import CEvent

/// Loop-thread side of a connection's life: admission, the header-time look at each request, the total
/// head and body deadlines, and close. See `Connection`.
extension EventLoop {
    /// evhttp accepted a connection and asks for its bufferevent (the socket is set on it afterwards).
    /// The admission check runs in the connection's `step`, activated here: it runs after evhttp has set
    /// the connection up and before any of its bytes are read.
    func newConnection(base: OpaquePointer) -> OpaquePointer? {
        guard let bufferevent = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else { return nil }
        shared.counters.acceptedConnections.add(1, ordering: .relaxed)
        evbuffer_add_cb(bufferevent_get_output(bufferevent), onConnectionOutputChanged, Unmanaged.passUnretained(self).toOpaque())
        let connection = Connection(loop: self, bufferevent: bufferevent)
        let argument = connection.argument
        connection.step = event_new(base, -1, 0, onConnectionStep, argument)
        connection.deadline = event_new(base, -1, 0, onConnectionDeadline, argument)
        connection.inputCallback = evbuffer_add_cb(bufferevent_get_input(bufferevent), onConnectionInput, argument)
        guard let step = connection.step, connection.deadline != nil, connection.inputCallback != nil else {
            // Out of memory: untracked, the connection's first request is answered with 503 (handleRequest).
            connection.release()
            return bufferevent
        }
        // Keeps the bufferevent's memory valid until `admit` even if evhttp gives up on the connection first.
        bufferevent_incref(bufferevent)
        connections[ObjectIdentifier(connection)] = connection
        if let delay = configuration.admissionDelayForTests {
            var timeout = sg_ev_timeval_ms(Int64(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000))
            event_add(step, &timeout)
        } else {
            event_active(step, Int32(EV_TIMEOUT), 0)
        }
        if shared.balance.update(loop: index, openConnections: connections.count) { pauseAccepting() }
        return bufferevent
    }

    func connectionStep(_ connection: Connection) {
        if connection.phase == .accepting {
            admit(connection)
        } else {
            hookCurrentRequest(connection)
        }
    }

    /// Counts the connection against the caps, or answers 503 and closes it.
    private func admit(_ connection: Connection) {
        guard let evcon = sg_evhttp_connection_of(connection.bufferevent) else {
            // evhttp freed the connection while setting it up.
            forget(connection)
            bufferevent_decref(connection.bufferevent)
            return
        }
        bufferevent_decref(connection.bufferevent)
        connection.evcon = evcon
        connection.peerAddress = Self.peerAddress(of: evcon)
        let verdict = shared.limiter.admit(connection.peerAddress)
        guard verdict == .admitted else {
            let message: String
            if verdict == .overTotal {
                shared.counters.refusedOverTotal.add(1, ordering: .relaxed)
                message = "The server has its maximum number of open connections; retry in a moment, and reuse connections (keep-alive) instead of opening new ones."
            } else {
                shared.counters.refusedOverPerIP.add(1, ordering: .relaxed)
                message = "Your address has its maximum number of open connections to this server; close idle ones or reuse them (keep-alive), then retry."
            }
            sendCanned(to: bufferevent_getfd(connection.bufferevent), status: 503, message: message)
            forget(connection)
            evhttp_connection_free(evcon)
            return
        }
        completeAdmission(connection, evcon: evcon)
    }

    /// The admitted connection's bookkeeping: its close callback, and the hooks of the request evhttp reads.
    private func completeAdmission(_ connection: Connection, evcon: OpaquePointer) {
        connection.admitted = true
        evhttp_connection_set_closecb(evcon, onConnectionClosed, connection.argument)
        guard sg_evhttp_connection_closecb_arg(evcon) == connection.argument else {
            fatalError("libevent's struct evhttp_connection does not have the layout SkillGate mirrors (Sources/CEvent/evhttp_internals.h) although its version says it should; install a stock libevent 2.1.8–2.1.12.")
        }
        connection.phase = .waiting
        hookCurrentRequest(connection)
    }

    /// A request evhttp completed before its connection's admission step ran — libevent may run evhttp's read of a
    /// new connection first when the loop is busy (decision 0034: such requests were answered 503 "could not set this
    /// connection up"). Admits the connection now, as the step would. Nil when the connection is unknown or the
    /// limits refuse it; the caller then answers 503 and the step, later, finds the connection gone.
    func admitAhead(of evcon: OpaquePointer) -> Connection? {
        let bufferevent = evhttp_connection_get_bufferevent(evcon)
        guard let connection = connections.values.first(where: { $0.phase == .accepting && $0.bufferevent == bufferevent }) else {
            return nil
        }
        let peer = Self.peerAddress(of: evcon)
        guard shared.limiter.admit(peer) == .admitted else { return nil }
        bufferevent_decref(connection.bufferevent)
        connection.evcon = evcon
        connection.peerAddress = peer
        shared.counters.admittedAhead.add(1, ordering: .relaxed)
        completeAdmission(connection, evcon: evcon)
        return connection
    }

    /// Installs the header and completion callbacks on the request evhttp is about to read.
    private func hookCurrentRequest(_ connection: Connection) {
        guard let evcon = connection.evcon, let req = sg_evhttp_connection_current_request(evcon) else { return }
        evhttp_request_set_header_cb(req, onRequestHead)
        evhttp_request_set_on_complete_cb(req, onRequestComplete, connection.argument)
    }

    /// Bytes arrived: the first one of a head starts the head's total deadline, and the request's code is warmed
    /// before evhttp parses the head (when the loop slept: `warmCodeIfSlept`).
    func connectionInput(_ connection: Connection) {
        guard connection.phase == .waiting else { return }
        warmCodeIfSlept(.request)
        connection.phase = .head
        connection.startDeadline(configuration.headerTimeout)
    }

    /// A request's head is parsed and no body byte is read yet. Returns 0 to let evhttp read the body,
    /// or -1 after answering a refused request: evhttp then frees the connection without reading on.
    func requestHead(_ connection: Connection, _ req: OpaquePointer) -> Int32 {
        // Usually warmed already at the head's first bytes (`connectionInput`); a pipelined head whose bytes came
        // while the previous request was handled is warmed here.
        warmCodeIfSlept(.request)
        connection.stopDeadline()
        connection.phase = .handling
        guard let evcon = connection.evcon else { return -1 }
        guard var head = EvhttpRequestReader.head(req, connection: evcon) else {
            return refuse(connection, req, status: 400,
                          message: "A request header contains a control character; remove raw control bytes from header names and values.")
        }
        let framing: RequestFraming.Body
        switch RequestFraming.check(head.headers) {
        case .failure(let refusal):
            return refuse(connection, req, status: refusal.status, message: refusal.message)
        case .success(let body):
            framing = body
        }
        var limit = configuration.maxBodyBytes
        if let gate = configuration.headGate {
            switch gate(head) {
            case .accept:
                break
            case .admit(let admission):
                head.admission = admission
            case .acceptWithBodyLimit(let bytes):
                limit = min(limit, max(0, bytes))
            case .reject(let status, let headers, let body):
                return refuse(connection, req, status: status, headers: headers, body: body)
            }
        }
        evhttp_connection_set_max_body_size(evcon, limit)
        connection.head = head
        if framing != .none && Self.methodTakesBody(evhttp_request_get_command(req)) {
            connection.phase = .body
            connection.startDeadline(configuration.bodyReadTimeout)
        }
        return 0
    }

    private func refuse(_ connection: Connection, _ req: OpaquePointer, status: Int, message: String) -> Int32 {
        let (contentType, body) = configuration.errorBody(status, message)
        var headers = configuration.errorHeaders(status)
        headers.set("Content-Type", contentType)
        return refuse(connection, req, status: status, headers: headers, body: body)
    }

    /// Writes the answer straight to the socket and returns -1, so evhttp closes the connection with the
    /// body unread. Nothing else is queued on the connection at header time (evhttp reads a request only
    /// after the previous answer went out), so the answer cannot interleave with another. Closing with
    /// unread bytes makes the kernel reset the connection after the answer; clients that read while they
    /// send (curl, or any client once the body fits its socket buffer) see the answer.
    private func refuse(_ connection: Connection, _ req: OpaquePointer, status: Int, headers: HTTPHeaders, body: [UInt8]) -> Int32 {
        shared.counters.refusedAtHead.add(1, ordering: .relaxed)
        let isHead = evhttp_request_get_command(req) == EVHTTP_REQ_HEAD
        sendCanned(to: bufferevent_getfd(connection.bufferevent), status: status, headers: headers, body: isHead ? nil : body, length: body.count)
        return -1
    }

    /// An answer was written out; evhttp reads the next request on the connection (or closes it).
    func requestCompleted(_ connection: Connection) {
        replyFinished(on: connection)
        restoreReadTimeout(on: connection)
        connection.stopDeadline()
        connection.head = nil
        // A pipelined next head may already be buffered: its clock starts now.
        if evbuffer_get_length(bufferevent_get_input(connection.bufferevent)) > 0 {
            connection.phase = .head
            connection.startDeadline(configuration.headerTimeout)
        } else {
            connection.phase = .waiting
        }
        // evhttp creates the next request after this callback and reads buffered bytes in a deferred
        // callback queued behind `step`, which hooks the new request first.
        if let step = connection.step { event_active(step, Int32(EV_TIMEOUT), 0) }
    }

    /// A head or body ran past its total deadline: 408, and the connection is closed.
    func connectionDeadline(_ connection: Connection) {
        guard let evcon = connection.evcon, connection.phase == .head || connection.phase == .body else { return }
        let isHead = connection.phase == .head
        if isHead {
            shared.counters.headerTimeouts.add(1, ordering: .relaxed)
        } else {
            shared.counters.bodyTimeouts.add(1, ordering: .relaxed)
        }
        let limit = isHead ? configuration.headerTimeout : configuration.bodyReadTimeout
        sendCanned(to: bufferevent_getfd(connection.bufferevent), status: 408,
                   message: "The request \(isHead ? "head" : "body") took longer than \(limit) to arrive; send the whole request promptly.")
        evhttp_connection_free(evcon)   // its close callback forgets the connection
    }

    /// evhttp is freeing the connection (client gone, error, timeout, answer with Connection: close, stop).
    func connectionClosed(_ connection: Connection) {
        if let responder = connection.responder {
            shared.counters.closedDuringRequest.add(1, ordering: .relaxed)
            responderConnectionClosed(responder)
        } else if connection.phase != .accepting {
            // evhttp calls this before it closes the socket: how the socket looks says why (decision 0034).
            let state = Int(sg_ev_socket_state(bufferevent_getfd(connection.bufferevent)))
            if state != 0 {
                shared.counters.closedBeforeHandler.add(1, ordering: .relaxed)
                shared.counters.lastClosedBeforeHandlerState.store(state, ordering: .relaxed)
            }
        }
        replyFinished(on: connection)
        if connection.admitted {
            connection.admitted = false
            shared.limiter.release(connection.peerAddress)
        }
        forget(connection)
    }

    /// Drops the loop's bookkeeping of a connection.
    func forget(_ connection: Connection) {
        connection.release()
        connections[ObjectIdentifier(connection)] = nil
        _ = shared.balance.update(loop: index, openConnections: connections.count)
    }

    /// At stop, after evhttp freed its connections: those still waiting for admission.
    func forgetUnadmittedConnections() {
        for connection in connections.values {
            let waiting = connection.phase == .accepting
            connection.release()
            if waiting { bufferevent_decref(connection.bufferevent) }
        }
        connections.removeAll()
    }

    /// The connection of `evcon` as set up by `admit`, or nil for an untracked one.
    func trackedConnection(_ evcon: OpaquePointer) -> Connection? {
        guard let argument = sg_evhttp_connection_closecb_arg(evcon) else { return nil }
        return Unmanaged<Connection>.fromOpaque(argument).takeUnretainedValue()
    }

    /// Writes an error straight to the socket, best effort (the connection is closed next).
    private func sendCanned(to fd: Int32, status: Int, message: String) {
        let (contentType, body) = configuration.errorBody(status, message)
        var headers = configuration.errorHeaders(status)
        headers.set("Content-Type", contentType)
        sendCanned(to: fd, status: status, headers: headers, body: body, length: body.count)
    }

    /// Writes a complete `Connection: close` response straight to the socket, best effort; `body` nil
    /// sends the head only (HEAD requests) with `length` as its Content-Length.
    private func sendCanned(to fd: Int32, status: Int, headers: HTTPHeaders, body: [UInt8]?, length: Int) {
        guard fd >= 0 else { return }
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for field in headers where !Self.isFramingHeader(field.name, keepContentLength: false) && !HTTPHeaders.sameName(field.name, "connection") {
            // A value with CR or LF would inject header lines; such a field is dropped, as evhttp does.
            guard !field.name.utf8.contains(where: { $0 == 13 || $0 == 10 }), !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 }) else { continue }
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + (body ?? [])
        _ = bytes.withUnsafeBytes { sg_ev_send_now(fd, $0.baseAddress, $0.count) }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 413: return "Payload Too Large"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        default: return status < 500 ? "Client Error" : "Server Error"
        }
    }

    private static func peerAddress(of evcon: OpaquePointer) -> String {
        var address: UnsafeMutablePointer<CChar>?
        var port: UInt16 = 0
        evhttp_connection_get_peer(evcon, &address, &port)
        return address.map { String(cString: $0) } ?? ""
    }

    /// Methods evhttp reads a body for (its `evhttp_method_may_have_body`).
    private static func methodTakesBody(_ command: evhttp_cmd_type) -> Bool {
        command != EVHTTP_REQ_HEAD && command != EVHTTP_REQ_TRACE
    }
}
