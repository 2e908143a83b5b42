import CEvent
import Glibc

/// Loop-thread side of a connection's life: accept and admission, the phase deadlines, canned answers, and close.
/// See `Connection`.
extension EventLoop {
    /// Most connections taken from the listening socket in one callback, so a flood of connects cannot starve the
    /// requests of connections already open (the rest wait in the backlog for the next turn).
    static let acceptsPerTurn = 64

    /// The listening socket is readable: accepts what is waiting (at most `limit`), admitting each connection against
    /// the caps. `balancing`: stop early when this loop has more than its share of connections (`AcceptBalance`); off
    /// for the drain's last take from the backlog, which no other loop will take.
    func acceptConnections(upTo limit: Int = EventLoop.acceptsPerTurn, balancing: Bool = true) {
        var address = [CChar](repeating: 0, count: 64)
        for _ in 0..<limit {
            guard let listenFD = listeningSocket else { return }
            var port: Int32 = 0
            let fd = address.withUnsafeMutableBufferPointer { sg_ev_accept(listenFD, $0.baseAddress, $0.count, &port) }
            if fd < 0 {
                // EAGAIN: nothing left (another loop may have taken it). Out of descriptors or memory: stop taking
                // connections for a moment instead of spinning on a socket that stays readable.
                if balancing, fd != -EAGAIN && fd != -EWOULDBLOCK && fd != -EINTR && fd != -ECONNABORTED { pauseAccepting() }
                return
            }
            shared.counters.acceptedConnections.add(1, ordering: .relaxed)
            let peer = address.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            admit(fd: fd, peer: peer, port: Int(port))
            if shared.balance.update(loop: index, openConnections: connections.count), balancing {
                pauseAccepting()
                return
            }
        }
    }

    /// Counts a new connection against the caps and sets it up, or answers 503 and closes it.
    private func admit(fd: Int32, peer: String, port: Int) {
        let verdict = shared.limiter.admit(peer)
        guard verdict == .admitted else {
            let message: String
            if verdict == .overTotal {
                shared.counters.refusedOverTotal.add(1, ordering: .relaxed)
                message = "The server has its maximum number of open connections; retry in a moment, and reuse connections (keep-alive) instead of opening new ones."
            } else {
                shared.counters.refusedOverPerIP.add(1, ordering: .relaxed)
                message = "Your address has its maximum number of open connections to this server; close idle ones or reuse them (keep-alive), then retry."
            }
            sendCanned(to: fd, status: 503, message: message)
            closeLingering(fd)   // its request may be on its way already
            return
        }
        let connection = Connection(loop: self, fd: fd, peerAddress: peer, port: port)
        let argument = connection.argument
        connection.readEvent = event_new(base, fd, Int16(EV_READ | EV_PERSIST), onConnectionReadable, argument)
        connection.timer = event_new(base, -1, 0, onConnectionTimer, argument)
        guard let readEvent = connection.readEvent, connection.timer != nil else {
            shared.limiter.release(peer)
            sendCanned(to: fd, status: 503, message: "The server could not set this connection up (out of memory?); retry on a new connection.")
            connection.release()
            return
        }
        connections[ObjectIdentifier(connection)] = connection
        event_add(readEvent, nil)
        connection.startTimer(configuration.idleKeepAliveTimeout)
    }

