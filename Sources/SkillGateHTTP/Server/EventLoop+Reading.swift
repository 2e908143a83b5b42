import CEvent
import Glibc

/// Loop-thread reading of requests: bytes off the socket, the head parsed and checked before any body byte is read
/// (framing, the `headGate`, the body limit), the body read by its length or de-chunked, then the request handed to
/// its handler (`EventLoop+Requests.swift`).
///
/// Bytes are read into the loop's one read buffer and parsed there; only a head or body that has not all arrived, or a
/// pipelined request, is copied into the connection (`Connection.input`, `Connection.body`), so an idle or held
/// connection keeps no read buffer of its own.
extension EventLoop {
    /// The socket is readable, or the peer closed it.
    func connectionReadable(_ connection: Connection) {
        if connection.phase == .handling || connection.phase == .gating {
            peerActivity(connection)
            return
        }
        let count = sg_ev_read(connection.fd, readBuffer.baseAddress, readBuffer.count)
        if count <= 0 {
            if count == -Int(EAGAIN) || count == -Int(EWOULDBLOCK) { return }
            // The client closed (or reset) the connection: between requests that is its way to end it.
            close(connection, peerEnded: count == 0)
            return
        }
        if connection.phase == .waiting { startHead(connection) }
        let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])
        if connection.input.isEmpty {
            let used = consume(connection, bytes)
            keep(UnsafeRawBufferPointer(rebasing: bytes[used...]), in: connection)
        } else {
            connection.input.append(contentsOf: bytes)
            consumeInput(connection)
        }
    }

    /// The first byte of a head came: its total deadline starts, and the request's code is warmed if the loop slept.
    private func startHead(_ connection: Connection) {
        warmCodeIfSlept(.request)
        connection.phase = .head
        connection.headScanned = 0
        connection.startTimer(configuration.headerTimeout)
    }

    /// Runs the connection's buffered bytes through the request reader (after more arrived, or when a reply is done
    /// and a pipelined request waits).
    func consumeInput(_ connection: Connection) {
        // Moved out while parsing: the reader may close the connection, which clears `input`.
        var pending: [UInt8] = []
        swap(&pending, &connection.input)
        let used = pending.withUnsafeBytes { consume(connection, $0) }
        guard connection.phase != .closed, used < pending.count else { return }
        // `headScanned` counts from the start of the unread head, which is where the kept bytes begin.
        if used > 0 { pending.removeFirst(used) }
        connection.input = pending
    }

    /// Keeps bytes the reader did not use yet (a partial head, a pipelined request).
    private func keep(_ bytes: UnsafeRawBufferPointer, in connection: Connection) {
        guard !bytes.isEmpty, connection.phase != .closed else { return }
        connection.input.append(contentsOf: bytes)
    }

    /// Reads as much of a request as `bytes` holds; returns how many of them it used. Stops when a request went to its
    /// handler (the rest is a pipelined request) or the connection was closed.
    private func consume(_ connection: Connection, _ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < bytes.count {
            switch connection.phase {
            case .head:
                guard let end = readHead(connection, bytes, from: &offset) else { return offset }
                offset = end
            case .body:
                offset += readBody(connection, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            case .waiting:
                startHead(connection)
            case .gating, .handling, .closed:
                return offset
            }
        }
        return offset
    }

    /// Looks for a complete head from `offset` (blank lines before it are skipped); returns the offset after it once it
    /// was read and checked, nil when more bytes are needed or the connection was refused.
    private func readHead(_ connection: Connection, _ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> Int? {
        if connection.headScanned == 0 {
            offset += RequestHeadParser.blankLinePrefix(bytes, from: offset)
            if offset == bytes.count { return nil }
        }
        guard let end = HTTP1Head.end(of: bytes, from: offset, scanned: offset + connection.headScanned) else {
            let pending = bytes.count - offset
            if pending > configuration.maxHeaderBytes {
                refuse(connection, status: 431, message: headTooLargeMessage)
                return nil
            }
            connection.headScanned = pending
            return nil
        }
        connection.headScanned = 0
        guard end - offset <= configuration.maxHeaderBytes else {
            refuse(connection, status: 431, message: headTooLargeMessage)
            return nil
        }
        switch RequestHeadParser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) {
        case .failure(let refusal):
            refuse(connection, status: refusal.status, message: refusal.message)
            return nil
        case .success(let head):
            headRead(connection, head)
            return connection.phase == .closed ? nil : end
        }
    }

    private var headTooLargeMessage: String {
        "The request head (request line and header fields) is over this server's limit of \(configuration.maxHeaderBytes) bytes; send fewer or shorter header fields."
    }

    /// A head is read and no body byte is used yet: checks its Host and framing, asks the `headGate`, and sets up the
    /// body's reading (or hands a bodiless request over).
    private func headRead(_ connection: Connection, _ parsed: ParsedRequestHead) {
        connection.stopTimer()
        var head = HTTPRequestHead(method: parsed.method, path: parsed.path, query: parsed.query, headers: parsed.headers,
                                   remoteAddress: connection.remoteAddress)
        if let choose = configuration.replyFields, let fields = choose(head) {
            connection.replyFields = ResponseHeadEncoder.WrittenFields(fields).bytes
        }
        if let refusal = RequestHost.check(parsed) {
            shared.counters.refusedAtHead.add(1, ordering: .relaxed)
            refuse(connection, status: refusal.status, message: refusal.message, isHead: parsed.isHead)
            return
        }
        let framing: RequestFraming.Body
        switch RequestFraming.check(parsed.headers) {
        case .failure(let refusal):
            shared.counters.refusedAtHead.add(1, ordering: .relaxed)
            refuse(connection, status: refusal.status, message: refusal.message, fields: refusal.headers, isHead: parsed.isHead)
            return
        case .success(let body):
            // A HEAD request's body is framed like any other (RFC 9112 §6.3): read, or refused, by the same rules as a
            // GET's; only its reply goes without a body.
            framing = body
        }
        let decision = configuration.headGate?(head) ?? .accept
        if case .decideLater(let deferred) = decision {
            decideLater(connection, GatedHead(parsed: parsed, head: head, framing: framing, ticket: nextGateTicket()), deferred)
            return
        }
        admit(connection, parsed, &head, framing, decision)
    }

    /// Carries a request on as its gate decided: refused, or its body read (or a bodiless request handed over).
    private func admit(_ connection: Connection, _ parsed: ParsedRequestHead, _ head: inout HTTPRequestHead,
                       _ framing: RequestFraming.Body, _ decision: HTTPHeadDecision) {
        var limit = configuration.maxBodyBytes
        switch decision {
        case .accept:
            break
        case .admit(let admission):
            head.admission = admission
        case .acceptWithBodyLimit(let bytes):
            limit = min(limit, max(0, bytes))
        case .reject(let status, let headers, let body):
            shared.counters.refusedAtHead.add(1, ordering: .relaxed)
            refuse(connection, status: status, headers: headers, body: body, isHead: parsed.isHead)
            return
        case .decideLater:
            // A deferred decision must end in a decision; deferring again is the gate's mistake.
            refuse(connection, status: 500, message: "The server's request gate did not decide on this request; report it to the operator.",
                   isHead: parsed.isHead)
            return
        }
        if let expect = parsed.expect, !HTTPHeaders.sameName(expect, "100-continue") {
            refuse(connection, status: 417, message: "Only `Expect: 100-continue` is understood; remove the Expect field or use 100-continue.",
                   isHead: parsed.isHead)
            return
        }
        connection.head = parsed
        connection.admission = head.admission
        // An HTTP/1.0 message with Transfer-Encoding has faulty framing: answered, then the connection closes, whatever
        // its Connection field asks (RFC 9112 §6.1).
        connection.closeAfterReply = !parsed.keepAlive || (framing == .chunked && parsed.minorVersion == 0)
        switch framing {
        case .none:
            connection.body = []
            dispatch(connection)
        case .length(let length):
            guard length <= limit else {
                refuse(connection, status: 413, message: Self.bodyTooLargeMessage(limit: limit), isHead: parsed.isHead)
                return
            }
            connection.body = []
            // Room for the announced body up front (one allocation for a usual request); a large one grows as it comes.
            connection.body.reserveCapacity(min(length, Self.bodyReservationBytes))
            connection.bodyReader = .length(remaining: length)
            startBody(connection, limit: limit, expect: parsed.expect != nil && parsed.minorVersion >= 1)
        case .chunked:
            connection.body = []
            connection.bodyReader = .chunked(ChunkedBodyDecoder())
            startBody(connection, limit: limit, expect: parsed.expect != nil && parsed.minorVersion >= 1)
        }
    }

    private func startBody(_ connection: Connection, limit: Int, expect: Bool) {
        connection.bodyLimit = limit
        connection.phase = .body
        connection.startTimer(configuration.bodyReadTimeout)
        // The client waits for a go-ahead before it sends the body (RFC 9110 §10.1.1).
        if expect { _ = Self.continueLine.withUnsafeBytes { sg_ev_send_now(connection.fd, $0.baseAddress, $0.count) } }
    }

    /// The most a body's announced length reserves before its bytes arrive.
    static let bodyReservationBytes = 1 << 20

    private static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The 413's message, naming the limit the request met (the server's, or the smaller one its gate set).
    static func bodyTooLargeMessage(limit: Int) -> String {
        "The request body is over this endpoint's size limit of \(limit) bytes; send a smaller body."
    }

    static let trailersTooLargeMessage =
        "The chunked body's trailer section (the fields after the last chunk) is over \(ChunkedBodyDecoder.maxTrailerBytes) bytes; send fewer or shorter trailer fields, or none."

    /// Takes body bytes from the start of `bytes`; returns how many it used.
    private func readBody(_ connection: Connection, _ bytes: UnsafeRawBufferPointer) -> Int {
        switch connection.bodyReader {
        case .length(let remaining):
            let take = min(remaining, bytes.count)
            connection.body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            if take == remaining {
                connection.bodyReader = nil
                dispatch(connection)
            } else {
                connection.bodyReader = .length(remaining: remaining - take)
            }
            return take
        case .chunked(var decoder):
            connection.bodyReader = nil   // no second reference to the decoder's state while it runs
            switch decoder.decode(bytes, into: &connection.body, limit: connection.bodyLimit) {
            case .needsMore:
                connection.bodyReader = .chunked(decoder)
                return bytes.count
            case .finished(let used):
                dispatch(connection)
                return used
            case .malformed:
                refuse(connection, status: 400, message: "The chunked request body is malformed (a chunk size is hex digits, then optionally `;` and an extension, and its line and each chunk end with CRLF; trailer lines are `Name: value`); fix the encoding or send Content-Length.",
                       isHead: connection.head?.isHead ?? false)
                return bytes.count
            case .tooLarge:
                refuse(connection, status: 413, message: Self.bodyTooLargeMessage(limit: connection.bodyLimit),
                       isHead: connection.head?.isHead ?? false)
                return bytes.count
            case .trailersTooLarge:
                refuse(connection, status: 431, message: Self.trailersTooLargeMessage, isHead: connection.head?.isHead ?? false)
                return bytes.count
            }
        case nil:
            return 0
        }
    }

    /// Peer activity while a handler works or the gate decides (the loop does not read then): bytes are a pipelined
    /// request, read after the reply (or the decision), so reading stops until then. While a handler works, the end of
    /// the stream or an error means the client left: the connection closes and the handler is cancelled (a half-close
    /// looks the same as a close here, and a client that gave up must not keep its upstream work running). While the
    /// gate decides, an orderly end of the stream is a half-close (`halfClosedWhileGating`).
    private func peerActivity(_ connection: Connection) {
        switch sg_ev_peek_socket(connection.fd) {
        case 0:
            if connection.phase == .gating && errno == 0 {
                halfClosedWhileGating(connection)
                return
            }
            shared.counters.closedOnPeerCheck.add(1, ordering: .relaxed)
            shared.counters.lastPeerCheckErrno.store(Int(errno), ordering: .relaxed)
            close(connection)
        case 1:
            if let readEvent = connection.readEvent { event_del(readEvent) }
            connection.readPaused = true
        default:
            break
        }
    }

    /// The client ended its side after sending a head whose gate decision is out (`shutdown(SHUT_WR)` after the
    /// request, as scripted clients such as `nc -N` do): everything it sent is in `input` (the peek found no more).
    /// Reading stops for good; a request whose announced body has not all come is closed at once, without an answer;
    /// any other waits for its decision and is answered, then the connection closes (`finishHalfClosed`). Before, the
    /// connection closed here and the request was dropped without an answer or a log line, while the same request with
    /// a gate that decided at once was answered.
    private func halfClosedWhileGating(_ connection: Connection) {
        if case .length(let length)? = connection.gated?.framing, connection.input.count < length {
            close(connection, peerEnded: true)
            return
        }
        connection.peerHalfClosed = true
        if let readEvent = connection.readEvent { event_del(readEvent) }
        connection.readPaused = true
    }

    /// After the decision on a half-closed client's request: a request that is whole is with its handler and the
    /// connection closes after the reply; one cut short (a chunked body that did not end) is closed without an answer.
    private func finishHalfClosed(_ connection: Connection) {
        switch connection.phase {
        case .handling: connection.closeAfterReply = true
        case .closed: break
        default: close(connection, peerEnded: true)
        }
    }

    private func nextGateTicket() -> UInt64 {
        lastGateTicket &+= 1
        return lastGateTicket
    }

    /// The gate decides off the loop: reading stops (bytes already read stay in `input`, more wait in the kernel), the
    /// decision's deadline starts, and the decision comes back as a loop job (`headDecided`).
    private func decideLater(_ connection: Connection, _ gated: GatedHead, _ deferred: HTTPDeferredHeadDecision) {
        shared.counters.deferredHeadDecisions.add(1, ordering: .relaxed)
        connection.phase = .gating
        connection.gated = gated
        connection.startTimer(configuration.headerTimeout)
        let id = ObjectIdentifier(connection), ticket = gated.ticket
        deferred.start { [weak self] decision in
            self?.post(.headDecided(id, ticket: ticket, decision))
        }
    }

    /// Loop thread: a deferred gate decision came. Dropped when its connection closed (or is another one) since.
    func headDecided(_ id: ObjectIdentifier, ticket: UInt64, _ decision: HTTPHeadDecision) {
        guard let connection = connections[id], connection.phase == .gating, let gated = connection.gated,
              gated.ticket == ticket else { return }
        connection.stopTimer()
        connection.gated = nil
        connection.phase = .head
        admit(connection, gated.parsed, &gated.head, gated.framing, decision)
        guard connection.phase != .closed else { return }
        if connection.readPaused, !connection.peerHalfClosed, let readEvent = connection.readEvent {
            connection.readPaused = false
            event_add(readEvent, nil)
        }
        if !connection.input.isEmpty, connection.phase == .body { consumeInput(connection) }
        if connection.peerHalfClosed { finishHalfClosed(connection) }
    }
}