    /// Loop thread: stops taking connections from the listening socket for `AcceptBalance.pause`.
    func pauseAccepting() {
        guard let listenEvent, let resumeAcceptEvent else { return }
        event_del(listenEvent)
        let (seconds, attoseconds) = AcceptBalance.pause.components
        var delay = sg_ev_timeval_ms(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        event_add(resumeAcceptEvent, &delay)
    }

    /// Loop thread: the pause is over.
    func resumeAccepting() {
        guard !draining, let listenEvent else { return }
        event_add(listenEvent, nil)
    }

    /// The phase's deadline passed: an idle keep-alive connection is closed quietly, a head or body that took too long
    /// gets a 408, a gate decision that did not come a 503, a reply the client stopped reading is cut off.
    func connectionTimerFired(_ connection: Connection) {
        switch connection.phase {
        case .waiting:
            close(connection)
        case .head, .body:
            let isHead = connection.phase == .head
            if isHead {
                shared.counters.headerTimeouts.add(1, ordering: .relaxed)
            } else {
                shared.counters.bodyTimeouts.add(1, ordering: .relaxed)
            }
            let limit = isHead ? configuration.headerTimeout : configuration.bodyReadTimeout
            refuse(connection, status: 408,
                   message: "The request \(isHead ? "head" : "body") took longer than \(limit) to arrive; send the whole request promptly.",
                   isHead: connection.head?.isHead ?? false)
        case .gating:
            shared.counters.headDecisionTimeouts.add(1, ordering: .relaxed)
            sendCanned(to: connection.fd, status: 503,
                       message: "The server could not decide on this request within \(configuration.headerTimeout) (its admission check, such as a token lookup, did not finish); retry in a few seconds.")
            close(connection, lingering: true)
        case .handling:
            // Only armed while reply bytes wait for a client that does not read them.
            if connection.outputSent < connection.output.count { close(connection) }
        case .closed:
            break
        }
    }

    /// Closes the connection: a handler still working is told (its task is cancelled), the caps are released.
    /// `peerEnded`: the client closed its side (nothing to count). `lingering`: the connection was just answered and its
    /// client may still be sending; its socket is read to its end before it is closed (`closeLingering`).
    func close(_ connection: Connection, peerEnded: Bool = false, lingering: Bool = false) {
        guard connection.phase != .closed else { return }
        if let responder = connection.responder {
            shared.counters.closedDuringRequest.add(1, ordering: .relaxed)
            responderConnectionClosed(responder)
        } else if !peerEnded {
            // How the socket looks says why it is closed before a request reached a handler (decision 0034).
            let state = Int(sg_ev_socket_state(connection.fd))
            if state != 0 {
                shared.counters.closedBeforeHandler.add(1, ordering: .relaxed)
                shared.counters.lastClosedBeforeHandlerState.store(state, ordering: .relaxed)
            }
        }
        replyFinished(on: connection)
        shared.limiter.release(connection.peerAddress)
        connection.release(closingDescriptor: !lingering)
        if lingering { closeLingering(connection.fd) }
        connections[ObjectIdentifier(connection)] = nil
        _ = shared.balance.update(loop: index, openConnections: connections.count)
    }

    /// At the end of the drain's grace period: every handler still running is told the server cuts it off, and
    /// cancelled; its connection stays open until the loop stops, so the handler can end its answer with an error its
    /// client reads (an error event on a stream) instead of a connection cut mid-answer (decision 0137).
    func cutOffHandlers() {
        for connection in connections.values {
            guard let responder = connection.responder else { continue }
            responder.markCutOffByServer()
            responder.link.task?.cancel()
        }
    }

    /// At stop: closes every connection (their handlers are cancelled) and every socket the loop lingers on.
    func closeAllConnections() {
        for connection in Array(connections.values) { close(connection) }
        closeAllLingering()
    }

    /// Answers with an error the server renders itself (`Configuration.errorBody`) and closes the connection.
    func refuse(_ connection: Connection, status: Int, message: String, fields: HTTPHeaders = [:], isHead: Bool = false) {
        let (contentType, body) = configuration.errorBody(status, message)
        var headers = configuration.errorHeaders(status)
        headers.set("Content-Type", contentType)
        for field in fields { headers.set(field.name, field.value) }
        refuse(connection, status: status, headers: headers, body: body, isHead: isHead)
    }

    /// Writes the answer straight to the socket and closes the connection, lingering on its socket: what the client
    /// may still be sending is read and discarded, so that it reads the answer instead of a reset (decision 0167).
    func refuse(_ connection: Connection, status: Int, headers: HTTPHeaders, body: [UInt8], isHead: Bool = false) {
        sendCanned(to: connection.fd, status: status, headers: headers, body: isHead ? nil : body, length: body.count,
                   extraFields: connection.replyFields)
        close(connection, lingering: true)
    }

    /// Writes an error straight to the socket, best effort (the connection is closed next).
    func sendCanned(to fd: Int32, status: Int, message: String) {
        let (contentType, body) = configuration.errorBody(status, message)
        var headers = configuration.errorHeaders(status)
        headers.set("Content-Type", contentType)
        sendCanned(to: fd, status: status, headers: headers, body: body, length: body.count)
    }

    /// Writes a complete `Connection: close` response straight to the socket, best effort; `body` nil sends the head
    /// only (HEAD requests) with `length` as its Content-Length.
    private func sendCanned(to fd: Int32, status: Int, headers: HTTPHeaders, body: [UInt8]?, length: Int, extraFields: [UInt8] = []) {
        guard fd >= 0 else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + length)
        dateCache.withCurrent { date in
            ResponseHeadEncoder.appendHead(to: &bytes, status: status, headers: headers, framing: .length(length),
                                           keepHandlerContentLength: false, connection: .close, date: date, extraFields: extraFields)
        }
        if let body { bytes += body }
        _ = bytes.withUnsafeBytes { sg_ev_send_now(fd, $0.baseAddress, $0.count) }
    }
}
